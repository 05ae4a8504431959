import type { FastifyBaseLogger } from 'fastify';
import type { EventOf } from '../../../core/events/dispatcher.js';
import { HttpError } from '../../../core/http/errors.js';
import { parseJsonObject } from '../../../core/time.js';
import type { AccountContext, ChatDeps, Q, Trx } from '../../context.js';
import type { ChatEvents } from '../../events.js';
import { conditionsMatch } from '../lead-scoring/lead-score.conditions.js';
import { ACTIONS, paramsOf, type ActionServices } from './automation-actions.js';
import { inSavepoint } from '../../../core/db/savepoint.js';
import type { SubjectAdapter } from '../automation-rules/automation.runner.js';
import { CardSubjects, type CardSubject } from './automation-card.subject.js';
import * as repo from './pipeline-automations.repository.js';
import type { PipelineAutomation, PipelineAutomationRun, RunStatus, Trigger } from './pipeline-automations.tables.js';

/** The card events automations listen to. */
export const AUTOMATION_EVENTS = [
  'pipeline_card_created',
  'pipeline_card_moved',
  'pipeline_card_updated',
  'pipeline_card_won',
  'pipeline_card_lost',
] as const;
export type AutomationEvent = EventOf<ChatEvents, (typeof AUTOMATION_EVENTS)[number]>;

/** What an event triggers: the trigger, the card, and the attributes the trigger adds. */
export interface Firing {
  trigger: Trigger;
  cardId: number;
  pipelineId: number;
  extra: Record<string, unknown>;
  /** score_threshold: the score before and after. */
  score?: { previous: number; current: number };
}

export interface RunOptions {
  trigger: string;
  extra?: Record<string, unknown>;
  eventId?: number | null;
  dedupeKey?: string | null;
  now?: number;
}

/** What a card run is about: the card, the trigger's attributes, and the run's clock. */
interface CardTarget {
  cardId: number;
  extra: Record<string, unknown>;
  now: number;
}

export interface DryRunResult {
  would_execute: boolean;
  conditions: { key: string; expected: unknown; actual: unknown; result: boolean }[];
  actions: { type: string; params: Record<string, unknown>; resolved: Record<string, unknown> }[];
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000);

/** The previous and current value of one attribute in an update's `changed_attributes`. */
function changeOf(snapshot: unknown, key: string): { previous: unknown; current: unknown } | null {
  const list = (snapshot as { changed_attributes?: unknown }).changed_attributes;
  if (!Array.isArray(list)) return null;
  for (const item of list) {
    const change = (item as Record<string, { previous_value: unknown; current_value: unknown }>)[key];
    if (change) return { previous: change.previous_value, current: change.current_value };
  }
  return null;
}

/** The triggers one card event fires (an update may be an assignment and a score change at once). */
export function firingsOf(event: AutomationEvent): Firing[] {
  const base = { cardId: event.refs.cardId, pipelineId: event.refs.pipelineId };
  switch (event.name) {
    case 'pipeline_card_created':
      return [{ ...base, trigger: 'card_created', extra: {} }];
    case 'pipeline_card_moved':
      return [
        {
          ...base,
          trigger: 'stage_change',
          extra: { from_stage: event.refs.fromStageId, to_stage: event.refs.toStageId },
        },
      ];
    case 'pipeline_card_won':
      return [{ ...base, trigger: 'deal_won', extra: {} }];
    case 'pipeline_card_lost':
      return [{ ...base, trigger: 'deal_lost', extra: {} }];
    case 'pipeline_card_updated': {
      const out: Firing[] = [];
      // An assignment names the previous owner; unassigning is not an assignment.
      if (event.refs.previousOwnerId !== undefined && event.refs.ownerId !== null)
        out.push({
          ...base,
          trigger: 'card_assigned',
          extra: { previous_owner_id: event.refs.previousOwnerId ?? null },
        });
      const score = changeOf(event.snapshot, 'lead_score');
      if (score && typeof score.previous === 'number' && typeof score.current === 'number')
        out.push({
          ...base,
          trigger: 'score_threshold',
          extra: { previous_score: score.previous },
          score: { previous: score.previous, current: score.current },
        });
      return out;
    }
  }
}

/** Whether a score change crosses the automation's threshold in its direction (once per crossing). */
export function crosses(automation: PipelineAutomation, score: { previous: number; current: number }): boolean {
  const config = parseJsonObject(automation.trigger_config);
  const threshold = Number(config.threshold);
  if (config.direction === 'down') return score.previous >= threshold && score.current < threshold;
  return score.previous < threshold && score.current >= threshold;
}

/** The context an automation acts in: administrator powers, no user; its events carry origin 'automation'. */
export const automationContext = (accountId: number, automationId: number): AccountContext => ({
  accountId,
  actor: { type: 'automation', ruleId: automationId },
  role: 'administrator',
  userId: null,
});

/**
 * The automation engine for cards. A run loads the card through the card subject adapter,
 * evaluates the conditions over its attributes and applies the actions in order through the
 * action registry, acting as the automation (events with origin 'automation', which automations
 * never react to: no loops; lead scoring, webhooks and realtime still see them). Each run is its
 * own savepoint: a failing action rolls back that automation's changes alone, and the run is
 * recorded as failed with the action's error.
 */
export class PipelineAutomationEngine {
  readonly subjects: CardSubjects;
  private readonly adapter: SubjectAdapter<PipelineAutomation, CardTarget, CardSubject, Record<string, unknown>>;

  constructor(
    private readonly deps: ChatDeps,
    private readonly services: ActionServices,
    private readonly logger?: FastifyBaseLogger,
  ) {
    this.subjects = new CardSubjects(services.pipelineCards);
    const subjects = this.subjects;
    this.adapter = {
      type: 'card',
      load: (trx, ctx, target) => subjects.load(trx, ctx, target.cardId, target.extra, target.now),
      matches: async (_trx, automation, subject) =>
        conditionsMatch(parseJsonObject(automation.conditions), subject.attributes),
      actions: (automation) => actionsOf(automation),
    };
  }

  /** The same engine, logging crashed runs (the background's, with its logger). */
  withLogger(logger: FastifyBaseLogger): PipelineAutomationEngine {
    return new PipelineAutomationEngine(this.deps, this.services, logger);
  }

  /** The listener's work for one event, in the dispatch transaction. */
  async handle(trx: Trx, event: AutomationEvent): Promise<void> {
    if (event.accountId === null || event.origin === 'automation') return;
    for (const firing of firingsOf(event)) {
      const automations = await repo.activeAutomations(trx, event.accountId, firing.trigger);
      for (const automation of automations) {
        if (automation.pipeline_id !== null && Number(automation.pipeline_id) !== firing.pipelineId) continue;
        if (firing.score && !crosses(automation, firing.score)) continue;
        await this.run(trx, automation, firing.cardId, {
          trigger: firing.trigger,
          extra: firing.extra,
          eventId: event.id,
        });
      }
    }
  }

  /**
   * Runs one automation on one card inside `trx` (its own savepoint) and records the run. Answers
   * the run (null when the card is gone: nothing to record).
   */
  async run(
    trx: Trx,
    automation: PipelineAutomation,
    cardId: number,
    options: RunOptions,
  ): Promise<PipelineAutomationRun | null> {
    const accountId = Number(automation.account_id);
    const ctx = automationContext(accountId, automation.id);
    const startedAt = options.now ?? Date.now();
    const clockStart = performance.now();
    const results: { type: string; status: string; error: string | null }[] = [];
    const target: CardTarget = { cardId, extra: options.extra ?? {}, now: startedAt };
    const result = await inSavepoint(trx, `pipeline_automation_${Number(automation.id)}`, async () => {
      const subject = await this.adapter.load(trx, ctx, target);
      if (!subject) return 'gone' as const;
      if (!(await this.adapter.matches(trx, automation, subject, target))) return 'skipped' as const;
      for (const action of this.adapter.actions(automation)) {
        const definition = ACTIONS[String(action.type)];
        results.push({ type: String(action.type), status: 'failed', error: null });
        if (!definition) throw new Error(`unknown action ${String(action.type)}`);
        const resolved = definition.resolve(paramsOf(action), subject);
        await definition.run(resolved, subject, {
          trx,
          deps: this.deps,
          ctx,
          services: this.services,
          automation: { id: automation.id, name: automation.name },
        });
        results[results.length - 1].status = 'succeeded';
        // Later actions see the card as the earlier ones left it.
        const reloaded = await this.adapter.load(trx, ctx, target);
        if (reloaded) Object.assign(subject, reloaded);
      }
      return 'succeeded' as const;
    });
    let status: RunStatus;
    let error: string | null = null;
    if (result.ok) {
      if (result.value === 'gone') return null;
      status = result.value;
    } else {
      status = 'failed';
      error = describe(result.error);
      const last = results[results.length - 1];
      if (last) last.error = error;
      for (const r of results) if (r.status === 'succeeded') r.status = 'rolled_back';
      if (!(result.error instanceof HttpError))
        this.logger?.error({ err: result.error, automationId: automation.id, cardId }, 'pipeline automation crashed');
    }
    const finishedAt = startedAt + Math.max(0, Math.round(performance.now() - clockStart));
    const run = await repo.insertRun(trx, {
      account_id: accountId,
      automation_id: automation.id,
      subject_type: this.adapter.type,
      subject_id: cardId,
      trigger: options.trigger,
      status,
      actions: JSON.stringify(results),
      error,
      event_id: options.eventId ?? null,
      dedupe_key: options.dedupeKey ?? null,
      started_at: startedAt,
      finished_at: finishedAt,
      duration_ms: finishedAt - startedAt,
    });
    if (status !== 'skipped') await repo.countExecution(trx, accountId, automation.id, finishedAt);
    return run;
  }

  /**
   * What a run would do on the card now, computed from reads alone: each condition with its
   * expected and actual value, and each action with its parameters rendered. Writes nothing.
   */
  async dryRun(q: Q, automation: PipelineAutomation, cardId: number): Promise<DryRunResult | null> {
    const ctx = automationContext(Number(automation.account_id), automation.id);
    const subject = await this.subjects.load(q, ctx, cardId);
    if (!subject) return null;
    const conditions = Object.entries(parseJsonObject(automation.conditions)).map(([key, condition]) => ({
      key,
      expected: condition,
      actual: subject.attributes[key] ?? null,
      result: conditionsMatch({ [key]: condition }, subject.attributes),
    }));
    return {
      would_execute: conditions.every((c) => c.result),
      conditions,
      actions: actionsOf(automation).map((action) => ({
        type: String(action.type),
        params: paramsOf(action),
        resolved: resolve(action, subject),
      })),
    };
  }
}

function resolve(action: Record<string, unknown>, subject: CardSubject): Record<string, unknown> {
  const definition = ACTIONS[String(action.type)];
  return definition ? definition.resolve(paramsOf(action), subject) : {};
}

export function actionsOf(automation: PipelineAutomation): Record<string, unknown>[] {
  try {
    const parsed = JSON.parse(automation.actions) as unknown;
    return Array.isArray(parsed) ? (parsed as Record<string, unknown>[]) : [];
  } catch {
    return [];
  }
}
