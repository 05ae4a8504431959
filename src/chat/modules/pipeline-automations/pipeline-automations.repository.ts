import type { Insertable, Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { AutomationRunsTable } from '../../db/schema.js';
import type {
  PipelineAutomation,
  PipelineAutomationAuditLog,
  PipelineAutomationAuditLogsTable,
  PipelineAutomationRun,
  PipelineAutomationsTable,
  RunStatus,
  Trigger,
} from './pipeline-automations.tables.js';

export function listAutomations(q: Q, accountId: number): Promise<PipelineAutomation[]> {
  return q.selectFrom('pipeline_automations').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
}

export function findAutomation(q: Q, accountId: number, id: number): Promise<PipelineAutomation | undefined> {
  return q
    .selectFrom('pipeline_automations')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The active automations of one trigger, in id order. */
export function activeAutomations(q: Q, accountId: number, trigger: Trigger): Promise<PipelineAutomation[]> {
  return q
    .selectFrom('pipeline_automations')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('trigger', '=', trigger)
    .where('is_active', '=', 1)
    .orderBy('id')
    .execute();
}

/** Every active automation of a trigger in every account (the scheduled check). */
export function activeAutomationsEverywhere(q: Q, trigger: Trigger): Promise<PipelineAutomation[]> {
  return q
    .selectFrom('pipeline_automations')
    .selectAll()
    .where('trigger', '=', trigger)
    .where('is_active', '=', 1)
    .orderBy('id')
    .execute();
}

export function insertAutomation(q: Q, values: Insertable<PipelineAutomationsTable>): Promise<PipelineAutomation> {
  return q.insertInto('pipeline_automations').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateAutomation(
  q: Q,
  accountId: number,
  id: number,
  values: Updateable<PipelineAutomationsTable>,
): Promise<PipelineAutomation> {
  return q
    .updateTable('pipeline_automations')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The agents of a team, in id order, for round-robin assignment (read in the run's transaction:
 * the teams service reads outside it). Members who left the account are not agents any more.
 */
export async function teamAgentIds(q: Q, accountId: number, teamId: number): Promise<number[]> {
  const rows = await q
    .selectFrom('team_members as tm')
    .innerJoin('account_users as au', (join) =>
      join.onRef('au.user_id', '=', 'tm.user_id').onRef('au.account_id', '=', 'tm.account_id'),
    )
    .select('tm.user_id')
    .where('tm.account_id', '=', accountId)
    .where('tm.team_id', '=', teamId)
    .orderBy('tm.user_id')
    .execute();
  return rows.map((r) => Number(r.user_id));
}

/** Takes the next agent after the automation's cursor (wrapping) and moves the cursor to them. */
export async function advanceRoundRobin(
  q: Q,
  accountId: number,
  automationId: number,
  agentIds: readonly number[],
): Promise<number | null> {
  if (agentIds.length === 0) return null;
  const row = await q
    .selectFrom('pipeline_automations')
    .select('round_robin_cursor')
    .where('account_id', '=', accountId)
    .where('id', '=', automationId)
    .executeTakeFirst();
  const cursor = row?.round_robin_cursor === null || row === undefined ? 0 : Number(row.round_robin_cursor);
  const next = agentIds.find((id) => id > cursor) ?? agentIds[0];
  await q
    .updateTable('pipeline_automations')
    .set({ round_robin_cursor: next })
    .where('account_id', '=', accountId)
    .where('id', '=', automationId)
    .execute();
  return next;
}

/** The signing secret of an automation of any account (the delivery worker's lookup), or null once deleted. */
export async function webhookSecretOf(q: Q, id: number): Promise<string | null> {
  const row = await q
    .selectFrom('pipeline_automations')
    .select('webhook_secret')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.webhook_secret ?? null;
}

export async function deleteAutomation(q: Q, accountId: number, id: number): Promise<void> {
  await q.deleteFrom('pipeline_automations').where('account_id', '=', accountId).where('id', '=', id).execute();
}

/** Counts an executed run on its automation. */
export async function countExecution(q: Q, accountId: number, id: number, at: number): Promise<void> {
  await q
    .updateTable('pipeline_automations')
    .set((eb) => ({ executions_count: eb('executions_count', '+', 1), last_executed_at: at }))
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

/** The runs of pipeline automations: this kind's rows of the shared `automation_runs`. */
const KIND = 'pipeline_automation';

/** A run as the engine records it; the kind and its cascade column are filled in here. */
export type NewRun = Omit<
  Insertable<AutomationRunsTable>,
  'automation_kind' | 'rule_id' | 'pipeline_automation_id' | 'status'
> & { status: RunStatus };

export async function insertRun(q: Q, values: NewRun): Promise<PipelineAutomationRun> {
  const row = await q
    .insertInto('automation_runs')
    .values({ ...values, automation_kind: KIND, pipeline_automation_id: values.automation_id })
    .returningAll()
    .executeTakeFirstOrThrow();
  return row as PipelineAutomationRun;
}

/** Whether a run with this dedupe key exists (a scheduled check already fired for this occasion). */
export async function runExists(
  q: Q,
  accountId: number,
  automationId: number,
  subjectType: string,
  subjectId: number,
  dedupeKey: string,
): Promise<boolean> {
  const row = await q
    .selectFrom('automation_runs')
    .select('id')
    .where('account_id', '=', accountId)
    .where('automation_kind', '=', KIND)
    .where('automation_id', '=', automationId)
    .where('subject_type', '=', subjectType)
    .where('subject_id', '=', subjectId)
    .where('dedupe_key', '=', dedupeKey)
    .executeTakeFirst();
  return row !== undefined;
}

export async function listRuns(
  q: Q,
  accountId: number,
  automationId: number,
  page: number,
  perPage: number,
): Promise<{ rows: PipelineAutomationRun[]; total: number }> {
  const base = q
    .selectFrom('automation_runs')
    .where('account_id', '=', accountId)
    .where('automation_kind', '=', KIND)
    .where('automation_id', '=', automationId);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as PipelineAutomationRun[], total: Number(count.n) };
}

export interface RunFilter {
  automationId?: number;
  status?: RunStatus;
  /** started_at from (included) and to (excluded), epoch ms. */
  from?: number;
  to?: number;
}

/** The account's runs of every automation, newest first (0013's `automation_runs_started_idx`). */
export async function listAllRuns(
  q: Q,
  accountId: number,
  filter: RunFilter,
  page: number,
  perPage: number,
): Promise<{ rows: PipelineAutomationRun[]; total: number }> {
  let base = q.selectFrom('automation_runs').where('account_id', '=', accountId).where('automation_kind', '=', KIND);
  if (filter.automationId !== undefined) base = base.where('automation_id', '=', filter.automationId);
  if (filter.status !== undefined) base = base.where('status', '=', filter.status);
  if (filter.from !== undefined) base = base.where('started_at', '>=', filter.from);
  if (filter.to !== undefined) base = base.where('started_at', '<', filter.to);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as PipelineAutomationRun[], total: Number(count.n) };
}

export interface RunTotals {
  executed: number;
  succeeded: number;
  failed: number;
  durationSum: number;
}

/** Executed runs (succeeded or failed) of one automation, or of the account since a time. */
export async function runTotals(
  q: Q,
  accountId: number,
  filter: { automationId?: number; since?: number },
): Promise<RunTotals> {
  let query = q
    .selectFrom('automation_runs')
    .select(['status'])
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.sum<number | string>('duration_ms').as('d')])
    .where('account_id', '=', accountId)
    .where('automation_kind', '=', KIND)
    .where('status', 'in', ['succeeded', 'failed'])
    .groupBy('status');
  if (filter.automationId !== undefined) query = query.where('automation_id', '=', filter.automationId);
  if (filter.since !== undefined) query = query.where('started_at', '>=', filter.since);
  const rows = await query.execute();
  const totals: RunTotals = { executed: 0, succeeded: 0, failed: 0, durationSum: 0 };
  for (const row of rows) {
    const n = Number(row.n);
    totals.executed += n;
    totals.durationSum += Number(row.d ?? 0);
    if (row.status === 'succeeded') totals.succeeded += n;
    else totals.failed += n;
  }
  return totals;
}

/** The account's latest failed runs, with their automation's name. */
export async function recentFailures(
  q: Q,
  accountId: number,
  limit: number,
): Promise<(PipelineAutomationRun & { name: string })[]> {
  const rows = await q
    .selectFrom('automation_runs as r')
    .innerJoin('pipeline_automations as a', (join) =>
      join.onRef('a.id', '=', 'r.automation_id').onRef('a.account_id', '=', 'r.account_id'),
    )
    .selectAll('r')
    .select('a.name')
    .where('r.account_id', '=', accountId)
    .where('r.automation_kind', '=', KIND)
    .where('r.status', '=', 'failed')
    .orderBy('r.id', 'desc')
    .limit(limit)
    .execute();
  return rows as (PipelineAutomationRun & { name: string })[];
}

export async function automationCounts(q: Q, accountId: number): Promise<{ total: number; active: number }> {
  const rows = await q
    .selectFrom('pipeline_automations')
    .select('is_active')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('account_id', '=', accountId)
    .groupBy('is_active')
    .execute();
  let total = 0;
  let active = 0;
  for (const row of rows) {
    total += Number(row.n);
    if (Number(row.is_active) === 1) active += Number(row.n);
  }
  return { total, active };
}

export async function insertAudit(q: Q, values: Insertable<PipelineAutomationAuditLogsTable>): Promise<void> {
  await q.insertInto('pipeline_automation_audit_logs').values(values).execute();
}

export function listAudit(q: Q, accountId: number, automationId: number): Promise<PipelineAutomationAuditLog[]> {
  return q
    .selectFrom('pipeline_automation_audit_logs')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('automation_id', '=', automationId)
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
}

/** Whether the account ever had this automation (its audit log outlives it). */
export async function auditExists(q: Q, accountId: number, automationId: number): Promise<boolean> {
  const row = await q
    .selectFrom('pipeline_automation_audit_logs')
    .select('id')
    .where('account_id', '=', accountId)
    .where('automation_id', '=', automationId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Open cards that entered their stage before `before` (the time_in_stage check), by id after `afterId`. */
export function staleCards(
  q: Q,
  accountId: number,
  pipelineId: number | null,
  before: number,
  afterId: number,
  limit: number,
): Promise<{ id: number; stage_entered_at: number }[]> {
  let query = q
    .selectFrom('pipeline_cards')
    .select(['id', 'stage_entered_at'])
    .where('account_id', '=', accountId)
    .where('status', '=', 'open')
    .where('deleted_at', 'is', null)
    .where('stage_entered_at', '<=', before)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit);
  if (pipelineId !== null) query = query.where('pipeline_id', '=', pipelineId);
  return query.execute();
}
