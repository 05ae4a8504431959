import { idsInAccount } from '../../../core/db/where.js';
import type { Q } from '../../context.js';

/* Read-only lookups for presenting a page of cards: one query each, whatever the page size. */

export async function userNames(q: Q, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await q
    .selectFrom('users')
    .select(['id', 'name'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function contactNames(q: Q, accountId: number, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await q.selectFrom('contacts').select(['id', 'name']).where(idsInAccount(accountId, ids)).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function conversationNumbers(q: Q, accountId: number, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await q
    .selectFrom('conversations')
    .select(['id', 'display_id'])
    .where(idsInAccount(accountId, ids))
    .execute();
  return new Map(rows.map((r) => [r.id, r.display_id]));
}
