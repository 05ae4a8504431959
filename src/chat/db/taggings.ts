import { sameValueNoIndex } from '../../core/db/where.js';
import type { Q } from '../context.js';
import type { TaggableType } from './schema.js';

/**
 * Labels (taggings) of contacts and conversations: `taggable_type` says which table
 * `taggable_id` points into. There is no foreign key on `taggable_id`, so whoever deletes a
 * taggable deletes its taggings (inbox, contact and account deletions do).
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
export async function replaceLabels(
  q: Q,
  accountId: number,
  type: TaggableType,
  id: number,
  labels: string[],
): Promise<void> {
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
      .values(
        added.map((label) => ({ account_id: accountId, taggable_type: type, taggable_id: id, label, created_at: now })),
      )
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

/** The labels of many records (one query), alphabetical per record. */
export async function labelsOfMany(
  q: Q,
  accountId: number,
  type: TaggableType,
  ids: number[],
): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (ids.length === 0) return out;
  const rows = await q
    .selectFrom('taggings')
    .select(['taggable_id', 'label'])
    .where(sameValueNoIndex('account_id', accountId))
    .where('taggable_type', '=', type)
    .where('taggable_id', 'in', ids)
    .orderBy('label')
    .execute();
  for (const row of rows) {
    const list = out.get(row.taggable_id) ?? [];
    list.push(row.label);
    out.set(row.taggable_id, list);
  }
  return out;
}

/**
 * Subquery of the ids of records carrying any of `labels` (any label at all when `labels` is
 * omitted), for `where id [not] in (...)` in list queries; served by taggings_account_label_idx
 * (account_id, taggable_type, label, taggable_id).
 */
export function taggedWith(q: Q, accountId: number, type: TaggableType, labels?: string[]) {
  let query = q
    .selectFrom('taggings')
    .select('taggings.taggable_id')
    .where('taggings.account_id', '=', accountId)
    .where('taggings.taggable_type', '=', type);
  if (labels) query = query.where('taggings.label', 'in', labels);
  return query;
}
