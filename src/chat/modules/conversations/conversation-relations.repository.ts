import { idsInAccount } from '../../../core/db/where.js';
import type { Q } from '../../context.js';

/**
 * Read-only lookups of the records a page of conversations shows (contacts, teams, inboxes,
 * contact inboxes): one query per table for the whole page, scoped by account. Presentation
 * reads only; the owning modules' services do every write and every policy check.
 */

export async function contactsByIds(q: Q, accountId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return q.selectFrom('contacts').selectAll().where(idsInAccount(accountId, ids)).execute();
}

export async function teamsByIds(q: Q, accountId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return q.selectFrom('teams').selectAll().where(idsInAccount(accountId, ids)).execute();
}

export async function inboxesByIds(q: Q, accountId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return q.selectFrom('inboxes').select(['id', 'name', 'channel_type']).where(idsInAccount(accountId, ids)).execute();
}

export async function contactInboxesByIds(q: Q, accountId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return q
    .selectFrom('contact_inboxes')
    .select(['id', 'source_id', 'hmac_verified'])
    .where(idsInAccount(accountId, ids))
    .execute();
}
