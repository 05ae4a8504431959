import { sql, type Insertable, type Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { AccountantSettingsTable } from '../../db/schema.js';

export async function findAccountant(q: Q, accountId: number) {
  return q.selectFrom('accountant_settings').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

export async function insertAccountant(q: Q, values: Insertable<AccountantSettingsTable>) {
  return q.insertInto('accountant_settings').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateAccountant(q: Q, accountId: number, values: Updateable<AccountantSettingsTable>) {
  return q
    .updateTable('accountant_settings')
    .set(values)
    .where('account_id', '=', accountId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteAccountant(q: Q, accountId: number): Promise<boolean> {
  const result = await q.deleteFrom('accountant_settings').where('account_id', '=', accountId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

const notSentFor = (month: string) => sql<boolean>`(last_auto_sent_month is null or last_auto_sent_month < ${month})`;

/** Settings with automatic sending on whose report of `month` was not sent yet (all accounts or one). */
export async function listAutoSendPending(q: Q, month: string, accountId?: number) {
  let query = q.selectFrom('accountant_settings').selectAll().where('auto_send', '=', 1).where(notSentFor(month));
  if (accountId !== undefined) query = query.where('account_id', '=', accountId);
  return query.orderBy('account_id').execute();
}

/**
 * Claims the automatic report of `month` for the account: one conditional UPDATE, so of several
 * instances exactly one gets the row back. Undefined when someone else claimed it (or it was turned off).
 */
export async function claimAutoSend(q: Q, accountId: number, month: string, now: number) {
  return q
    .updateTable('accountant_settings')
    .set({ last_auto_sent_month: month, updated_at: now })
    .where('account_id', '=', accountId)
    .where('auto_send', '=', 1)
    .where(notSentFor(month))
    .returningAll()
    .executeTakeFirst();
}

/** Gives a claim back after a failed send (only if it is still ours), so a later run tries again. */
export async function releaseAutoSend(q: Q, accountId: number, month: string, previous: string | null): Promise<void> {
  await q
    .updateTable('accountant_settings')
    .set({ last_auto_sent_month: previous })
    .where('account_id', '=', accountId)
    .where('last_auto_sent_month', '=', month)
    .execute();
}
