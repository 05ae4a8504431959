import type { Q } from '../../context.js';
import type { TaggableType } from '../../db/schema.js';

/**
 * Labels (taggings) of any taggable record: `taggable_type` says which table `taggable_id`
 * points into ('Contact' here; conversations use the same helpers with 'Conversation').
 * There is no foreign key on `taggable_id`, so whoever deletes a taggable deletes its taggings.
 */

/** The labels of one record, alphabetical. */
export async function labelsOf(q: Q, accountId: number, type: TaggableType, id: number): Promise<string[]> {
  const rows = await q
    .selectFrom('taggings')
    .select('label')
    .where('account_id', '=', accountId)
    .where('taggable_type', '=', type)
    .where('taggable_id', '=', id)
    .execute();
  return rows.map((r) => r.label).sort();
}

/**
 * Makes `labels` (already normalized and de-duplicated) the record's exact label set: removes the
 * labels not in it and adds the missing ones, so kept labels keep their `created_at`.
 */
export async function replaceLabels(q: Q, accountId: number, type: TaggableType, id: number, labels: string[]): Promise<void> {
  const current = await labelsOf(q, accountId, type, id);
  const removed = current.filter((l) => !labels.includes(l));
  const added = labels.filter((l) => !current.includes(l));
  if (removed.length > 0) {
    await q
      .deleteFrom('taggings')
      .where('account_id', '=', accountId)
      .where('taggable_type', '=', type)
      .where('taggable_id', '=', id)
      .where('label', 'in', removed)
      .execute();
  }
  if (added.length > 0) {
    const now = Date.now();
    await q
      .insertInto('taggings')
      .values(added.map((label) => ({ account_id: accountId, taggable_type: type, taggable_id: id, label, created_at: now })))
      .execute();
  }
}

/** Removes every label of these records (call it when deleting them). */
export async function deleteTaggings(q: Q, accountId: number, type: TaggableType, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await q
    .deleteFrom('taggings')
    .where('account_id', '=', accountId)
    .where('taggable_type', '=', type)
    .where('taggable_id', 'in', ids)
    .execute();
}

/**
 * Subquery of the ids of records carrying any of `labels`, for `where id in (...)` in list
 * queries; served by taggings_account_label_idx (account_id, taggable_type, label, taggable_id).
 */
export function taggedWithAny(q: Q, accountId: number, type: TaggableType, labels: string[]) {
  return q
    .selectFrom('taggings')
    .select('taggable_id')
    .where('account_id', '=', accountId)
    .where('taggable_type', '=', type)
    .where('label', 'in', labels);
}
