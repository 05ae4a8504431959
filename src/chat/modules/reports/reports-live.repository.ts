import { sql } from 'kysely';
import type { Q } from '../../context.js';

/**
 * Counts of conversations as they are now (reports/conversations, summary_reports/channel): the
 * live queue, read with grouped queries on the conversations table (account_id-led indexes).
 */

export interface QueueCounts {
  open: number;
  unattended: number;
  unassigned: number;
  pending: number;
}

export type QueueGroup = 'account' | 'assignee_id' | 'team_id' | 'inbox_id';

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const open = sql`c.status = 'open'`;
const counters = {
  open: sql<number>`sum(case when ${open} then 1 else 0 end)`,
  unattended: sql<number>`sum(case when ${open} and (c.first_reply_created_at is null or c.waiting_since is not null) then 1 else 0 end)`,
  unassigned: sql<number>`sum(case when ${open} and c.assignee_id is null then 1 else 0 end)`,
  pending: sql<number>`sum(case when c.status = 'pending' then 1 else 0 end)`,
};

const toCounts = (r: { open: unknown; unattended: unknown; unassigned: unknown; pending: unknown }): QueueCounts => ({
  open: num(r.open),
  unattended: num(r.unattended),
  unassigned: num(r.unassigned),
  pending: num(r.pending),
});

/** The account's queue, or per assignee, team or inbox (key null: none). */
export async function queueCounts(
  q: Q,
  accountId: number,
  group: QueueGroup,
): Promise<Map<number | null, QueueCounts>> {
  const base = q
    .selectFrom('conversations as c')
    .where('c.account_id', '=', accountId)
    .where('c.status', 'in', ['open', 'pending'])
    .select([
      counters.open.as('open'),
      counters.unattended.as('unattended'),
      counters.unassigned.as('unassigned'),
      counters.pending.as('pending'),
    ]);
  if (group === 'account') {
    const row = await base.executeTakeFirstOrThrow();
    return new Map([[null, toCounts(row)]]);
  }
  const column = `c.${group}` as const;
  const rows = await base.select(`${column} as key`).groupBy(column).execute();
  return new Map(rows.map((r) => [r.key === null ? null : Number(r.key), toCounts(r)]));
}

/** The queue per label of the conversations (taggings). */
export async function queueCountsByLabel(q: Q, accountId: number): Promise<Map<string, QueueCounts>> {
  const rows = await q
    .selectFrom('conversations as c')
    .innerJoin('taggings as t', (j) =>
      j
        .onRef('t.taggable_id', '=', 'c.id')
        .on('t.taggable_type', '=', 'Conversation')
        .onRef('t.account_id', '=', 'c.account_id'),
    )
    .where('c.account_id', '=', accountId)
    .where('c.status', 'in', ['open', 'pending'])
    .select([
      't.label as label',
      counters.open.as('open'),
      counters.unattended.as('unattended'),
      counters.unassigned.as('unassigned'),
      counters.pending.as('pending'),
    ])
    .groupBy('t.label')
    .execute();
  return new Map(rows.map((r) => [r.label, toCounts(r)]));
}

export interface ChannelCounts {
  open: number;
  resolved: number;
  pending: number;
  snoozed: number;
  total: number;
}

/** Conversations created in the range, per channel type and status. */
export async function channelCounts(
  q: Q,
  accountId: number,
  range: { from?: number; to?: number },
): Promise<Record<string, ChannelCounts>> {
  let query = q
    .selectFrom('conversations as c')
    .innerJoin('inboxes as i', (j) => j.onRef('i.id', '=', 'c.inbox_id').onRef('i.account_id', '=', 'c.account_id'))
    .where('c.account_id', '=', accountId);
  if (range.from !== undefined) query = query.where('c.created_at', '>=', range.from);
  if (range.to !== undefined) query = query.where('c.created_at', '<', range.to);
  const rows = await query
    .select((eb) => ['i.channel_type as channel', 'c.status as status', eb.fn.countAll<number | string>().as('n')])
    .groupBy(['i.channel_type', 'c.status'])
    .execute();
  const out: Record<string, ChannelCounts> = {};
  for (const r of rows) {
    const entry = (out[r.channel] ??= { open: 0, resolved: 0, pending: 0, snoozed: 0, total: 0 });
    const n = num(r.n);
    if (r.status in entry) entry[r.status as keyof ChannelCounts] += n;
    entry.total += n;
  }
  return out;
}
