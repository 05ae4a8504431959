import { chatListener } from '../../events.js';
import type { Trx } from '../../context.js';
import type { LeadScoringEngine } from './lead-score.engine.js';
import { changesOf, leadEventsOf, SCORED_EVENTS, type ScoredEvent } from './lead-score.mapping.js';

/**
 * The engine's listener on the typed event stream: maps each event to lead events, applies them to
 * the cards they reach, in the dispatch transaction (its own savepoint: a scoring failure is
 * retried alone and costs no other listener its work). Stored events are keyed by outbox event id
 * and card, so a redelivered event scores once. It also logs the score changes the pipeline makes
 * itself: a ticked checklist and a manual override.
 */
export function leadScoreListener(engine: LeadScoringEngine) {
  return chatListener({
    name: 'lead-scoring.engine',
    events: [...SCORED_EVENTS],
    async handle(trx, event) {
      if (event.accountId === null) return;
      for (const lead of leadEventsOf(event)) await engine.handle(trx, event.accountId, lead);
      if (event.name === 'pipeline_card_updated') await logPipelineChange(trx, engine, event.accountId, event);
    },
  });
}

/** A log row for a checklist change that moved the score, or for a manual override. */
async function logPipelineChange(trx: Trx, engine: LeadScoringEngine, accountId: number, event: ScoredEvent) {
  if (event.name !== 'pipeline_card_updated') return;
  const changes = changesOf(event.snapshot);
  const snapshot = event.snapshot as { lead_score?: unknown; lead_score_overridden?: unknown };
  const score = changes.lead_score;
  const oldScore = Number(score?.previous_value ?? snapshot.lead_score ?? 0);
  const newScore = Number(score?.current_value ?? snapshot.lead_score ?? 0);
  const card = { id: event.refs.cardId, account_id: accountId, contact_id: event.refs.contactId };
  let reason: string | null = null;
  if (changes.qualification_checklist && score) reason = 'checklist';
  else if (snapshot.lead_score_overridden === true && (score || changes.lead_score_overridden))
    reason = 'manual_override';
  if (!reason) return;
  await engine.writeLog(trx, engine.log(card, oldScore, newScore, newScore - oldScore, reason));
}
