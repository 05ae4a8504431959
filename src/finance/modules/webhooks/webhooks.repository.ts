import type { Insertable, Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { FinanceWebhook, FinanceWebhooksTable } from '../../db/schema.js';

export async function insertWebhook(q: Q, values: Insertable<FinanceWebhooksTable>) {
  return q.insertInto('webhooks').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findWebhook(q: Q, accountId: number, id: number) {
  return q.selectFrom('webhooks').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

/** One page of the account's webhooks (oldest first) and their number. */
export async function listWebhooks(q: Q, accountId: number, page: { limit: number; offset: number }): Promise<{ rows: FinanceWebhook[]; total: number }> {
  const rows = await q
    .selectFrom('webhooks')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const count = await q
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return { rows, total: Number(count.n) };
}

/** Every webhook of the account with its events (the listener's fan-out; one query per event). */
export async function subscribersOf(q: Q, accountId: number) {
  return q.selectFrom('webhooks').select(['id', 'url', 'events']).where('account_id', '=', accountId).orderBy('id').execute();
}

/** The secret of a webhook of any account (the delivery worker looks it up by the delivery's subscriber). */
export async function secretOf(q: Q, id: number): Promise<string | undefined> {
  const row = await q.selectFrom('webhooks').select('secret').where('id', '=', id).executeTakeFirst();
  return row?.secret;
}

export async function updateWebhook(q: Q, accountId: number, id: number, values: Updateable<FinanceWebhooksTable>) {
  return q.updateTable('webhooks').set(values).where('account_id', '=', accountId).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function deleteWebhook(q: Q, accountId: number, id: number): Promise<boolean> {
  const result = await q.deleteFrom('webhooks').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
