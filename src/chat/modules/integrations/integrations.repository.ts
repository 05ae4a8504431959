import { sql, type Insertable, type Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { IntegrationHooksTable } from './integrations.migration.js';

/** The account's hooks (of every app, or of one), oldest first: integration_hooks_scope_uidx. */
export async function listHooks(q: Q, accountId: number, appId?: string) {
  let query = q.selectFrom('integration_hooks').selectAll().where('account_id', '=', accountId);
  if (appId !== undefined) query = query.where('app_id', '=', appId);
  return query.orderBy('id').execute();
}

export async function findHook(q: Q, accountId: number, id: number) {
  return q
    .selectFrom('integration_hooks')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The account's hook of this app for this scope (an inbox, or the whole account when null). */
export async function findHookInScope(q: Q, accountId: number, appId: string, inboxId: number | null) {
  return q
    .selectFrom('integration_hooks')
    .select('id')
    .where('account_id', '=', accountId)
    .where('app_id', '=', appId)
    .where(sql`coalesce(inbox_id, 0)`, '=', inboxId ?? 0)
    .executeTakeFirst();
}

export async function insertHook(q: Q, values: Insertable<IntegrationHooksTable>) {
  return q.insertInto('integration_hooks').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateHook(q: Q, accountId: number, id: number, values: Updateable<IntegrationHooksTable>) {
  return q
    .updateTable('integration_hooks')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteHook(q: Q, accountId: number, id: number) {
  await q.deleteFrom('integration_hooks').where('account_id', '=', accountId).where('id', '=', id).execute();
}
