import type { Insertable, Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { WebhooksTable } from '../../db/schema.js';

export async function insertWebhook(q: Q, values: Insertable<WebhooksTable>) {
  return q.insertInto('webhooks').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findWebhook(q: Q, accountId: number, id: number) {
  return q.selectFrom('webhooks').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

/** The secret of a webhook (any account: the delivery worker looks it up by the delivery's subscriber). */
export async function secretOf(q: Q, id: number): Promise<string | undefined> {
  const row = await q.selectFrom('webhooks').select('secret').where('id', '=', id).executeTakeFirst();
  return row?.secret;
}

export async function listWebhooks(q: Q, accountId: number) {
  return q.selectFrom('webhooks').selectAll().where('account_id', '=', accountId).orderBy('id').limit(1000).execute();
}

export async function updateWebhook(q: Q, accountId: number, id: number, values: Updateable<WebhooksTable>) {
  return q
    .updateTable('webhooks')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteWebhook(q: Q, accountId: number, id: number) {
  await q.deleteFrom('webhooks').where('account_id', '=', accountId).where('id', '=', id).execute();
}
