import type { EventListener } from '../../core/events/dispatcher.js';
import type { ChatDatabase } from '../db/schema.js';
import type { AutomationEngine } from '../modules/automation-rules/automation.engine.js';

/**
 * Runs the account's automation rules for conversation and message events, inside the dispatch
 * transaction (automation.engine.ts). Events that rule actions caused (origin 'automation') are
 * skipped: changes made by a rule never trigger rules again.
 */
export function automationListener(engine: AutomationEngine): EventListener<ChatDatabase> {
  return {
    name: 'automation',
    async inTransaction(trx, event) {
      if (event.origin === 'automation') return;
      await engine.handle(trx, event);
    },
  };
}
