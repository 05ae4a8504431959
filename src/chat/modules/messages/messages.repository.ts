import { idsInAccount } from '../../../core/db/where.js';
import type { Insertable, Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { Message, MessagesTable } from '../../db/schema.js';

export async function insertMessage(q: Q, values: Insertable<MessagesTable>): Promise<Message> {
  return q.insertInto('messages').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findMessage(q: Q, accountId: number, conversationId: number, id: number) {
  return q
    .selectFrom('messages')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('conversation_id', '=', conversationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function updateMessage(q: Q, accountId: number, id: number, values: Updateable<MessagesTable>) {
  return q
    .updateTable('messages')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * A window of a conversation's messages, oldest first (messages_conversation_idx):
 * with `after`, up to `limit` messages after it; otherwise the latest `limit` (before `before`).
 * `contactVisible`: only what the contact sees (no private notes, no activity messages).
 */
export async function messageWindow(
  q: Q,
  accountId: number,
  conversationId: number,
  window: { before?: number; after?: number; limit: number; contactVisible?: boolean },
): Promise<Message[]> {
  let query = q
    .selectFrom('messages')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('conversation_id', '=', conversationId);
  if (window.contactVisible) query = query.where('private', '=', 0).where('message_type', '!=', 2);
  if (window.before !== undefined) query = query.where('id', '<', window.before);
  if (window.after !== undefined) {
    return query.where('id', '>', window.after).orderBy('id', 'asc').limit(window.limit).execute();
  }
  const newestFirst = await query.orderBy('id', 'desc').limit(window.limit).execute();
  return newestFirst.reverse();
}

export async function messagesByIds(q: Q, accountId: number, ids: number[]): Promise<Message[]> {
  if (ids.length === 0) return [];
  return q.selectFrom('messages').selectAll().where(idsInAccount(accountId, ids)).execute();
}

/**
 * For each conversation of a page: its last message id, its last non-activity message id and the
 * count of incoming messages newer than the agent's last visit. Each is an index lookup per
 * conversation (messages_conversation_idx, messages_unread_idx), so the cost follows the page and
 * its unread messages, not how long the conversations are: grouping their messages read every one.
 * A conversation without messages gets a row of nulls and 0.
 */
export async function conversationMessageStats(q: Q, accountId: number, conversationIds: number[]) {
  if (conversationIds.length === 0) return [];
  return conversationMessageStatsQuery(q, accountId, conversationIds).execute();
}

/** The query of conversationMessageStats, unrun (its plan is tested). */
export function conversationMessageStatsQuery(q: Q, accountId: number, conversationIds: number[]) {
  return q
    .selectFrom('conversations as c')
    .select((eb) => [
      'c.id as conversation_id',
      eb
        .selectFrom('messages as m')
        .select((m) => m.fn.max('m.id').as('id'))
        .whereRef('m.conversation_id', '=', 'c.id')
        .as('last_id'),
      eb
        .selectFrom('messages as m')
        .select('m.id')
        .whereRef('m.conversation_id', '=', 'c.id')
        .where('m.message_type', '!=', 2)
        .orderBy('m.id', 'desc')
        .limit(1)
        .as('last_non_activity_id'),
      eb
        .selectFrom('messages as m')
        .select((m) => m.fn.countAll<number | string>().as('n'))
        .whereRef('m.conversation_id', '=', 'c.id')
        .where('m.message_type', '=', 0)
        .where('m.created_at', '>', eb.fn.coalesce('c.agent_last_seen_at', eb.lit(0)))
        .as('unread_count'),
    ])
    .where('c.account_id', '=', accountId)
    .where('c.id', 'in', conversationIds);
}

/**
 * For each conversation, the id of its last message the contact sees (not private, not an
 * activity): the newest such row found walking messages_conversation_idx back from the end, so
 * the cost does not grow with the conversation's length. Null when there is none.
 */
export async function lastContactVisibleIds(q: Q, accountId: number, conversationIds: number[]) {
  if (conversationIds.length === 0) return [];
  return q
    .selectFrom('conversations as c')
    .select((eb) => [
      'c.id as conversation_id',
      eb
        .selectFrom('messages as m')
        .select('m.id')
        .whereRef('m.conversation_id', '=', 'c.id')
        .where('m.private', '=', 0)
        .where('m.message_type', '!=', 2)
        .orderBy('m.id', 'desc')
        .limit(1)
        .as('last_id'),
    ])
    .where('c.account_id', '=', accountId)
    .where('c.id', 'in', conversationIds)
    .execute();
}

/* Senders, read for presentation only (one query per sender type for a whole page). */

export async function contactSenders(q: Q, accountId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return q.selectFrom('contacts').selectAll().where(idsInAccount(accountId, ids)).execute();
}

/** Users are global; a user who left the account still shows on the messages they sent. */
export async function userSenders(q: Q, accountId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return q
    .selectFrom('users')
    .leftJoin('account_users', (join) =>
      join.onRef('account_users.user_id', '=', 'users.id').on('account_users.account_id', '=', accountId),
    )
    .select([
      'users.id as id',
      'users.name as name',
      'users.display_name as display_name',
      'users.email as email',
      'users.avatar_url as avatar_url',
      'account_users.availability as availability',
    ])
    .where('users.id', 'in', ids)
    .execute();
}

export async function botSenders(q: Q, accountId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return q
    .selectFrom('agent_bots')
    .selectAll()
    .where('id', 'in', ids)
    .where((eb) => eb.or([eb('account_id', '=', accountId), eb('account_id', 'is', null)]))
    .execute();
}

/**
 * Makes another contact the sender of what a contact sent in these conversations (a contact merge;
 * messages_conversation_idx), a few hundred conversations per statement.
 */
export async function reassignContactSender(
  q: Q,
  accountId: number,
  conversationIds: number[],
  fromContactId: number,
  toContactId: number,
) {
  for (let i = 0; i < conversationIds.length; i += 500) {
    await q
      .updateTable('messages')
      .set({ sender_id: toContactId })
      .where('conversation_id', 'in', conversationIds.slice(i, i + 500))
      .where('account_id', '=', accountId)
      .where('sender_type', '=', 'Contact')
      .where('sender_id', '=', fromContactId)
      .execute();
  }
}
