import type { Q } from '../../context.js';

/**
 * Labels of conversations: rows of `taggings` with taggable_type 'Conversation' (contacts use the
 * same table with 'Contact'). There is no foreign key on `taggable_id`, so whoever deletes a
 * conversation deletes its taggings.
 */
const TYPE = 'Conversation' as const;

/** The labels of one conversation, alphabetical. */
export async function labelsOf(q: Q, accountId: number, conversationId: number): Promise<string[]> {
  const rows = await q
    .selectFrom('taggings')
    .select('label')
    .where('account_id', '=', accountId)
    .where('taggable_type', '=', TYPE)
    .where('taggable_id', '=', conversationId)
    .execute();
  return rows.map((r) => r.label).sort();
}

/** The labels of a page of conversations (one query), alphabetical per conversation. */
export async function labelsOfMany(q: Q, accountId: number, conversationIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  if (conversationIds.length === 0) return out;
  const rows = await q
    .selectFrom('taggings')
    .select(['taggable_id', 'label'])
    .where('account_id', '=', accountId)
    .where('taggable_type', '=', TYPE)
    .where('taggable_id', 'in', conversationIds)
    .orderBy('label')
    .execute();
  for (const row of rows) {
    const list = out.get(row.taggable_id) ?? [];
    list.push(row.label);
    out.set(row.taggable_id, list);
  }
  return out;
}

/** Makes `labels` (normalized, de-duplicated) the conversation's exact label set. */
export async function replaceLabels(q: Q, accountId: number, conversationId: number, labels: string[]): Promise<void> {
  const current = await labelsOf(q, accountId, conversationId);
  const removed = current.filter((l) => !labels.includes(l));
  const added = labels.filter((l) => !current.includes(l));
  if (removed.length > 0) {
    await q
      .deleteFrom('taggings')
      .where('account_id', '=', accountId)
      .where('taggable_type', '=', TYPE)
      .where('taggable_id', '=', conversationId)
      .where('label', 'in', removed)
      .execute();
  }
  if (added.length > 0) {
    const now = Date.now();
    await q
      .insertInto('taggings')
      .values(added.map((label) => ({ account_id: accountId, taggable_type: TYPE, taggable_id: conversationId, label, created_at: now })))
      .execute();
  }
}

/**
 * Subquery of the ids of conversations carrying any of `labels` (or any label at all when
 * `labels` is omitted), for `where conversations.id [not] in (...)`; served by
 * taggings_account_label_idx (account_id, taggable_type, label, taggable_id).
 */
export function conversationsTaggedWith(q: Q, accountId: number, labels?: string[]) {
  let query = q
    .selectFrom('taggings')
    .select('taggings.taggable_id')
    .where('taggings.account_id', '=', accountId)
    .where('taggings.taggable_type', '=', TYPE);
  if (labels) query = query.where('taggings.label', 'in', labels);
  return query;
}
