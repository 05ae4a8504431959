import { sql, type Insertable, type Updateable } from 'kysely';
import { idsInAccount } from '../../../core/db/where.js';
import type { Q } from '../../context.js';
import type { CardStatus, PipelineCard, PipelineCardsTable } from './pipelines.tables.js';
import * as counts from './stage-counts.repository.js';

/**
 * SQL of cards. Every function takes the account and filters by it. "Live" cards are those not
 * discarded (`deleted_at is null`): the partial indexes of the table cover only them.
 */

/** Inserts many cards (an import, the benchmark's seeding), 500 a statement, in the given order; run it in a transaction. */
export async function insertCards(q: Q, values: Insertable<PipelineCardsTable>[]): Promise<PipelineCard[]> {
  const cards: PipelineCard[] = [];
  for (let i = 0; i < values.length; i += 500) {
    const rows = await q
      .insertInto('pipeline_cards')
      .values(values.slice(i, i + 500))
      .returningAll()
      .execute();
    // PostgreSQL returns inserted rows in no promised order: sort by id (ids follow the values' order).
    cards.push(...rows.sort((a, b) => a.id - b.id));
  }
  await counts.recordChanges(
    q,
    cards.map((card) => ({ before: null, after: card })),
  );
  return cards;
}

/**
 * A card of the account; discarded cards only with `discarded: 'include'` or `'only'`. With
 * `forUpdate` (PostgreSQL only: SQLite runs one writer at a time anyway) the row stays locked until
 * the transaction ends, so a change reads the card as it really is.
 */
export async function findCard(
  q: Q,
  accountId: number,
  id: number,
  discarded: 'exclude' | 'include' | 'only' = 'exclude',
  forUpdate = false,
): Promise<PipelineCard | undefined> {
  let query = q.selectFrom('pipeline_cards').selectAll().where('account_id', '=', accountId).where('id', '=', id);
  if (discarded === 'exclude') query = query.where('deleted_at', 'is', null);
  if (discarded === 'only') query = query.where('deleted_at', 'is not', null);
  if (forUpdate) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Live cards by id (any order), one query. */
export async function findCards(q: Q, accountId: number, ids: number[]): Promise<PipelineCard[]> {
  if (ids.length === 0) return [];
  return q
    .selectFrom('pipeline_cards')
    .selectAll()
    .where(idsInAccount(accountId, ids))
    .where('deleted_at', 'is', null)
    .execute();
}

/**
 * Updates a card as it was read (`before`, in this transaction) and returns it, keeping the stage
 * counts in step.
 */
export async function updateCard(
  q: Q,
  before: PipelineCard,
  values: Updateable<PipelineCardsTable>,
): Promise<PipelineCard> {
  const after = await q
    .updateTable('pipeline_cards')
    .set(values)
    .where('account_id', '=', before.account_id)
    .where('id', '=', before.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await counts.recordChanges(q, [{ before, after }]);
  return after;
}

/**
 * Puts a card in another stage (at `position`) and bumps its stage_version in SQL, so concurrent
 * moves never write the same version. With `expectVersion`, only while the version is still that:
 * undefined when someone else moved the card first.
 */
export async function moveCard(
  q: Q,
  before: PipelineCard,
  to: { pipeline_id: number; stage_id: number; position: number; at: number },
  expectVersion?: number,
): Promise<PipelineCard | undefined> {
  let query = q
    .updateTable('pipeline_cards')
    .set((eb) => ({
      pipeline_id: to.pipeline_id,
      stage_id: to.stage_id,
      position: to.position,
      stage_version: eb('stage_version', '+', 1),
      stage_entered_at: to.at,
      updated_at: to.at,
    }))
    .where('account_id', '=', before.account_id)
    .where('id', '=', before.id);
  if (expectVersion !== undefined) query = query.where('stage_version', '=', expectVersion);
  const after = await query.returningAll().executeTakeFirst();
  if (after) await counts.recordChanges(q, [{ before, after }]);
  return after;
}

/** Fields that never change which stage count a card is in (bulk assignment sets the owner). */
type Uncounted = Omit<
  Updateable<PipelineCardsTable>,
  'stage_id' | 'pipeline_id' | 'status' | 'currency' | 'value_minor' | 'deleted_at'
>;

/** Sets fields on many cards. */
export async function updateCards(q: Q, accountId: number, ids: number[], values: Uncounted) {
  if (ids.length === 0) return;
  await q.updateTable('pipeline_cards').set(values).where(idsInAccount(accountId, ids)).execute();
}

/** The position after the last live card of a stage (0 for an empty stage): one index probe. */
export async function nextPosition(q: Q, accountId: number, stageId: number): Promise<number> {
  const row = await q
    .selectFrom('pipeline_cards')
    .select((eb) => eb.fn.max('position').as('last'))
    .where('account_id', '=', accountId)
    .where('stage_id', '=', stageId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  const last = row?.last;
  return last === null || last === undefined ? 0 : Number(last) + 1;
}

/**
 * Every card (live or discarded) of some stages, in board order: a removed stage's cards to move.
 * With `forUpdate` (PostgreSQL) they stay locked until the transaction ends.
 */
export async function cardsOfStages(
  q: Q,
  accountId: number,
  stageIds: number[],
  forUpdate = false,
): Promise<PipelineCard[]> {
  if (stageIds.length === 0) return [];
  let query = q
    .selectFrom('pipeline_cards')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('stage_id', 'in', stageIds)
    .orderBy('position')
    .orderBy('id');
  if (forUpdate) query = query.forUpdate();
  return query.execute();
}

/** The live cards of one stage with a status, in board order. */
export async function cardsOfStage(q: Q, accountId: number, stageId: number): Promise<PipelineCard[]> {
  return q
    .selectFrom('pipeline_cards')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('stage_id', '=', stageId)
    .where('deleted_at', 'is', null)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export interface CardFilter {
  pipelineId?: number;
  stageId?: number;
  status?: CardStatus;
  ownerId?: number;
  contactId?: number;
  /** Case-insensitive substring of the title or the contact's name. */
  search?: { term: string; operator: 'like' | 'ilike' };
}

const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Live cards of the account matching a filter (the list's base query). */
function filtered(q: Q, accountId: number, filter: CardFilter) {
  let query = q
    .selectFrom('pipeline_cards')
    .where('pipeline_cards.account_id', '=', accountId)
    .where('pipeline_cards.deleted_at', 'is', null);
  if (filter.pipelineId !== undefined) query = query.where('pipeline_cards.pipeline_id', '=', filter.pipelineId);
  if (filter.stageId !== undefined) query = query.where('pipeline_cards.stage_id', '=', filter.stageId);
  if (filter.status !== undefined) query = query.where('pipeline_cards.status', '=', filter.status);
  if (filter.ownerId !== undefined) query = query.where('pipeline_cards.owner_id', '=', filter.ownerId);
  if (filter.contactId !== undefined) query = query.where('pipeline_cards.contact_id', '=', filter.contactId);
  const search = filter.search;
  if (search) {
    const pattern = likePattern(search.term);
    const op = sql.raw(search.operator);
    const contacts = q
      .selectFrom('contacts')
      .select('contacts.id')
      .where('contacts.account_id', '=', accountId)
      .where(sql<boolean>`contacts.name ${op} ${pattern} escape '\\'`);
    query = query.where((eb) =>
      eb.or([
        sql<boolean>`pipeline_cards.title ${op} ${pattern} escape '\\'`,
        eb('pipeline_cards.contact_id', 'in', contacts),
      ]),
    );
  }
  return query;
}

/**
 * How many live cards match the filter in each stage: from the stage counts when the filter is
 * only pipeline, stage and status; otherwise a grouped count over the cards' indexes.
 */
export async function countByStage(q: Q, accountId: number, filter: CardFilter): Promise<Map<number, number>> {
  if (filter.ownerId === undefined && filter.contactId === undefined && filter.search === undefined)
    return counts.cardsPerStage(q, accountId, filter);
  const rows = await filtered(q, accountId, filter)
    .select((eb) => ['pipeline_cards.stage_id as stage_id', eb.fn.countAll<number | string>().as('n')])
    .groupBy('pipeline_cards.stage_id')
    .execute();
  return new Map(rows.map((r) => [r.stage_id, Number(r.n)]));
}

/**
 * One stage's slice of the list, in board order: `limit` cards after skipping `offset`. The stage
 * implies the pipeline, so the pipeline is left out: the query then walks an index in (stage,
 * position) order instead of sorting the stage.
 */
export async function pageInStage(
  q: Q,
  accountId: number,
  stageId: number,
  filter: CardFilter,
  limit: number,
  offset: number,
): Promise<PipelineCard[]> {
  return filtered(q, accountId, { ...filter, pipelineId: undefined, stageId })
    .selectAll('pipeline_cards')
    .orderBy('pipeline_cards.position')
    .orderBy('pipeline_cards.id')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** Discarded cards, most recently discarded first, and how many there are. */
export async function discardedPage(q: Q, accountId: number, limit: number, offset: number) {
  const base = q.selectFrom('pipeline_cards').where('account_id', '=', accountId).where('deleted_at', 'is not', null);
  const rows = await base
    .selectAll()
    .orderBy('deleted_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  const total = await base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return { rows, total: Number(total.n) };
}

/** Deletes a card with its timeline and attachment rows; returns the files' storage keys. */
export async function deleteCard(q: Q, card: PipelineCard): Promise<string[]> {
  const { account_id: accountId, id } = card;
  const files = await q
    .deleteFrom('pipeline_card_attachments')
    .where('account_id', '=', accountId)
    .where('card_id', '=', id)
    .returning('storage_key')
    .execute();
  await q.deleteFrom('pipeline_card_timeline').where('account_id', '=', accountId).where('card_id', '=', id).execute();
  await q.deleteFrom('pipeline_cards').where('account_id', '=', accountId).where('id', '=', id).execute();
  await counts.recordChanges(q, [{ before: card, after: null }]);
  return files.map((f) => f.storage_key);
}
