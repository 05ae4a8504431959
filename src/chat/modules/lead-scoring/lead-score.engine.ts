import type { Insertable } from 'kysely';
import { parseJsonObject } from '../../../core/time.js';
import { systemContext, type AccountContext, type Q, type Trx } from '../../context.js';
import type { LeadScorer } from '../pipelines/card-scoring.service.js';
import type { CardReads } from '../pipelines/card-reads.js';
import { presentCard, scoreCategory } from '../pipelines/pipeline-cards.presenter.js';
import type { PipelineCardsService } from '../pipelines/pipeline-cards.service.js';
import type { CardView } from '../pipelines/pipeline-cards.views.js';
import type { PipelineCard } from '../pipelines/pipelines.tables.js';
import { conditionsMatch, type LeadEventType } from './lead-score.conditions.js';
import * as repo from './lead-score-engine.repository.js';
import * as rulesRepo from './lead-score-rules.repository.js';
import type { LeadScoreApplicationsTable, LeadScoreLogsTable, LeadScoreRule } from './lead-scoring.tables.js';

/** One event as lead scoring sees it, before it reaches cards. */
export interface LeadEvent {
  /** Unique per source event and type: `outbox:{id}:{type}`, `custom:{random}`... */
  key: string;
  type: LeadEventType;
  subtype: string | null;
  attributes: Record<string, unknown>;
  occurredAt: number;
  /** The card itself, or the open cards of a conversation and/or a contact. */
  reach: { cardId: number } | { conversationId?: number | null; contactId?: number | null };
  /** The conversation (internal id) the event happened in, if any. */
  conversationId: number | null;
}

export const clampScore = (n: number) => Math.min(100, Math.max(0, Math.round(n)));

/** Points of the checked checklist items (unclamped: the clamp applies to the whole sum). */
export function checklistPoints(card: Pick<PipelineCard, 'qualification_checklist'>): number {
  let points = 0;
  for (const item of Object.values(parseJsonObject(card.qualification_checklist))) {
    const i = item as { checked?: unknown; points?: unknown } | null;
    if (i?.checked === true && typeof i.points === 'number') points += i.points;
  }
  return points;
}

/** The card's own attributes, which every condition may name. */
function cardAttributes(view: CardView): Record<string, unknown> {
  const card = presentCard(view);
  return {
    pipeline_id: card.pipeline.id,
    stage_id: card.stage.id,
    value: card.value,
    currency: card.currency,
    owner_id: card.owner?.id ?? null,
    status: card.status,
    contact_id: card.contact?.id ?? null,
  };
}

const MINUTE = 60_000;

/** Whether a rule matches an event (type, subtype, conditions). */
function matches(rule: LeadScoreRule, type: string, subtype: string | null, attributes: Record<string, unknown>) {
  if (rule.event_type !== type) return false;
  if (rule.event_subtype !== null && rule.event_subtype !== subtype) return false;
  return conditionsMatch(parseJsonObject(rule.conditions), attributes);
}

/**
 * The scoring engine (docs/spec/decisions.md §8). Each event that reaches a card is stored with its
 * attributes (the card's included), once per (source event, card); the enabled rules that match
 * apply in ascending priority (ties by id), a rule within its cooldown of its last application on
 * that card (by event time) is skipped; each application is a row, and writes one log row. The
 * score is clamp(0..100, applied points + checked checklist points) unless overridden, written
 * through the pipeline's service (timeline-free `pipeline_card_updated`). Everything for one event
 * and card happens in the caller's transaction.
 */
export class LeadScoringEngine {
  constructor(
    private readonly cards: PipelineCardsService,
    private readonly cardReads: CardReads,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The scorer the pipeline's checklist, override and recalculation use. */
  readonly scorer: LeadScorer & { rebuild(trx: Trx, ctx: AccountContext, card: PipelineCard): Promise<void> } = {
    score: async (q: Q, card: PipelineCard) =>
      clampScore((await repo.appliedPoints(q, card.account_id, card.id)) + checklistPoints(card)),
    factors: async (q: Q, card: PipelineCard) =>
      (await repo.factorsOfCard(q, card.account_id, card.id)).map((f) => ({
        rule_id: Number(f.rule_id),
        name: f.rule_name,
        points: Number(f.points),
      })),
    rebuild: (trx, ctx, card) => this.rebuild(trx, ctx, card),
  };

  /** The live cards an event reaches. */
  async cardsReached(q: Q, accountId: number, event: LeadEvent): Promise<number[]> {
    if ('cardId' in event.reach) return [event.reach.cardId];
    return this.cardReads.openReached(q, accountId, event.reach);
  }

  /** Applies an event to every card it reaches; returns the cards whose events were new. */
  async handle(trx: Trx, accountId: number, event: LeadEvent): Promise<number[]> {
    const ids = await this.cardsReached(trx, accountId, event);
    if (ids.length === 0) return [];
    const rules = await rulesRepo.enabledRulesFor(trx, accountId, event.type);
    const ctx = systemContext(accountId);
    const applied: number[] = [];
    for (const id of ids) {
      const view = await this.cards.get(ctx, id, trx).catch(() => null);
      if (!view) continue;
      if (await this.applyToCard(trx, ctx, view, event, rules)) applied.push(id);
    }
    return applied;
  }

  /** Stores the event for the card and applies the matching rules; false when it was stored already. */
  async applyToCard(
    trx: Trx,
    ctx: AccountContext,
    view: CardView,
    event: LeadEvent,
    rules: LeadScoreRule[],
  ): Promise<boolean> {
    const card = view.card;
    if (
      event.type === 'first_response' &&
      event.conversationId !== null &&
      (await repo.hasEventFor(trx, card.account_id, card.id, 'first_response', event.conversationId))
    )
      return false;
    const attributes = { ...cardAttributes(view), ...event.attributes };
    const stored = await repo.insertEvent(trx, {
      account_id: card.account_id,
      card_id: card.id,
      event_key: event.key,
      event_type: event.type,
      event_subtype: event.subtype,
      attributes: JSON.stringify(attributes),
      contact_id: card.contact_id,
      conversation_id: event.conversationId,
      occurred_at: event.occurredAt,
      created_at: this.clock(),
    });
    if (!stored) return false;
    const overridden = card.lead_score_overridden === 1;
    const checklist = checklistPoints(card);
    let sum = await repo.appliedPoints(trx, card.account_id, card.id);
    let shown = card.lead_score;
    const applications: Insertable<LeadScoreApplicationsTable>[] = [];
    const logs: Insertable<LeadScoreLogsTable>[] = [];
    for (const rule of rules) {
      if (!matches(rule, event.type, event.subtype, attributes)) continue;
      if (rule.cooldown_minutes > 0) {
        const last = await repo.lastApplication(trx, card.account_id, card.id, rule.id, event.occurredAt);
        if (last !== null && event.occurredAt - last < rule.cooldown_minutes * MINUTE) continue;
      }
      applications.push({
        account_id: card.account_id,
        card_id: card.id,
        event_id: stored.id,
        rule_id: rule.id,
        rule_name: rule.name,
        points: rule.points,
        applied_at: event.occurredAt,
      });
      sum += rule.points;
      const next = overridden ? shown : clampScore(sum + checklist);
      logs.push(
        this.log(card, shown, next, rule.points, overridden ? 'rule_applied_while_overridden' : 'rule_applied', {
          rule,
          event,
        }),
      );
      shown = next;
    }
    await repo.insertApplications(trx, applications);
    await repo.insertLogs(trx, logs);
    if (shown !== card.lead_score)
      await this.cards.applyChange(trx, ctx, card, { values: { lead_score: shown }, timeline: [] });
    return true;
  }

  /**
   * Replays a card's stored events with the current enabled rules (cooldowns by event time) and
   * replaces its applications; logs the change of score when there is one. The caller (the
   * pipeline's `recalculate`) then clears the override and writes the score.
   */
  async rebuild(trx: Trx, _ctx: AccountContext, card: PipelineCard, rules?: LeadScoreRule[]): Promise<void> {
    const all = rules ?? (await rulesRepo.enabledRules(trx, card.account_id));
    const events = await repo.eventsOfCard(trx, card.account_id, card.id);
    const lastApplied = new Map<number, number>();
    const applications: Insertable<LeadScoreApplicationsTable>[] = [];
    let sum = 0;
    for (const event of events) {
      const attributes = parseJsonObject(event.attributes);
      const at = Number(event.occurred_at);
      for (const rule of all) {
        if (!matches(rule, event.event_type, event.event_subtype, attributes)) continue;
        const last = lastApplied.get(rule.id);
        if (rule.cooldown_minutes > 0 && last !== undefined && at - last < rule.cooldown_minutes * MINUTE) continue;
        lastApplied.set(rule.id, at);
        applications.push({
          account_id: card.account_id,
          card_id: card.id,
          event_id: event.id,
          rule_id: rule.id,
          rule_name: rule.name,
          points: rule.points,
          applied_at: at,
        });
        sum += rule.points;
      }
    }
    await repo.deleteApplications(trx, card.account_id, card.id);
    for (let i = 0; i < applications.length; i += 200)
      await repo.insertApplications(trx, applications.slice(i, i + 200));
    const next = clampScore(sum + checklistPoints(card));
    if (next !== card.lead_score)
      await repo.insertLogs(trx, [this.log(card, card.lead_score, next, next - card.lead_score, 'recalculation')]);
  }

  /** A log row for a card's change of score (external log rows use it too). */
  log(
    card: Pick<PipelineCard, 'id' | 'account_id' | 'contact_id'>,
    oldScore: number,
    newScore: number,
    points: number,
    reason: string,
    source?: { rule?: LeadScoreRule; event?: Pick<LeadEvent, 'type' | 'subtype'> },
  ): Insertable<LeadScoreLogsTable> {
    return {
      account_id: card.account_id,
      card_id: card.id,
      contact_id: card.contact_id,
      rule_id: source?.rule?.id ?? null,
      rule_name: source?.rule?.name ?? null,
      event_type: source?.event?.type ?? null,
      event_subtype: source?.event?.subtype ?? null,
      points,
      old_score: oldScore,
      new_score: newScore,
      old_category: scoreCategory(oldScore).category,
      new_category: scoreCategory(newScore).category,
      reason,
      created_at: this.clock(),
    };
  }

  /** Writes a log row of a change the pipeline made (checklist, override), unless the card is gone for good. */
  async writeLog(trx: Trx, row: Insertable<LeadScoreLogsTable>): Promise<void> {
    if (!(await this.cardReads.exists(trx, row.account_id, row.card_id))) return;
    await repo.insertLogs(trx, [row]);
  }
}
