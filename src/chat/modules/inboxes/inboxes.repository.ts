import type { Insertable, Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { InboxesTable } from '../../db/schema.js';

export async function insertInbox(q: Q, values: Insertable<InboxesTable>) {
  return q.insertInto('inboxes').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findInbox(q: Q, accountId: number, id: number) {
  return q
    .selectFrom('inboxes')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The inbox of a public identifier (API and web-widget channels). */
export async function findInboxByIdentifier(q: Q, identifier: string) {
  return q.selectFrom('inboxes').selectAll().where('identifier', '=', identifier).executeTakeFirst();
}

/** All inboxes of the account, or only those in `onlyIds` (an agent's memberships). */
export async function listInboxes(q: Q, accountId: number, onlyIds?: number[]) {
  let query = q.selectFrom('inboxes').selectAll().where('account_id', '=', accountId);
  if (onlyIds) {
    if (onlyIds.length === 0) return [];
    query = query.where('id', 'in', onlyIds);
  }
  return query.orderBy('id').execute();
}

export async function updateInbox(q: Q, accountId: number, id: number, values: Updateable<InboxesTable>) {
  return q
    .updateTable('inboxes')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Deletes the inbox; conversations, messages, attachments rows and memberships cascade with it.
 * Labels have no foreign key (they label contacts or conversations), so the conversations'
 * labels are removed here first.
 */
export async function deleteInbox(q: Q, accountId: number, id: number) {
  await q
    .deleteFrom('taggings')
    .where('account_id', '=', accountId)
    .where('taggable_type', '=', 'Conversation')
    .where('taggable_id', 'in', (eb) =>
      eb
        .selectFrom('conversations')
        .select('conversations.id')
        .where('conversations.account_id', '=', accountId)
        .where('conversations.inbox_id', '=', id),
    )
    .execute();
  await q.deleteFrom('inboxes').where('account_id', '=', accountId).where('id', '=', id).execute();
}

/** Ids of the inboxes a user is a member of in an account. */
/** The inboxes of the account a bot is connected to. */
export async function botInboxIds(q: Q, accountId: number, botId: number): Promise<number[]> {
  const rows = await q
    .selectFrom('inboxes')
    .select('id')
    .where('account_id', '=', accountId)
    .where('agent_bot_id', '=', botId)
    .execute();
  return rows.map((r) => r.id);
}

export async function memberInboxIds(q: Q, accountId: number, userId: number): Promise<number[]> {
  const rows = await q
    .selectFrom('inbox_members')
    .select('inbox_id')
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => r.inbox_id);
}

/** An inbox of any account (background work that holds only its id: the delivery worker). */
export async function findInboxById(q: Q, id: number) {
  return q.selectFrom('inboxes').selectAll().where('id', '=', id).executeTakeFirst();
}
