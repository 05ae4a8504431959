import type { Insertable } from 'kysely';
import type { Q } from '../../context.js';
import type { SmtpSettingsTable } from '../../db/schema.js';

export async function findSmtp(q: Q, accountId: number) {
  return q.selectFrom('smtp_settings').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

/** The SMTP settings of the user's oldest membership whose account has them (read-only join). */
export async function findFirstSmtpOfUser(q: Q, userId: number) {
  return q
    .selectFrom('memberships')
    .innerJoin('smtp_settings', 'smtp_settings.account_id', 'memberships.account_id')
    .selectAll('smtp_settings')
    .where('memberships.user_id', '=', userId)
    .orderBy('memberships.id')
    .limit(1)
    .executeTakeFirst();
}

export async function insertSmtp(q: Q, values: Insertable<SmtpSettingsTable>) {
  return q.insertInto('smtp_settings').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateSmtp(
  q: Q,
  accountId: number,
  values: Omit<Insertable<SmtpSettingsTable>, 'account_id' | 'created_at'>,
) {
  return q
    .updateTable('smtp_settings')
    .set(values)
    .where('account_id', '=', accountId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteSmtp(q: Q, accountId: number): Promise<boolean> {
  const result = await q.deleteFrom('smtp_settings').where('account_id', '=', accountId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
