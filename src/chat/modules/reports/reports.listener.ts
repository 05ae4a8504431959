import { chatListener } from '../../events.js';
import type { ReportsService } from './reports.service.js';

/**
 * Writes reporting events as things happen, in the dispatch transaction (once per event):
 * conversations created, opened and resolved, first responses, replies with the customer's
 * wait, and every incoming and outgoing message. Reports read only these rows.
 */
export function reportingListener(reports: ReportsService) {
  return chatListener({
    name: 'reports.reporting-events',
    events: ['conversation_created', 'conversation_status_changed', 'message_created'],
    async handle(trx, event) {
      if (event.accountId === null) return;
      switch (event.name) {
        case 'conversation_created':
          await reports.recordCreated(trx, event.accountId, event.refs, event.snapshot, event.createdAt);
          return;
        case 'conversation_status_changed':
          await reports.recordStatus(trx, event.accountId, event.refs, event.snapshot, event.createdAt);
          return;
        case 'message_created':
          await reports.recordMessage(trx, event.accountId, event.refs, event.snapshot, event.createdAt);
          return;
      }
    },
  });
}
