import { chatListener } from '../../events.js';
import { AUTOMATION_EVENTS, type PipelineAutomationEngine } from './pipeline-automations.engine.js';

/**
 * Runs the account's pipeline automations for card events, in the dispatch transaction (after the
 * triggering change committed). Events that automations caused (origin 'automation') are skipped.
 */
export function pipelineAutomationsListener(engine: PipelineAutomationEngine) {
  return chatListener({
    name: 'pipeline-automations',
    events: AUTOMATION_EVENTS,
    async handle(trx, event) {
      if (event.origin === 'automation') return;
      await engine.handle(trx, event);
    },
  });
}
