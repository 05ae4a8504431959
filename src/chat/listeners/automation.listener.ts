import { chatListener } from '../events.js';
import { RULE_TRIGGER_EVENTS, type AutomationEngine } from '../modules/automation-rules/automation.engine.js';

/**
 * Runs the account's automation rules for conversation and message events, in the event's
 * transaction (automation.engine.ts). Events that rule actions caused (origin 'automation') are
 * skipped: changes made by a rule never trigger rules again.
 */
export function automationListener(engine: AutomationEngine) {
  return chatListener({
    name: 'automation',
    events: RULE_TRIGGER_EVENTS,
    async handle(trx, event) {
      if (event.origin === 'automation') return;
      await engine.handle(trx, event);
    },
  });
}
