import type { OutboxTable } from '../../core/events/outbox.js';

/** Row types of the finance service's tables (see migrations/). */
export interface FinanceDatabase {
  outbox_events: OutboxTable;
}
