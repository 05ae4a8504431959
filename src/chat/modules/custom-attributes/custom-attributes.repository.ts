import type { Insertable, Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { AttributeModel, CustomAttributeDefinitionsTable } from './custom-attributes.migration.js';

/**
 * The account's definitions (of one model when given), in creation order. Served by
 * custom_attribute_definitions_account_model_key_uidx (account, then model).
 */
export async function listDefinitions(q: Q, accountId: number, model?: AttributeModel) {
  let query = q.selectFrom('custom_attribute_definitions').selectAll().where('account_id', '=', accountId);
  if (model) query = query.where('attribute_model', '=', model);
  return query.orderBy('id').execute();
}

export async function findDefinition(q: Q, accountId: number, id: number) {
  return q
    .selectFrom('custom_attribute_definitions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findByKey(q: Q, accountId: number, model: AttributeModel, key: string) {
  return q
    .selectFrom('custom_attribute_definitions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('attribute_model', '=', model)
    .where('attribute_key', '=', key)
    .executeTakeFirst();
}

/** The definitions of `model` with one of `keys`, in one query (a filter request's custom keys). */
export async function findByKeys(q: Q, accountId: number, model: AttributeModel, keys: readonly string[]) {
  if (keys.length === 0) return [];
  return q
    .selectFrom('custom_attribute_definitions')
    .select(['attribute_key', 'attribute_display_type'])
    .where('account_id', '=', accountId)
    .where('attribute_model', '=', model)
    .where('attribute_key', 'in', keys)
    .execute();
}

export async function insertDefinition(q: Q, values: Insertable<CustomAttributeDefinitionsTable>) {
  return q.insertInto('custom_attribute_definitions').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateDefinition(
  q: Q,
  accountId: number,
  id: number,
  values: Updateable<CustomAttributeDefinitionsTable>,
) {
  return q
    .updateTable('custom_attribute_definitions')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteDefinition(q: Q, accountId: number, id: number) {
  await q.deleteFrom('custom_attribute_definitions').where('account_id', '=', accountId).where('id', '=', id).execute();
}
