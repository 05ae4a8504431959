import type { Insertable } from 'kysely';
import type { Q } from '../../context.js';
import type { Invitation, InvitationsTable, MembershipRole } from '../../db/schema.js';
import type { InvitationStatusName } from './invitations.schema.js';

/** The fields a renewal (second invite or resend) replaces; restoring puts the earlier ones back. */
export interface InvitationTerms {
  token_hash: string;
  expires_at: number;
  role: MembershipRole;
  invited_by: number | null;
  updated_at: number;
}

/** An invitation with the name and e-mail of whoever sent it (read-only join for presentation). */
const withInviter = (q: Q) =>
  q
    .selectFrom('invitations')
    .leftJoin('users as inviter', 'inviter.id', 'invitations.invited_by')
    .selectAll('invitations')
    .select(['inviter.email as inviter_email', 'inviter.full_name as inviter_name']);

export async function insertInvitation(q: Q, values: Insertable<InvitationsTable>): Promise<number> {
  const row = await q.insertInto('invitations').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function findInvitation(q: Q, accountId: number, id: number) {
  return withInviter(q)
    .where('invitations.account_id', '=', accountId)
    .where('invitations.id', '=', id)
    .executeTakeFirst();
}

/** The account's pending invitation of an address, expired or not (invitations_pending_uidx). */
export async function findPendingByEmail(q: Q, accountId: number, email: string): Promise<Invitation | undefined> {
  return q
    .selectFrom('invitations')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('email', '=', email)
    .where('status', '=', 'pending')
    .executeTakeFirst();
}

/** By the hash of its token, with the account's name and the inviter's name (the accept page). */
export async function findByTokenHash(q: Q, tokenHash: string) {
  return q
    .selectFrom('invitations')
    .innerJoin('accounts', 'accounts.id', 'invitations.account_id')
    .leftJoin('users as inviter', 'inviter.id', 'invitations.invited_by')
    .selectAll('invitations')
    .select(['accounts.name as account_name', 'accounts.locale as account_locale', 'inviter.full_name as inviter_name'])
    .where('invitations.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any query builder of invitations: where() is all it needs
function whereStatus<T extends { where: (...args: any[]) => T }>(
  query: T,
  status: InvitationStatusName | undefined,
  now: number,
): T {
  if (status === 'pending')
    return query.where('invitations.status', '=', 'pending').where('invitations.expires_at', '>', now);
  if (status === 'expired')
    return query.where('invitations.status', '=', 'pending').where('invitations.expires_at', '<=', now);
  if (status) return query.where('invitations.status', '=', status);
  return query;
}

/** The account's invitations, newest first (invitations_account_idx). */
export async function listInvitations(
  q: Q,
  accountId: number,
  status: InvitationStatusName | undefined,
  now: number,
  page: { limit: number; offset: number },
) {
  const query = withInviter(q).where('invitations.account_id', '=', accountId);
  return whereStatus(query, status, now)
    .orderBy('invitations.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countInvitations(
  q: Q,
  accountId: number,
  status: InvitationStatusName | undefined,
  now: number,
): Promise<number> {
  const query = q
    .selectFrom('invitations')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('invitations.account_id', '=', accountId);
  const row = await whereStatus(query, status, now).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** New terms for a pending invitation (the earlier token stops working); false when no longer pending. */
export async function renewInvitation(q: Q, accountId: number, id: number, terms: InvitationTerms): Promise<boolean> {
  const result = await q
    .updateTable('invitations')
    .set(terms)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Puts earlier terms back, only while the renewal's token is still the current one and unused. */
export async function restoreInvitation(q: Q, id: number, currentTokenHash: string, earlier: InvitationTerms) {
  await q
    .updateTable('invitations')
    .set(earlier)
    .where('id', '=', id)
    .where('token_hash', '=', currentTokenHash)
    .where('status', '=', 'pending')
    .execute();
}

/** Removes an invitation whose e-mail could not be sent (only while still pending with that token). */
export async function deletePendingInvitation(q: Q, id: number, tokenHash: string) {
  await q
    .deleteFrom('invitations')
    .where('id', '=', id)
    .where('token_hash', '=', tokenHash)
    .where('status', '=', 'pending')
    .execute();
}

export async function revokeInvitation(q: Q, accountId: number, id: number, now: number): Promise<boolean> {
  const result = await q
    .updateTable('invitations')
    .set({ status: 'revoked', revoked_at: now, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Uses an invitation: pending, unexpired and still carrying this token. One conditional update, so
 * of two concurrent accepts only one changes the row (on PostgreSQL the second waits for the first
 * and then finds it accepted).
 */
export async function claimInvitation(q: Q, id: number, tokenHash: string, now: number): Promise<boolean> {
  const result = await q
    .updateTable('invitations')
    .set({ status: 'accepted', accepted_at: now, updated_at: now })
    .where('id', '=', id)
    .where('token_hash', '=', tokenHash)
    .where('status', '=', 'pending')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function setAcceptedBy(q: Q, id: number, userId: number) {
  await q.updateTable('invitations').set({ accepted_by: userId }).where('id', '=', id).execute();
}

export async function deleteInvitationsExpiredBefore(q: Q, before: number): Promise<number> {
  const result = await q.deleteFrom('invitations').where('expires_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
