import type { Updateable } from 'kysely';
import type { JobDefinition } from '../../../core/jobs/jobs.js';
import { invalidField, notFound } from '../../../core/http/errors.js';
import { rangeOf } from '../../../core/http/timestamps.js';
import { randomToken } from '../../../core/security/tokens.js';
import { parseJsonObject } from '../../../core/time.js';
import { assertStaff, type AccountContext, type ChatDeps, type Q } from '../../context.js';
import type { ActionServices } from './automation-actions.js';
import { actionsOf, type DryRunResult, type PipelineAutomationEngine } from './pipeline-automations.engine.js';
import * as repo from './pipeline-automations.repository.js';
import type { AllExecutionsQuery, AutomationCreateBody, AutomationUpdateBody } from './pipeline-automations.schema.js';
import type {
  AuditAction,
  PipelineAutomation,
  PipelineAutomationAuditLog,
  PipelineAutomationRun,
  PipelineAutomationsTable,
  Trigger,
} from './pipeline-automations.tables.js';
import {
  invalidAutomation,
  validateAutomation,
  type AutomationConfig,
  type ValidationResult,
} from './pipeline-automations.validation.js';

export const TIME_IN_STAGE_JOB = 'pipeline_automations.time_in_stage';
const DAY_MS = 24 * 60 * 60_000;
const STALE_BATCH = 200;

export interface AutomationStats {
  executions_count: number;
  succeeded: number;
  failed: number;
  success_rate: number;
  avg_duration_ms: number;
  last_executed_at: number | null;
}

export interface AutomationDashboard {
  automations_count: number;
  active_count: number;
  executions_today: number;
  success_rate: number;
  recent_failures: (PipelineAutomationRun & { name: string })[];
}

const rate = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10000) / 100);

/** The configuration an automation has (or would have after `body`). */
function configOf(automation: PipelineAutomation | null, body: AutomationUpdateBody = {}): AutomationConfig {
  // Another trigger starts from empty settings unless the body gives its own.
  const retriggered = body.trigger !== undefined && body.trigger !== automation?.trigger;
  return {
    name: body.name ?? automation?.name ?? '',
    trigger: body.trigger ?? automation?.trigger ?? '',
    trigger_config:
      body.trigger_config !== undefined
        ? (body.trigger_config ?? {})
        : retriggered
          ? {}
          : parseJsonObject(automation?.trigger_config ?? '{}'),
    conditions:
      body.conditions !== undefined ? (body.conditions ?? {}) : parseJsonObject(automation?.conditions ?? '{}'),
    actions: body.actions ?? (automation ? actionsOf(automation) : []),
  };
}

/** Only the fields an action may carry are kept: `type` first, then its parameters as sent. */
const storedActions = (actions: Record<string, unknown>[]) => JSON.stringify(actions.map((a) => ({ ...a })));

/**
 * Pipeline automations (docs/spec/decisions.md §9): administrators write, every member reads. Create and
 * update refuse an invalid configuration with 422 and the validator's full list; every write is
 * audited in its transaction. `execute` runs one automation now on one card, `dry_run` tells what
 * it would do there without writing anything.
 */
export class PipelineAutomationsService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly engine: PipelineAutomationEngine,
    private readonly actionServices: ActionServices,
    private readonly clock: () => number = Date.now,
  ) {}

  list(ctx: AccountContext): Promise<PipelineAutomation[]> {
    assertStaff(ctx);
    return repo.listAutomations(this.deps.db, ctx.accountId);
  }

  async get(ctx: AccountContext, id: number, q: Q = this.deps.db): Promise<PipelineAutomation> {
    assertStaff(ctx);
    const automation = await repo.findAutomation(q, ctx.accountId, id);
    if (!automation) throw notFound('Pipeline automation');
    return automation;
  }

  private async checkPipeline(q: Q, ctx: AccountContext, pipelineId: number | null | undefined) {
    if (pipelineId === undefined || pipelineId === null) return;
    await this.actionServices.pipelines.find(q, ctx.accountId, pipelineId);
  }

  private async validated(q: Q, ctx: AccountContext, config: AutomationConfig): Promise<void> {
    const result = await validateAutomation(q, ctx.accountId, config, this.actionServices);
    if (!result.valid) throw invalidAutomation(result);
  }

  async create(ctx: AccountContext, body: AutomationCreateBody): Promise<PipelineAutomation> {
    assertStaff(ctx);
    await this.checkPipeline(this.deps.db, ctx, body.pipeline_id);
    const config = configOf(null, body);
    await this.validated(this.deps.db, ctx, config);
    const now = this.clock();
    return this.deps.db.transaction().execute(async (trx) => {
      const automation = await repo.insertAutomation(trx, {
        account_id: ctx.accountId,
        name: config.name.trim(),
        description: body.description ?? null,
        pipeline_id: body.pipeline_id ?? null,
        trigger: config.trigger as Trigger,
        trigger_config: JSON.stringify(config.trigger_config),
        conditions: JSON.stringify(config.conditions),
        actions: storedActions(config.actions),
        is_active: body.is_active === false ? 0 : 1,
        executions_count: 0,
        last_executed_at: null,
        webhook_secret: randomToken(32),
        round_robin_cursor: null,
        created_at: now,
        updated_at: now,
      });
      await this.audit(trx, ctx, automation.id, 'created', { after: snapshot(automation) });
      return automation;
    });
  }

  async update(ctx: AccountContext, id: number, body: AutomationUpdateBody): Promise<PipelineAutomation> {
    const automation = await this.get(ctx, id);
    await this.checkPipeline(this.deps.db, ctx, body.pipeline_id);
    const config = configOf(automation, body);
    await this.validated(this.deps.db, ctx, config);
    const values: Updateable<PipelineAutomationsTable> = {};
    if (body.name !== undefined) values.name = config.name.trim();
    if (body.description !== undefined) values.description = body.description;
    if (body.pipeline_id !== undefined) values.pipeline_id = body.pipeline_id;
    if (body.trigger !== undefined) values.trigger = config.trigger as Trigger;
    if (body.trigger_config !== undefined || body.trigger !== undefined)
      values.trigger_config = JSON.stringify(config.trigger_config);
    if (body.conditions !== undefined) values.conditions = JSON.stringify(config.conditions);
    if (body.actions !== undefined) values.actions = storedActions(config.actions);
    if (body.is_active !== undefined) values.is_active = body.is_active ? 1 : 0;
    const before = snapshot(automation);
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    const after = { ...before, ...snapshotOfValues(values) };
    for (const key of Object.keys(after) as (keyof typeof after)[])
      if (JSON.stringify(before[key]) !== JSON.stringify(after[key]))
        changes[key] = { from: before[key], to: after[key] };
    if (Object.keys(changes).length === 0) return automation;
    return this.deps.db.transaction().execute(async (trx) => {
      const updated = await repo.updateAutomation(trx, ctx.accountId, id, { ...values, updated_at: this.clock() });
      const toggled = changes.is_active !== undefined;
      if (toggled) await this.audit(trx, ctx, id, updated.is_active ? 'activated' : 'deactivated', {});
      if (Object.keys(changes).length > (toggled ? 1 : 0)) {
        const { is_active: _toggle, ...rest } = changes;
        await this.audit(trx, ctx, id, 'updated', rest);
      }
      return updated;
    });
  }

  async delete(ctx: AccountContext, id: number): Promise<void> {
    const automation = await this.get(ctx, id);
    await this.deps.db.transaction().execute(async (trx) => {
      await repo.deleteAutomation(trx, ctx.accountId, id);
      await this.audit(trx, ctx, id, 'deleted', { before: snapshot(automation) });
    });
  }

  /** An inactive copy named "<name> (copy)". */
  async duplicate(ctx: AccountContext, id: number): Promise<PipelineAutomation> {
    const source = await this.get(ctx, id);
    const now = this.clock();
    return this.deps.db.transaction().execute(async (trx) => {
      const copy = await repo.insertAutomation(trx, {
        account_id: ctx.accountId,
        name: `${source.name} (copy)`.slice(0, 255),
        description: source.description,
        pipeline_id: source.pipeline_id,
        trigger: source.trigger,
        trigger_config: source.trigger_config,
        conditions: source.conditions,
        actions: source.actions,
        is_active: 0,
        executions_count: 0,
        last_executed_at: null,
        webhook_secret: randomToken(32),
        round_robin_cursor: null,
        created_at: now,
        updated_at: now,
      });
      await this.audit(trx, ctx, copy.id, 'duplicated', { source_id: source.id });
      return copy;
    });
  }

  /** The secret that signs an automation's `send_webhook` deliveries (for the delivery worker). */
  secretOf(id: number): Promise<string | null> {
    return repo.webhookSecretOf(this.deps.db, id);
  }

  /** The stored automation's configuration, or (with a body) what an update would make of it. */
  async validate(ctx: AccountContext, id: number, body: AutomationUpdateBody = {}): Promise<ValidationResult> {
    const automation = await this.get(ctx, id);
    await this.checkPipeline(this.deps.db, ctx, body.pipeline_id);
    return validateAutomation(this.deps.db, ctx.accountId, configOf(automation, body), this.actionServices);
  }

  /** A configuration that is not saved (the automation a client is about to create), checked as create would. */
  async validateNew(ctx: AccountContext, body: AutomationUpdateBody): Promise<ValidationResult> {
    assertStaff(ctx);
    await this.checkPipeline(this.deps.db, ctx, body.pipeline_id);
    return validateAutomation(this.deps.db, ctx.accountId, configOf(null, body), this.actionServices);
  }

  private async cardIdOf(ctx: AccountContext, cardId: number | undefined): Promise<number> {
    if (cardId === undefined) throw invalidField('card_id', 'is required');
    await this.actionServices.pipelineCards.get(ctx, cardId); // 404 for another account's card
    return cardId;
  }

  /** Runs the automation now on one card (active or not), recorded as a `manual` run. */
  async execute(ctx: AccountContext, id: number, cardId: number | undefined): Promise<PipelineAutomationRun> {
    const automation = await this.get(ctx, id);
    const card = await this.cardIdOf(ctx, cardId);
    return this.deps.db.transaction().execute(async (trx) => {
      const run = await this.engine.run(trx, automation, card, { trigger: 'manual', now: this.clock() });
      if (!run) throw notFound('Pipeline card');
      await this.audit(trx, ctx, id, 'executed', { card_id: card, run_id: run.id, status: run.status });
      return run;
    });
  }

  /** What a run would do on one card now; reads only. */
  async dryRun(ctx: AccountContext, id: number, cardId: number | undefined): Promise<DryRunResult> {
    const automation = await this.get(ctx, id);
    const card = await this.cardIdOf(ctx, cardId);
    const result = await this.engine.dryRun(this.deps.db, automation, card);
    if (!result) throw notFound('Pipeline card');
    return result;
  }

  async executions(ctx: AccountContext, id: number, page: number, perPage: number) {
    await this.get(ctx, id);
    return repo.listRuns(this.deps.db, ctx.accountId, id, page, perPage);
  }

  /** Every automation's runs, newest first, filtered (an automation of another account finds none). */
  async allExecutions(ctx: AccountContext, query: AllExecutionsQuery) {
    assertStaff(ctx);
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 25;
    const { from, to } = rangeOf(query);
    const result = await repo.listAllRuns(
      this.deps.db,
      ctx.accountId,
      { automationId: query.automation_id, status: query.status, from, to },
      page,
      perPage,
    );
    return { ...result, page, perPage };
  }

  async stats(ctx: AccountContext, id: number): Promise<AutomationStats> {
    const automation = await this.get(ctx, id);
    const totals = await repo.runTotals(this.deps.db, ctx.accountId, { automationId: id });
    return {
      executions_count: totals.executed,
      succeeded: totals.succeeded,
      failed: totals.failed,
      success_rate: rate(totals.succeeded, totals.executed),
      avg_duration_ms: totals.executed === 0 ? 0 : Math.round((totals.durationSum / totals.executed) * 100) / 100,
      last_executed_at: automation.last_executed_at === null ? null : Number(automation.last_executed_at),
    };
  }

  async dashboard(ctx: AccountContext): Promise<AutomationDashboard> {
    assertStaff(ctx);
    const now = this.clock();
    const today = now - (now % DAY_MS);
    const [counts, todayTotals, allTotals, failures] = await Promise.all([
      repo.automationCounts(this.deps.db, ctx.accountId),
      repo.runTotals(this.deps.db, ctx.accountId, { since: today }),
      repo.runTotals(this.deps.db, ctx.accountId, {}),
      repo.recentFailures(this.deps.db, ctx.accountId, 10),
    ]);
    return {
      automations_count: counts.total,
      active_count: counts.active,
      executions_today: todayTotals.executed,
      success_rate: rate(allTotals.succeeded, allTotals.executed),
      recent_failures: failures,
    };
  }

  /** The audit log, also of a deleted automation (404 when the account never had it). */
  async auditLogs(ctx: AccountContext, id: number): Promise<PipelineAutomationAuditLog[]> {
    assertStaff(ctx);
    if (!(await repo.auditExists(this.deps.db, ctx.accountId, id))) throw notFound('Pipeline automation');
    return repo.listAudit(this.deps.db, ctx.accountId, id);
  }

  private async audit(q: Q, ctx: AccountContext, automationId: number, action: AuditAction, changes: object) {
    const user = ctx.actor.type === 'user' ? ctx.actor.user : null;
    await repo.insertAudit(q, {
      account_id: ctx.accountId,
      automation_id: automationId,
      action,
      user_id: user?.id ?? null,
      user_name: user?.name ?? null,
      changes: JSON.stringify(changes),
      created_at: this.clock(),
    });
  }

  /**
   * The time_in_stage check: each active automation fires once per card and stage entry, on open
   * cards that have been `days` in their stage (the run's dedupe key is the stage entry time).
   * Each card's run is its own short transaction.
   */
  async checkTimeInStage(now: number): Promise<number> {
    let fired = 0;
    const automations = await repo.activeAutomationsEverywhere(this.deps.db, 'time_in_stage');
    for (const automation of automations) {
      const days = Number(parseJsonObject(automation.trigger_config).days);
      if (!Number.isInteger(days) || days < 1) continue;
      const accountId = Number(automation.account_id);
      let after = 0;
      for (;;) {
        const cards = await repo.staleCards(
          this.deps.db,
          accountId,
          automation.pipeline_id === null ? null : Number(automation.pipeline_id),
          now - days * DAY_MS,
          after,
          STALE_BATCH,
        );
        for (const card of cards) {
          const key = `stage:${Number(card.stage_entered_at)}`;
          const ran = await this.deps.db.transaction().execute(async (trx) => {
            if (await repo.runExists(trx, accountId, automation.id, 'card', card.id, key)) return false;
            const run = await this.engine.run(trx, automation, card.id, {
              trigger: 'time_in_stage',
              dedupeKey: key,
              now,
            });
            return run !== null && run.status !== 'skipped';
          });
          if (ran) fired++;
        }
        if (cards.length < STALE_BATCH) break;
        after = cards[cards.length - 1].id;
      }
    }
    return fired;
  }

  jobs(): JobDefinition[] {
    return [
      {
        name: TIME_IN_STAGE_JOB,
        schedule: { every: 60 * 60_000 },
        handle: async (_job, context) => {
          await this.checkTimeInStage(context.now);
        },
      },
    ];
  }
}

function snapshot(a: PipelineAutomation) {
  return {
    name: a.name,
    description: a.description,
    pipeline_id: a.pipeline_id === null ? null : Number(a.pipeline_id),
    trigger: a.trigger as string,
    trigger_config: parseJsonObject(a.trigger_config),
    conditions: parseJsonObject(a.conditions),
    actions: actionsOf(a) as unknown[],
    is_active: Number(a.is_active) === 1,
  };
}

function snapshotOfValues(values: Updateable<PipelineAutomationsTable>): Partial<ReturnType<typeof snapshot>> {
  const out: Partial<ReturnType<typeof snapshot>> = {};
  if (values.name !== undefined) out.name = values.name as string;
  if (values.description !== undefined) out.description = values.description as string | null;
  if (values.pipeline_id !== undefined) out.pipeline_id = values.pipeline_id as number | null;
  if (values.trigger !== undefined) out.trigger = values.trigger as string;
  if (values.trigger_config !== undefined) out.trigger_config = parseJsonObject(values.trigger_config as string);
  if (values.conditions !== undefined) out.conditions = parseJsonObject(values.conditions as string);
  if (values.actions !== undefined) out.actions = JSON.parse(values.actions as string) as unknown[];
  if (values.is_active !== undefined) out.is_active = values.is_active === 1;
  return out;
}
