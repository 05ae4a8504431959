import type { Q } from '../../context.js';

/* The card lookups other modules make (through CardReads, card-reads.ts): ids and counts only. */

/** Live open cards linked to the conversation or belonging to the contact (`pipeline_cards_conversation_idx`, `pipeline_cards_contact_idx`). */
export async function openCardsReached(
  q: Q,
  accountId: number,
  reach: { conversationId?: number | null; contactId?: number | null },
): Promise<number[]> {
  const ids = new Set<number>();
  if (reach.conversationId != null) {
    const rows = await q
      .selectFrom('pipeline_cards')
      .select('id')
      .where('account_id', '=', accountId)
      .where('conversation_id', '=', reach.conversationId)
      .where('deleted_at', 'is', null)
      .where('status', '=', 'open')
      .execute();
    for (const r of rows) ids.add(r.id);
  }
  if (reach.contactId != null) {
    const rows = await q
      .selectFrom('pipeline_cards')
      .select('id')
      .where('account_id', '=', accountId)
      .where('contact_id', '=', reach.contactId)
      .where('deleted_at', 'is', null)
      .where('status', '=', 'open')
      .execute();
    for (const r of rows) ids.add(r.id);
  }
  return [...ids].sort((a, b) => a - b);
}

/** Live cards of an account after `afterId`, in id order (bulk recalculation batches). */
export async function liveCardIds(q: Q, accountId: number, afterId: number, limit: number): Promise<number[]> {
  const rows = await q
    .selectFrom('pipeline_cards')
    .select('id')
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

export async function countLiveCards(q: Q, accountId: number): Promise<number> {
  const row = await q
    .selectFrom('pipeline_cards')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Open live cards that entered their stage before `before` (the daily stale check), after `afterId`. */
export async function staleCards(
  q: Q,
  before: number,
  afterId: number,
  limit: number,
): Promise<{ id: number; account_id: number; stage_id: number; stage_entered_at: number }[]> {
  return q
    .selectFrom('pipeline_cards')
    .select(['id', 'account_id', 'stage_id', 'stage_entered_at'])
    .where('deleted_at', 'is', null)
    .where('status', '=', 'open')
    .where('stage_entered_at', '<', before)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Whether the card still exists (any state): log rows reference it. */
export async function cardExists(q: Q, accountId: number, cardId: number): Promise<boolean> {
  const row = await q
    .selectFrom('pipeline_cards')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', '=', cardId)
    .executeTakeFirst();
  return row !== undefined;
}
