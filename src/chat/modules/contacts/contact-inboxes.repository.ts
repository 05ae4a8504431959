import type { Q } from '../../context.js';

/** A contact's presence in an inbox, identified there by `source_id`. */
export async function insertContactInbox(
  q: Q,
  values: { account_id: number; contact_id: number; inbox_id: number; source_id: string; pubsub_token: string },
) {
  return q
    .insertInto('contact_inboxes')
    .values({ ...values, created_at: Date.now() })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findBySource(q: Q, accountId: number, inboxId: number, sourceId: string) {
  return q
    .selectFrom('contact_inboxes')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('inbox_id', '=', inboxId)
    .where('source_id', '=', sourceId)
    .executeTakeFirst();
}

export async function setHmacVerified(q: Q, accountId: number, id: number, verified: 0 | 1) {
  return q
    .updateTable('contact_inboxes')
    .set({ hmac_verified: verified })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findForContact(q: Q, accountId: number, contactId: number, inboxId: number) {
  return q
    .selectFrom('contact_inboxes')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('contact_id', '=', contactId)
    .where('inbox_id', '=', inboxId)
    .orderBy('id')
    .executeTakeFirst();
}

/** The contact inboxes of several contacts at once, with their inbox, for presenters. */
export async function listForContacts(q: Q, accountId: number, contactIds: number[]) {
  if (contactIds.length === 0) return [];
  return q
    .selectFrom('contact_inboxes')
    .innerJoin('inboxes', 'inboxes.id', 'contact_inboxes.inbox_id')
    .select([
      'contact_inboxes.contact_id as contact_id',
      'contact_inboxes.source_id as source_id',
      'inboxes.id as inbox_id',
      'inboxes.name as inbox_name',
      'inboxes.channel_type as channel_type',
    ])
    .where('contact_inboxes.account_id', '=', accountId)
    .where('contact_inboxes.contact_id', 'in', contactIds)
    .orderBy('contact_inboxes.id')
    .execute();
}

/** Moves every contact inbox of one contact to another (a contact merge); source ids stay as they are. */
export async function reassignContact(q: Q, accountId: number, fromContactId: number, toContactId: number) {
  await q
    .updateTable('contact_inboxes')
    .set({ contact_id: toContactId })
    .where('account_id', '=', accountId)
    .where('contact_id', '=', fromContactId)
    .execute();
}
