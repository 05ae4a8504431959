import { sql } from 'kysely';
import type { Q } from '../../context.js';
import { taggedWith } from '../../db/taggings.js';

/** The account's contacts carrying any of `labels`, blocked ones left out. */
function audienceContacts(q: Q, accountId: number, labels: string[]) {
  return q
    .selectFrom('contacts')
    .where('contacts.account_id', '=', accountId)
    .where('contacts.blocked', '=', 0)
    .where('contacts.id', 'in', taggedWith(q, accountId, 'Contact', labels));
}

/** How many contacts carry the labels now (a campaign's audience before it is sent). */
export async function countAudience(q: Q, accountId: number, labels: string[]): Promise<number> {
  if (labels.length === 0) return 0;
  const row = await audienceContacts(q, accountId, labels)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Takes the audience of a campaign as its recipients, all pending, in one INSERT ... SELECT (no
 * contact travels through the application, however large the audience); returns how many.
 */
export async function insertAudience(
  q: Q,
  accountId: number,
  campaignId: number,
  labels: string[],
  now: number,
): Promise<number> {
  if (labels.length === 0) return 0;
  const result = await q
    .insertInto('campaign_recipients')
    .columns(['account_id', 'campaign_id', 'contact_id', 'status', 'created_at', 'updated_at'])
    .expression(
      audienceContacts(q, accountId, labels).select((eb) => [
        eb.lit(accountId).as('account_id'),
        eb.lit(campaignId).as('campaign_id'),
        'contacts.id as contact_id',
        sql.lit('pending').as('status'),
        eb.lit(now).as('created_at'),
        eb.lit(now).as('updated_at'),
      ]),
    )
    .onConflict((oc) => oc.columns(['campaign_id', 'contact_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/** The next pending recipients of a campaign, in order, with what the message's variables read. */
export async function pendingRecipients(q: Q, accountId: number, campaignId: number, limit: number) {
  return q
    .selectFrom('campaign_recipients')
    .innerJoin('contacts', 'contacts.id', 'campaign_recipients.contact_id')
    .select([
      'campaign_recipients.id as id',
      'contacts.id as contact_id',
      'contacts.name as name',
      'contacts.email as email',
      'contacts.phone_number as phone_number',
    ])
    .where('campaign_recipients.account_id', '=', accountId)
    .where('campaign_recipients.campaign_id', '=', campaignId)
    .where('campaign_recipients.status', '=', 'pending')
    .orderBy('campaign_recipients.id')
    .limit(limit)
    .execute();
}

export async function hasPending(q: Q, accountId: number, campaignId: number): Promise<boolean> {
  const row = await q
    .selectFrom('campaign_recipients')
    .select('id')
    .where('account_id', '=', accountId)
    .where('campaign_id', '=', campaignId)
    .where('status', '=', 'pending')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Marks a pending recipient sent; false when it was not pending any more (someone else sent it). */
export async function claimRecipient(q: Q, accountId: number, id: number, now: number): Promise<boolean> {
  const result = await q
    .updateTable('campaign_recipients')
    .set({ status: 'sent', updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function setRecipientConversation(q: Q, accountId: number, id: number, conversationId: number) {
  await q
    .updateTable('campaign_recipients')
    .set({ conversation_id: conversationId })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}

export async function markRecipientFailed(q: Q, accountId: number, id: number, error: string, now: number) {
  await q
    .updateTable('campaign_recipients')
    .set({ status: 'failed', error: error.slice(0, 1000), updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .execute();
}

/**
 * A contact as a pending recipient of an ongoing campaign; undefined when it already was one: the
 * unique (campaign, contact) key makes the widget trigger start one conversation per contact.
 */
export async function insertPending(
  q: Q,
  values: { accountId: number; campaignId: number; contactId: number; now: number },
): Promise<number | undefined> {
  const row = await q
    .insertInto('campaign_recipients')
    .values({
      account_id: values.accountId,
      campaign_id: values.campaignId,
      contact_id: values.contactId,
      status: 'pending',
      created_at: values.now,
      updated_at: values.now,
    })
    .onConflict((oc) => oc.columns(['campaign_id', 'contact_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** The send metrics of a campaign: recipients per status. */
export async function recipientCounts(q: Q, accountId: number, campaignId: number) {
  const rows = await q
    .selectFrom('campaign_recipients')
    .select((eb) => ['status', eb.fn.countAll<number | string>().as('n')])
    .where('account_id', '=', accountId)
    .where('campaign_id', '=', campaignId)
    .groupBy('status')
    .execute();
  const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  return { pending: count('pending'), sent: count('sent'), failed: count('failed') };
}
