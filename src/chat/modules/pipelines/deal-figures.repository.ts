import { sql } from 'kysely';
import type { Q } from '../../context.js';
import type { CardStatus } from './pipelines.tables.js';

/**
 * SQL of pipeline analytics (decisions/0029): every figure comes from timeline entries of a period
 * (`pipeline_card_timeline_type_idx`, `pipeline_card_timeline_stage_idx`, migration 0151) or from
 * the trigger-kept `pipeline_owner_counts` (0152), never from reading every card. A closing counts
 * while it is the deal's state: the entry's card is live, still has that status, and closed at the
 * entry's time (a deal won, reopened and lost counts once, as lost).
 */

export interface AnalyticsFilter {
  from: number;
  to: number;
  pipelineId?: number;
  /** Owners at the time of the entry. */
  ownerIds?: number[];
}

/** A sum of minor units in two parts (div and mod 1e6), as the stage counts keep them. */
const splitSum = (column: string) => [
  sql<string | number>`sum(${sql.ref(column)} / 1000000)`.as('high'),
  sql<string | number>`sum(${sql.ref(column)} % 1000000)`.as('low'),
];

/** Timeline entries of one type in the filter's period that are still their card's state (see above). */
function closings(q: Q, accountId: number, type: 'deal_won' | 'deal_lost', f: AnalyticsFilter) {
  const status: CardStatus = type === 'deal_won' ? 'won' : 'lost';
  let query = q
    .selectFrom('pipeline_card_timeline as t')
    .innerJoin('pipeline_cards as c', (join) =>
      join.onRef('c.id', '=', 't.card_id').onRef('c.account_id', '=', 't.account_id'),
    )
    .where('t.account_id', '=', accountId)
    .where('t.type', '=', type)
    .where('t.created_at', '>=', f.from)
    .where('t.created_at', '<', f.to)
    .where('c.deleted_at', 'is', null)
    .where('c.status', '=', status)
    .whereRef('c.closed_at', '=', 't.created_at');
  if (f.pipelineId !== undefined) query = query.where('t.pipeline_id', '=', f.pipelineId);
  if (f.ownerIds !== undefined) query = query.where('t.owner_id', 'in', f.ownerIds.length > 0 ? f.ownerIds : [0]);
  return query;
}

export interface ClosedRow {
  pipeline_id: number | null;
  owner_id: number | null;
  currency: string;
  deals: number | string;
  high: number | string | null;
  low: number | string | null;
  /** Milliseconds from the cards' creation to the closing, summed. */
  cycle_ms: number | string | null;
}

/** Deals won (or lost) in the period per pipeline, owner and currency: count, value, time from creation. */
export function closedDeals(q: Q, accountId: number, type: 'deal_won' | 'deal_lost', f: AnalyticsFilter) {
  return closings(q, accountId, type, f)
    .select((eb) => [
      't.pipeline_id',
      't.owner_id',
      't.currency',
      eb.fn.countAll<number | string>().as('deals'),
      ...splitSum('t.value_minor'),
      sql<string | number>`sum(t.created_at - c.created_at)`.as('cycle_ms'),
    ])
    .groupBy(['t.pipeline_id', 't.owner_id', 't.currency'])
    .execute() as Promise<ClosedRow[]>;
}

/** The lost reasons of the deals lost in the period (blank ones aside), most frequent first. */
export async function lostReasons(q: Q, accountId: number, f: AnalyticsFilter, limit: number) {
  const rows = await closings(q, accountId, 'deal_lost', f)
    .where('t.reason', 'is not', null)
    .select((eb) => ['t.reason', eb.fn.countAll<number | string>().as('n')])
    .groupBy('t.reason')
    .orderBy('n', 'desc')
    .orderBy('t.reason')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ reason: r.reason as string, count: Number(r.n) }));
}

export interface EnteredRow {
  stage_id: number;
  entered: number | string;
  converted: number | string;
}

/**
 * Per stage of `stages` (in board order): the cards (live) that entered it in the period, and how
 * many of them entered the next stage afterwards (`next` maps a stage to the one after it).
 */
export async function stageConversions(
  q: Q,
  accountId: number,
  stageIds: number[],
  next: Map<number, number>,
  f: AnalyticsFilter,
): Promise<EnteredRow[]> {
  if (stageIds.length === 0) return [];
  // Cast: PostgreSQL would type bare parameters in a CASE as text.
  const pairs = [...next.entries()].map(
    ([stage, after]) => sql`when cast(${stage} as bigint) then cast(${after} as bigint)`,
  );
  const nextOf = pairs.length > 0 ? sql.join(pairs, sql` `) : sql`when null then null`;
  let query = q
    .selectFrom('pipeline_card_timeline as e')
    .innerJoin('pipeline_cards as c', (join) =>
      join.onRef('c.id', '=', 'e.card_id').onRef('c.account_id', '=', 'e.account_id'),
    )
    // A later entry of the same card into the stage after the one entered (a CASE over the few stages).
    .leftJoin('pipeline_card_timeline as n', (join) =>
      join
        .onRef('n.account_id', '=', 'e.account_id')
        .onRef('n.card_id', '=', 'e.card_id')
        .onRef('n.id', '>', 'e.id')
        .on(sql<boolean>`n.stage_id = case e.stage_id ${nextOf} end`),
    )
    .select((eb) => [
      'e.stage_id',
      eb.fn.count<number | string>('e.card_id').distinct().as('entered'),
      eb.fn.count<number | string>('n.card_id').distinct().as('converted'),
    ])
    .where('e.account_id', '=', accountId)
    .where('e.stage_id', 'in', stageIds)
    .where('e.created_at', '>=', f.from)
    .where('e.created_at', '<', f.to)
    .where('c.deleted_at', 'is', null);
  if (f.ownerIds !== undefined) query = query.where('e.owner_id', 'in', f.ownerIds.length > 0 ? f.ownerIds : [0]);
  return query.groupBy('e.stage_id').execute() as Promise<EnteredRow[]>;
}

export interface OwnerCountRow {
  pipeline_id: number;
  owner_key: number;
  currency: string;
  cards: number | string;
  high: number | string | null;
  low: number | string | null;
}

/** Live cards of a status per pipeline, owner (0: none) and currency, from the trigger-kept counts. */
export function ownerCounts(
  q: Q,
  accountId: number,
  status: CardStatus,
  filter: { pipelineId?: number; ownerIds?: number[] },
): Promise<OwnerCountRow[]> {
  let query = q
    .selectFrom('pipeline_owner_counts')
    .select((eb) => [
      'pipeline_id',
      'owner_key',
      'currency',
      eb.fn.sum<number | string>('cards').as('cards'),
      eb.fn.sum<number | string>('value_high').as('high'),
      eb.fn.sum<number | string>('value_low').as('low'),
    ])
    .where('account_id', '=', accountId)
    .where('status', '=', status);
  if (filter.pipelineId !== undefined) query = query.where('pipeline_id', '=', filter.pipelineId);
  if (filter.ownerIds !== undefined)
    query = query.where('owner_key', 'in', filter.ownerIds.length > 0 ? filter.ownerIds : [-1]);
  return query
    .groupBy(['pipeline_id', 'owner_key', 'currency'])
    .having((eb) => eb.fn.sum('cards'), '>', 0)
    .execute();
}
