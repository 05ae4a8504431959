import type { Q } from '../../context.js';
import { SPLIT, type CurrencyTotal } from './pipeline-cards.money.js';
import type { CardStatus, PipelineCard } from './pipelines.tables.js';

/**
 * SQL of `pipeline_stage_counts`: how many live cards, and how much value, each stage holds per
 * status and currency. The card repository calls `recordChanges` with the card before and after
 * every write that can move it between counts (create, move, status, value or currency, discard,
 * restore, permanent delete), in the same transaction: the counts are exactly the cards, and a
 * board or list reads a few rows per stage instead of counting cards.
 */

/** What decides which count a card is in, and by how much. */
export type Counted = Pick<
  PipelineCard,
  'account_id' | 'pipeline_id' | 'stage_id' | 'status' | 'currency' | 'value_minor' | 'deleted_at'
>;

interface Delta {
  account_id: number;
  pipeline_id: number;
  stage_id: number;
  status: CardStatus;
  currency: string;
  cards: number;
  value_high: number;
  value_low: number;
}

const split = Number(SPLIT);
const keyOf = (c: Counted) => `${c.stage_id}|${c.status}|${c.currency}`;

function add(deltas: Map<string, Delta>, card: Counted | null | undefined, sign: 1 | -1) {
  if (!card || card.deleted_at !== null) return;
  const key = keyOf(card);
  const delta = deltas.get(key) ?? {
    account_id: card.account_id,
    pipeline_id: card.pipeline_id,
    stage_id: card.stage_id,
    status: card.status,
    currency: card.currency,
    cards: 0,
    value_high: 0,
    value_low: 0,
  };
  delta.cards += sign;
  delta.value_high += sign * Math.floor(card.value_minor / split);
  delta.value_low += sign * (card.value_minor % split);
  deltas.set(key, delta);
}

/** Applies card changes (null before: created; null after: deleted) to the counts, one upsert per key. */
export async function recordChanges(
  q: Q,
  changes: readonly { before: Counted | null; after: Counted | null }[],
): Promise<void> {
  const deltas = new Map<string, Delta>();
  for (const { before, after } of changes) {
    add(deltas, before, -1);
    add(deltas, after, 1);
  }
  for (const delta of deltas.values()) {
    if (delta.cards === 0 && delta.value_high === 0 && delta.value_low === 0) continue;
    await q
      .insertInto('pipeline_stage_counts')
      .values(delta)
      .onConflict((oc) =>
        oc.columns(['stage_id', 'status', 'currency']).doUpdateSet((eb) => ({
          cards: eb('pipeline_stage_counts.cards', '+', eb.ref('excluded.cards')),
          value_high: eb('pipeline_stage_counts.value_high', '+', eb.ref('excluded.value_high')),
          value_low: eb('pipeline_stage_counts.value_low', '+', eb.ref('excluded.value_low')),
        })),
      )
      .execute();
  }
}

export interface CountFilter {
  pipelineId?: number;
  stageId?: number;
  status?: CardStatus;
}

/** Live cards per stage under a filter of pipeline, stage and status (`pipeline_stage_counts_pipeline_idx`). */
export async function cardsPerStage(q: Q, accountId: number, filter: CountFilter): Promise<Map<number, number>> {
  let query = q
    .selectFrom('pipeline_stage_counts')
    .select((eb) => ['stage_id', eb.fn.sum<number | string>('cards').as('n')])
    .where('account_id', '=', accountId);
  if (filter.pipelineId !== undefined) query = query.where('pipeline_id', '=', filter.pipelineId);
  if (filter.stageId !== undefined) query = query.where('stage_id', '=', filter.stageId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  const rows = await query.groupBy('stage_id').execute();
  return new Map(rows.map((r) => [r.stage_id, Number(r.n)]));
}

export interface StageTotalRow extends CurrencyTotal {
  stage_id: number;
  cards: number;
}

/** Cards and value per stage and currency of some pipelines. */
export async function stageTotals(q: Q, accountId: number, pipelineIds: number[]): Promise<StageTotalRow[]> {
  if (pipelineIds.length === 0) return [];
  const rows = await q
    .selectFrom('pipeline_stage_counts')
    .select((eb) => [
      'stage_id',
      'currency',
      eb.fn.sum<number | string>('cards').as('cards'),
      eb.fn.sum<number | string>('value_high').as('high'),
      eb.fn.sum<number | string>('value_low').as('low'),
    ])
    .where('account_id', '=', accountId)
    .where('pipeline_id', 'in', pipelineIds)
    .groupBy(['stage_id', 'currency'])
    .execute();
  return rows.map((r) => ({ ...r, cards: Number(r.cards) }));
}

/** Drops the counts of stages being deleted (their cards have moved, or are being deleted). */
export async function deleteCountsOfStages(q: Q, accountId: number, stageIds: number[]): Promise<void> {
  if (stageIds.length === 0) return;
  await q
    .deleteFrom('pipeline_stage_counts')
    .where('account_id', '=', accountId)
    .where('stage_id', 'in', stageIds)
    .execute();
}

export async function deleteCountsOfPipeline(q: Q, accountId: number, pipelineId: number): Promise<void> {
  await q
    .deleteFrom('pipeline_stage_counts')
    .where('account_id', '=', accountId)
    .where('pipeline_id', '=', pipelineId)
    .execute();
}
