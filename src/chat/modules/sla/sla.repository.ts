import { sql, type Insertable, type Updateable } from 'kysely';
import { sameValueNoIndex } from '../../../core/db/where.js';
import type { Q } from '../../context.js';
import type {
  AppliedSla,
  AppliedSlaStatus,
  AppliedSlasTable,
  BreachType,
  SlaEvent,
  SlaPoliciesTable,
  SlaPolicy,
} from './sla.migration.js';

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

/* Policies ------------------------------------------------------------------------------------ */

export function listPolicies(q: Q, accountId: number): Promise<SlaPolicy[]> {
  return q.selectFrom('sla_policies').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
}

/**
 * A policy of the account. `share` (PostgreSQL) keeps it from changing until the transaction ends:
 * applying it then gives deadlines of the thresholds that a concurrent edit recomputes, or waits for it.
 */
export function findPolicy(
  q: Q,
  accountId: number,
  id: number,
  options: { share?: boolean } = {},
): Promise<SlaPolicy | undefined> {
  const query = q.selectFrom('sla_policies').selectAll().where('account_id', '=', accountId).where('id', '=', id);
  return (options.share ? query.forShare() : query).executeTakeFirst();
}

export function insertPolicy(q: Q, values: Insertable<SlaPoliciesTable>): Promise<SlaPolicy> {
  return q.insertInto('sla_policies').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updatePolicy(q: Q, accountId: number, id: number, values: Updateable<SlaPoliciesTable>) {
  return q
    .updateTable('sla_policies')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deletePolicy(q: Q, accountId: number, id: number): Promise<void> {
  await bumpVersion(q, accountId);
  await q.deleteFrom('sla_policies').where('account_id', '=', accountId).where('id', '=', id).execute();
}

/* The metrics' cache key ------------------------------------------------------------------------- */

/** Raises the account's version, in the transaction of a change to its applied SLAs. */
export async function bumpVersion(q: Q, accountId: number): Promise<void> {
  await q
    .insertInto('sla_versions')
    .values({ account_id: accountId, version: 1 })
    .onConflict((oc) => oc.column('account_id').doUpdateSet((eb) => ({ version: eb('sla_versions.version', '+', 1) })))
    .execute();
}

/** The account's version and number of applied SLAs (a deletion by cascade changes the count). */
export async function versionOf(q: Q, accountId: number): Promise<string> {
  const [row, count] = await Promise.all([
    q.selectFrom('sla_versions').select('version').where('account_id', '=', accountId).executeTakeFirst(),
    q
      .selectFrom('applied_slas')
      .where('account_id', '=', accountId)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return `${row?.version ?? 0}:${num(count.n)}`;
}

/* Applied SLAs -------------------------------------------------------------------------------- */

export function appliedOfConversation(q: Q, accountId: number, conversationId: number) {
  return q
    .selectFrom('applied_slas')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('conversation_id', '=', conversationId)
    .executeTakeFirst();
}

/** An applied SLA re-read in a transaction that is about to change it (row lock on PostgreSQL). */
export function lockApplied(q: Q, accountId: number, id: number, postgres: boolean) {
  const query = q.selectFrom('applied_slas').selectAll().where('account_id', '=', accountId).where('id', '=', id);
  return (postgres ? query.forUpdate() : query).executeTakeFirst();
}

export async function insertApplied(q: Q, values: Insertable<AppliedSlasTable>): Promise<AppliedSla> {
  await bumpVersion(q, values.account_id);
  return q.insertInto('applied_slas').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateApplied(q: Q, accountId: number, id: number, values: Updateable<AppliedSlasTable>) {
  await bumpVersion(q, accountId);
  await q.updateTable('applied_slas').set(values).where('account_id', '=', accountId).where('id', '=', id).execute();
}

/** New deadlines (and what they settle) of one applied SLA, for updateDeadlines. */
export interface DeadlineUpdate {
  id: number;
  status: AppliedSlaStatus;
  next_check_at: number | null;
  first_response_due: number;
  waiting_since: number | null;
  next_response_due: number | null;
  resolution_due: number | null;
}

/**
 * Writes the new deadlines of many applied SLAs of the account in one statement per 100 rows
 * (`column = case id when ... end`); the caller raised the account's version.
 */
export async function updateDeadlines(
  q: Q,
  accountId: number,
  rows: readonly DeadlineUpdate[],
  now: number,
): Promise<void> {
  const columns = [
    'status',
    'next_check_at',
    'first_response_due',
    'waiting_since',
    'next_response_due',
    'resolution_due',
  ] as const;
  for (let i = 0; i < rows.length; i += 100) {
    const chunk = rows.slice(i, i + 100);
    const cases = columns.map((column) => {
      const type = sql.raw(column === 'status' ? 'text' : 'bigint');
      const whens = chunk.map((r) => sql`when ${r.id} then cast(${r[column]} as ${type})`);
      return sql`${sql.ref(column)} = case ${sql.ref('id')} ${sql.join(whens, sql` `)} end`;
    });
    await sql`update applied_slas set ${sql.join(cases)}, updated_at = ${now}
      where ${sameValueNoIndex('account_id', accountId)} and id in (${sql.join(chunk.map((r) => r.id))})`.execute(q);
  }
}

/**
 * The applied SLAs of a page of conversations with what the conversation shows of their policy:
 * one query for the page (applied_slas_conversation_uidx).
 */
export function appliedOfConversations(q: Q, accountId: number, conversationIds: readonly number[]) {
  return q
    .selectFrom('applied_slas as a')
    .innerJoin('sla_policies as p', 'p.id', 'a.sla_policy_id')
    .where(sameValueNoIndex('a.account_id', accountId))
    .where('a.conversation_id', 'in', conversationIds)
    .selectAll('a')
    .select([
      'p.name as policy_name',
      'p.description as policy_description',
      'p.first_response_time_threshold as policy_first_response',
      'p.next_response_time_threshold as policy_next_response',
      'p.resolution_time_threshold as policy_resolution',
      'p.only_during_business_hours as policy_business_hours',
    ])
    .execute();
}
export type AppliedWithPolicy = Awaited<ReturnType<typeof appliedOfConversations>>[number];

/** The ids of a policy's applied SLAs whose conversation is not resolved, in id order. */
export async function openAppliedIdsOfPolicy(q: Q, accountId: number, policyId: number): Promise<number[]> {
  const rows = await q
    .selectFrom('applied_slas')
    .select('id')
    .where('account_id', '=', accountId)
    .where('sla_policy_id', '=', policyId)
    .where('resolved_at', 'is', null)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Those of `ids` still not resolved, with the conversation's own wait; locked for the transaction
 * on PostgreSQL, in id order (as the scheduler's sweep locks them).
 */
export function openAppliedByIds(q: Q, accountId: number, ids: readonly number[], postgres: boolean) {
  const query = q
    .selectFrom('applied_slas as a')
    .innerJoin('conversations as c', 'c.id', 'a.conversation_id')
    .where(sameValueNoIndex('a.account_id', accountId))
    .where('a.id', 'in', ids)
    .where('a.resolved_at', 'is', null)
    .selectAll('a')
    .select('c.waiting_since as conversation_waiting_since')
    .orderBy('a.id');
  return (postgres ? query.forUpdate('a') : query).execute();
}

export async function deleteApplied(q: Q, accountId: number, id: number): Promise<void> {
  await bumpVersion(q, accountId);
  await q.deleteFrom('applied_slas').where('account_id', '=', accountId).where('id', '=', id).execute();
}

/** Applied SLAs (every account) with a deadline to check at or before `now`, earliest first. */
export function dueForCheck(q: Q, now: number, limit: number) {
  return q
    .selectFrom('applied_slas')
    .select(['id', 'account_id'])
    .where('next_check_at', '<=', now)
    .orderBy('next_check_at')
    .limit(limit)
    .execute();
}

/** Records a breach unless that deadline's breach is already there; true when this call recorded it. */
export async function insertBreach(
  q: Q,
  row: { account_id: number; applied_sla_id: number; event_type: BreachType; due_at: number; created_at: number },
): Promise<boolean> {
  const inserted = await q
    .insertInto('sla_events')
    .values(row)
    .onConflict((oc) => oc.columns(['applied_sla_id', 'event_type', 'due_at']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export function breachesOf(q: Q, accountId: number, appliedIds: readonly number[]): Promise<SlaEvent[]> {
  if (appliedIds.length === 0) return Promise.resolve([]);
  return q
    .selectFrom('sla_events')
    .selectAll()
    .where(sameValueNoIndex('account_id', accountId))
    .where('applied_sla_id', 'in', appliedIds)
    .orderBy('due_at')
    .orderBy('id')
    .execute();
}

export interface AppliedFilter {
  slaPolicyId?: number;
  status?: AppliedSlaStatus;
  from?: number;
  to?: number;
  inboxId?: number;
  teamId?: number;
  assigneeId?: number;
}

function filtered(q: Q, accountId: number, f: AppliedFilter) {
  let query = q.selectFrom('applied_slas as a').where('a.account_id', '=', accountId);
  if (f.slaPolicyId !== undefined) query = query.where('a.sla_policy_id', '=', f.slaPolicyId);
  if (f.status !== undefined) query = query.where('a.status', '=', f.status);
  if (f.from !== undefined) query = query.where('a.created_at', '>=', f.from);
  if (f.to !== undefined) query = query.where('a.created_at', '<', f.to);
  if (f.inboxId !== undefined) query = query.where('a.inbox_id', '=', f.inboxId);
  if (f.teamId !== undefined) query = query.where('a.team_id', '=', f.teamId);
  if (f.assigneeId !== undefined) query = query.where('a.assignee_id', '=', f.assigneeId);
  return query;
}

/** Applied SLAs with what their list and CSV show of the conversation, contact and policy, newest first. */
export function listApplied(q: Q, accountId: number, f: AppliedFilter, page?: { limit: number; offset: number }) {
  let query = filtered(q, accountId, f)
    .innerJoin('conversations as c', 'c.id', 'a.conversation_id')
    .innerJoin('contacts as ct', 'ct.id', 'c.contact_id')
    .innerJoin('sla_policies as p', 'p.id', 'a.sla_policy_id')
    .selectAll('a')
    .select([
      'c.status as conversation_status',
      'c.contact_id as contact_id',
      'ct.name as contact_name',
      'p.name as policy_name',
    ])
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'desc');
  if (page) query = query.limit(page.limit).offset(page.offset);
  return query.execute();
}
export type AppliedListRow = Awaited<ReturnType<typeof listApplied>>[number];

export async function countApplied(q: Q, accountId: number, f: AppliedFilter): Promise<number> {
  const row = await filtered(q, accountId, f)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return num(row.n);
}

/** The metrics' figures in two grouped queries: applied SLAs by status with times, and breaches by type. */
export async function metrics(q: Q, accountId: number, f: AppliedFilter) {
  const row = await filtered(q, accountId, f)
    .select((eb) => [
      eb.fn.countAll<number | string>().as('total'),
      sql<number>`sum(case when a.status = 'hit' then 1 else 0 end)`.as('hit'),
      sql<number>`sum(case when a.status = 'missed' then 1 else 0 end)`.as('missed'),
      sql<number>`sum(case when a.first_response_at is not null then a.first_response_at - a.conversation_created_at else 0 end)`.as(
        'frt_sum',
      ),
      sql<number>`sum(case when a.first_response_at is not null then 1 else 0 end)`.as('frt_n'),
      sql<number>`sum(case when a.resolved_at is not null then a.resolved_at - a.conversation_created_at else 0 end)`.as(
        'rt_sum',
      ),
      sql<number>`sum(case when a.resolved_at is not null then 1 else 0 end)`.as('rt_n'),
    ])
    .executeTakeFirstOrThrow();
  // Without a filter the account's breaches are counted from their own index, without the join.
  const unfiltered = Object.values(f).every((v) => v === undefined);
  const breaches = unfiltered
    ? await q
        .selectFrom('sla_events')
        .where('account_id', '=', accountId)
        .select((eb) => ['event_type as type', eb.fn.countAll<number | string>().as('n')])
        .groupBy('event_type')
        .execute()
    : await filtered(q, accountId, f)
        .innerJoin('sla_events as e', 'e.applied_sla_id', 'a.id')
        .select((eb) => ['e.event_type as type', eb.fn.countAll<number | string>().as('n')])
        .groupBy('e.event_type')
        .execute();
  return {
    total: num(row.total),
    hit: num(row.hit),
    missed: num(row.missed),
    frtSum: num(row.frt_sum),
    frtCount: num(row.frt_n),
    rtSum: num(row.rt_sum),
    rtCount: num(row.rt_n),
    breaches: new Map(breaches.map((b) => [b.type as BreachType, num(b.n)])),
  };
}
