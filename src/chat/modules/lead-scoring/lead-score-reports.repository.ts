import { sql } from 'kysely';
import type { Q } from '../../context.js';

/**
 * Report queries. Card figures read the open live cards through `pipeline_cards_lead_score_idx`
 * (account, status, score, pipeline): counts per band are range counts, the median two rows at an
 * offset, top leads the first rows in score order; no query loads every card. History figures read
 * the logs through `lead_score_logs_account_idx` (account, time).
 */

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

function openCards(q: Q, accountId: number, pipelineId?: number) {
  let query = q
    .selectFrom('pipeline_cards')
    .where('account_id', '=', accountId)
    .where('status', '=', 'open')
    .where('deleted_at', 'is', null);
  if (pipelineId !== undefined) query = query.where('pipeline_id', '=', pipelineId);
  return query;
}

/** Count, sum and the count in each band (0-25, 26-50, 51-75, 76-100). */
export async function bandCounts(q: Q, accountId: number, pipelineId?: number) {
  const band = (lo: number, hi: number) =>
    sql<number>`sum(case when lead_score >= ${lo} and lead_score <= ${hi} then 1 else 0 end)`;
  const row = await openCards(q, accountId, pipelineId)
    .select((eb) => [
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('lead_score').as('total'),
      band(0, 25).as('frio'),
      band(26, 50).as('morno'),
      band(51, 75).as('quente'),
      band(76, 100).as('muito_quente'),
    ])
    .executeTakeFirstOrThrow();
  return {
    count: num(row.n),
    sum: num(row.total),
    bands: [num(row.frio), num(row.morno), num(row.quente), num(row.muito_quente)],
  };
}

/** The scores at `offset` and the next one, in ascending order (the median's middle values). */
export async function scoresAt(q: Q, accountId: number, offset: number, pipelineId?: number): Promise<number[]> {
  const rows = await openCards(q, accountId, pipelineId)
    .select('lead_score')
    .orderBy('lead_score')
    .limit(2)
    .offset(offset)
    .execute();
  return rows.map((r) => Number(r.lead_score));
}

/** The ids of the open cards with the highest scores (ties: the older card first). */
export async function topCardIds(q: Q, accountId: number, limit: number, pipelineId?: number): Promise<number[]> {
  const rows = await openCards(q, accountId, pipelineId)
    .select('id')
    .orderBy('lead_score', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Applications per rule across the account's cards, most applied first. */
export async function topRules(q: Q, accountId: number, limit: number) {
  const rows = await q
    .selectFrom('lead_score_applications')
    .select((eb) => [
      'rule_id',
      eb.fn.max('rule_name').as('rule_name'),
      eb.fn.countAll<number>().as('applications'),
      eb.fn.sum<number>('points').as('points'),
    ])
    .where('account_id', '=', accountId)
    .groupBy('rule_id')
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('rule_id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    rule_id: Number(r.rule_id),
    rule_name: String(r.rule_name),
    applications: num(r.applications),
    points: num(r.points),
  }));
}

/**
 * Per period (buckets given as ascending boundaries), the average of each card's last score in the
 * period and the number of cards whose score changed in it.
 */
export async function trendBuckets(q: Q, accountId: number, boundaries: number[]) {
  const from = boundaries[0];
  const to = boundaries[boundaries.length - 1];
  // Literals (integers computed here, never input text): the same expression text in select and
  // group by, which PostgreSQL needs to see they are one expression.
  const cases = sql.join(
    boundaries.slice(1).map((b, i) => sql`when created_at < ${sql.lit(Math.trunc(b))} then ${sql.lit(i)}`),
    sql` `,
  );
  const bucket = sql<number>`case ${cases} end`;
  const last = q
    .selectFrom('lead_score_logs')
    .select((eb) => [bucket.as('bucket'), 'card_id', eb.fn.max('id').as('last_id')])
    .where('account_id', '=', accountId)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .groupBy([bucket, 'card_id']);
  const rows = await q
    .selectFrom(last.as('t'))
    .innerJoin('lead_score_logs as l', 'l.id', 't.last_id')
    .select((eb) => ['t.bucket', eb.fn.avg<number>('l.new_score').as('average'), eb.fn.countAll<number>().as('cards')])
    .groupBy('t.bucket')
    .execute();
  return rows.map((r) => ({ bucket: Number(r.bucket), average: num(r.average), cards: num(r.cards) }));
}

/** Category changes in a time range, counted per (from, to). */
export async function categoryChanges(q: Q, accountId: number, from: number, to: number) {
  const rows = await q
    .selectFrom('lead_score_logs')
    .select((eb) => ['old_category', 'new_category', eb.fn.countAll<number>().as('n')])
    .where('account_id', '=', accountId)
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .whereRef('old_category', '!=', 'new_category')
    .groupBy(['old_category', 'new_category'])
    .execute();
  return rows.map((r) => ({ from: r.old_category, to: r.new_category, count: num(r.n) }));
}
