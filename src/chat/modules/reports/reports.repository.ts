import { sql, type Insertable } from 'kysely';
import type { Q } from '../../context.js';
import type {
  ReportingConversationsTable,
  ReportingEvent,
  ReportingEventName,
  ReportingEventsTable,
} from './reports.migration.js';

/** Whose events a report reads: the account's, or those of one inbox, agent, team or label. */
export type ReportScope =
  { kind: 'account' } | { kind: 'inbox' | 'user' | 'team'; id: number } | { kind: 'label'; label: string };

/** A time range in epoch ms, `from` included, `to` excluded. */
export interface Range {
  from: number;
  to: number;
}

export interface Totals {
  count: number;
  sum: number;
}

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

/** The rollups' bucket length: 15 minutes, so that every real time zone's days are whole buckets. */
export const BUCKET_MS = 15 * 60_000;

const scopeKey = (scope: ReportScope) =>
  scope.kind === 'account' ? 'account' : scope.kind === 'label' ? `label:${scope.label}` : `${scope.kind}:${scope.id}`;

/**
 * Records one event, one row per label the conversation carried (label reports), and adds it to
 * the rollups of the account and of its inbox, agent, team and labels.
 */
export async function insertEvent(
  q: Q,
  row: Insertable<ReportingEventsTable>,
  labels: readonly string[],
): Promise<void> {
  const inserted = await q.insertInto('reporting_events').values(row).returning('id').executeTakeFirstOrThrow();
  const scopes: ReportScope[] = [{ kind: 'account' }];
  if (row.inbox_id != null) scopes.push({ kind: 'inbox', id: row.inbox_id });
  if (row.user_id != null) scopes.push({ kind: 'user', id: row.user_id });
  if (row.team_id != null) scopes.push({ kind: 'team', id: row.team_id });
  for (const label of labels) scopes.push({ kind: 'label', label });
  const value = row.value ?? 0;
  await q
    .insertInto('reporting_rollups')
    .values(
      scopes.map((scope) => ({
        account_id: row.account_id,
        scope: scopeKey(scope),
        name: row.name,
        bucket: Math.floor(row.event_end / BUCKET_MS) * BUCKET_MS,
        count: 1,
        total: value,
      })),
    )
    .onConflict((oc) =>
      oc.columns(['account_id', 'scope', 'name', 'bucket']).doUpdateSet((eb) => ({
        count: eb('reporting_rollups.count', '+', 1),
        total: eb('reporting_rollups.total', '+', value),
      })),
    )
    .execute();
  if (labels.length === 0) return;
  await q
    .insertInto('reporting_event_labels')
    .values(
      labels.map((label) => ({
        account_id: row.account_id,
        event_id: inserted.id,
        label,
        name: row.name,
        value: row.value ?? null,
        event_end: row.event_end,
      })),
    )
    .execute();
}

export async function findConversationState(q: Q, accountId: number, conversationId: number) {
  return q
    .selectFrom('reporting_conversations')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('conversation_id', '=', conversationId)
    .executeTakeFirst();
}

export async function saveConversationState(q: Q, state: ReportingConversationsTable): Promise<void> {
  await q
    .insertInto('reporting_conversations')
    .values(state)
    .onConflict((oc) =>
      oc.column('conversation_id').doUpdateSet({
        waiting_since: state.waiting_since,
        first_response_at: state.first_response_at,
      }),
    )
    .execute();
}

/** The events of one conversation, oldest first. */
export function eventsOfConversation(q: Q, accountId: number, conversationId: number): Promise<ReportingEvent[]> {
  return q
    .selectFrom('reporting_events')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('conversation_id', '=', conversationId)
    .orderBy('event_end')
    .orderBy('id')
    .execute();
}

export interface EventListFilter {
  range?: Partial<Range>;
  inboxId?: number;
  userId?: number;
  name?: string;
}

/** A page of the account's events, newest first, with the total. */
export async function listEvents(
  q: Q,
  accountId: number,
  filter: EventListFilter,
  page: { limit: number; offset: number },
) {
  let base = q.selectFrom('reporting_events').where('account_id', '=', accountId);
  if (filter.name !== undefined) base = base.where('name', '=', filter.name as ReportingEventName);
  if (filter.inboxId !== undefined) base = base.where('inbox_id', '=', filter.inboxId);
  if (filter.userId !== undefined) base = base.where('user_id', '=', filter.userId);
  if (filter.range?.from !== undefined) base = base.where('event_end', '>=', filter.range.from);
  if (filter.range?.to !== undefined) base = base.where('event_end', '<', filter.range.to);
  const [rows, total] = await Promise.all([
    base.selectAll().orderBy('event_end', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: num(total.n) };
}

/** The rows of `names` in the range for the scope: reporting_events, or the label rows. */
function scoped(q: Q, accountId: number, scope: ReportScope, names: readonly ReportingEventName[], range: Range) {
  if (scope.kind === 'label') {
    return q
      .selectFrom('reporting_event_labels as r')
      .where('r.account_id', '=', accountId)
      .where('r.label', '=', scope.label)
      .where('r.name', 'in', names)
      .where('r.event_end', '>=', range.from)
      .where('r.event_end', '<', range.to);
  }
  let base = q
    .selectFrom('reporting_events as r')
    .where('r.account_id', '=', accountId)
    .where('r.name', 'in', names)
    .where('r.event_end', '>=', range.from)
    .where('r.event_end', '<', range.to);
  if (scope.kind === 'inbox') base = base.where('r.inbox_id', '=', scope.id);
  if (scope.kind === 'user') base = base.where('r.user_id', '=', scope.id);
  if (scope.kind === 'team') base = base.where('r.team_id', '=', scope.id);
  return base;
}

/**
 * Count and sum of values per event name over the range: the whole 15-minute buckets from the
 * rollups, the partial ones at the edges from the events (grouped, indexed queries).
 */
export async function totals(
  q: Q,
  accountId: number,
  scope: ReportScope,
  names: readonly ReportingEventName[],
  range: Range,
): Promise<Map<ReportingEventName, Totals>> {
  const first = Math.ceil(range.from / BUCKET_MS) * BUCKET_MS;
  const last = Math.floor(range.to / BUCKET_MS) * BUCKET_MS;
  if (first >= last) return rawTotals(q, accountId, scope, names, range);
  const parts = await Promise.all([
    q
      .selectFrom('reporting_rollups')
      .where('account_id', '=', accountId)
      .where('scope', '=', scopeKey(scope))
      .where('name', 'in', names)
      .where('bucket', '>=', first)
      .where('bucket', '<', last)
      .select((eb) => [
        'name',
        eb.fn.sum<number | string>('count').as('n'),
        eb.fn.sum<number | string>('total').as('s'),
      ])
      .groupBy('name')
      .execute()
      .then((rows) => new Map(rows.map((r) => [r.name, { count: num(r.n), sum: num(r.s) }]))),
    range.from < first ? rawTotals(q, accountId, scope, names, { from: range.from, to: first }) : new Map(),
    last < range.to ? rawTotals(q, accountId, scope, names, { from: last, to: range.to }) : new Map(),
  ]);
  const out = new Map<ReportingEventName, Totals>();
  for (const part of parts)
    for (const [name, t] of part as Map<ReportingEventName, Totals>) {
      const sum = out.get(name) ?? { count: 0, sum: 0 };
      out.set(name, { count: sum.count + t.count, sum: sum.sum + t.sum });
    }
  return out;
}

/** Count and sum of values per event name over the range, from the events themselves. */
async function rawTotals(
  q: Q,
  accountId: number,
  scope: ReportScope,
  names: readonly ReportingEventName[],
  range: Range,
): Promise<Map<ReportingEventName, Totals>> {
  const rows = await scoped(q as Q, accountId, scope, names, range)
    .select((eb) => [
      'r.name as name',
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.sum<number | string>('r.value').as('s'),
    ])
    .groupBy('r.name')
    .execute();
  return new Map(rows.map((r) => [r.name as ReportingEventName, { count: num(r.n), sum: num(r.s) }]));
}

export interface DayTotals {
  day: number;
  count: number;
  sum: number;
}

/**
 * Count and sum per local day (days since the epoch, shifted by `offsetMs`) of one event name: the
 * whole 15-minute buckets from the rollups (each lies within one local day when the offset is a
 * multiple of 15 minutes), the partial ones at the edges, or any other offset, from the events.
 */
export async function daily(
  q: Q,
  accountId: number,
  scope: ReportScope,
  name: ReportingEventName,
  range: Range,
  offsetMs: number,
): Promise<DayTotals[]> {
  const first = Math.ceil(range.from / BUCKET_MS) * BUCKET_MS;
  const last = Math.floor(range.to / BUCKET_MS) * BUCKET_MS;
  if (offsetMs % BUCKET_MS !== 0 || first >= last) return rawDaily(q, accountId, scope, name, range, offsetMs);
  const day = sql<number>`(bucket + ${sql.lit(Math.trunc(offsetMs))}) / 86400000`;
  const parts = await Promise.all([
    q
      .selectFrom('reporting_rollups')
      .where('account_id', '=', accountId)
      .where('scope', '=', scopeKey(scope))
      .where('name', '=', name)
      .where('bucket', '>=', first)
      .where('bucket', '<', last)
      .select((eb) => [
        day.as('day'),
        eb.fn.sum<number | string>('count').as('n'),
        eb.fn.sum<number | string>('total').as('s'),
      ])
      .groupBy(day)
      .execute()
      .then((rows) => rows.map((r) => ({ day: Math.floor(num(r.day)), count: num(r.n), sum: num(r.s) }))),
    range.from < first ? rawDaily(q, accountId, scope, name, { from: range.from, to: first }, offsetMs) : [],
    last < range.to ? rawDaily(q, accountId, scope, name, { from: last, to: range.to }, offsetMs) : [],
  ]);
  const out = new Map<number, DayTotals>();
  for (const row of parts.flat()) {
    const sum = out.get(row.day) ?? { day: row.day, count: 0, sum: 0 };
    out.set(row.day, { day: row.day, count: sum.count + row.count, sum: sum.sum + row.sum });
  }
  return [...out.values()];
}

/** Count and sum per local day of one event name, from the events themselves. */
async function rawDaily(
  q: Q,
  accountId: number,
  scope: ReportScope,
  name: ReportingEventName,
  range: Range,
  offsetMs: number,
): Promise<DayTotals[]> {
  // A literal, not a parameter: PostgreSQL must see the same expression in SELECT and GROUP BY.
  const day = sql<number>`(r.event_end + ${sql.lit(Math.trunc(offsetMs))}) / 86400000`;
  const rows = await scoped(q, accountId, scope, [name], range)
    .select((eb) => [
      day.as('day'),
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.sum<number | string>('r.value').as('s'),
    ])
    .groupBy(day)
    .execute();
  return rows.map((r) => ({ day: Math.floor(num(r.day)), count: num(r.n), sum: num(r.s) }));
}
