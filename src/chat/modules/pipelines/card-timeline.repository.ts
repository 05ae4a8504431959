import type { Insertable } from 'kysely';
import type { Q } from '../../context.js';
import type { PipelineCardTimelineTable, TimelineEntry } from './pipelines.tables.js';

/** SQL of card timelines: entries are only ever added, in the transaction of the change they record. */

/** Inserts entries, 500 a statement (an import writes thousands; statements have a parameter limit). */
export async function insertEntries(q: Q, values: Insertable<PipelineCardTimelineTable>[]): Promise<TimelineEntry[]> {
  const entries: TimelineEntry[] = [];
  for (let i = 0; i < values.length; i += 500)
    entries.push(
      ...(await q
        .insertInto('pipeline_card_timeline')
        .values(values.slice(i, i + 500))
        .returningAll()
        .execute()),
    );
  return entries;
}

/** A card's entries, newest first (`pipeline_card_timeline_card_idx`). */
export async function entriesOfCard(
  q: Q,
  accountId: number,
  cardId: number,
  limit: number,
  offset = 0,
): Promise<TimelineEntry[]> {
  return q
    .selectFrom('pipeline_card_timeline')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('card_id', '=', cardId)
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function countEntries(q: Q, accountId: number, cardId: number): Promise<number> {
  const row = await q
    .selectFrom('pipeline_card_timeline')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('account_id', '=', accountId)
    .where('card_id', '=', cardId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
