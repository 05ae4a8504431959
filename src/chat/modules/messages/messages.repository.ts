import { sameValueNoIndex } from '../../../core/db/where.js';
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
  return q
    .selectFrom('messages')
    .selectAll()
    .where(sameValueNoIndex('account_id', accountId))
    .where('id', 'in', ids)
    .execute();
}

/**
 * For each conversation: its last message id, its last non-activity message id and the count of
 * incoming messages newer than the agent's last visit. One grouped query for a whole page.
 */
export async function conversationMessageStats(q: Q, accountId: number, conversationIds: number[]) {
  if (conversationIds.length === 0) return [];
  return q
    .selectFrom('messages')
    .innerJoin('conversations', 'conversations.id', 'messages.conversation_id')
    .select((eb) => [
      'messages.conversation_id as conversation_id',
      eb.fn.max('messages.id').as('last_id'),
      eb.fn
        .max(eb.case().when('messages.message_type', '!=', 2).then(eb.ref('messages.id')).end())
        .as('last_non_activity_id'),
      eb.fn
        .sum<number | string | null>(
          eb
            .case()
            .when(
              eb.and([
                eb('messages.message_type', '=', 0),
                eb('messages.created_at', '>', eb.fn.coalesce('conversations.agent_last_seen_at', eb.lit(0))),
              ]),
            )
            .then(1)
            .else(0)
            .end(),
        )
        .as('unread_count'),
    ])
    .where('messages.account_id', '=', accountId)
    .where('conversations.account_id', '=', accountId)
    .where('messages.conversation_id', 'in', conversationIds)
    .groupBy('messages.conversation_id')
    .execute();
}

/** For each conversation, the id of its last message the contact sees (not private, not an activity). */
export async function lastContactVisibleIds(q: Q, accountId: number, conversationIds: number[]) {
  if (conversationIds.length === 0) return [];
  return q
    .selectFrom('messages')
    .select((eb) => ['conversation_id', eb.fn.max('id').as('last_id')])
    .where('account_id', '=', accountId)
    .where('conversation_id', 'in', conversationIds)
    .where('private', '=', 0)
    .where('message_type', '!=', 2)
    .groupBy('conversation_id')
    .execute();
}

/* Senders, read for presentation only (one query per sender type for a whole page). */

export async function contactSenders(q: Q, accountId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return q
    .selectFrom('contacts')
    .selectAll()
    .where(sameValueNoIndex('account_id', accountId))
    .where('id', 'in', ids)
    .execute();
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
