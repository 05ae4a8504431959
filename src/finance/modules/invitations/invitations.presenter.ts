import type { Language } from '../../../core/i18n/language.js';
import { toIso } from '../../../core/time.js';
import { idString } from '../../context.js';
import type { Invitation } from '../../db/schema.js';
import type { InvitationStatusName } from './invitations.schema.js';

/** An invitation row with its inviter (null columns when that user no longer exists). */
export type InvitationView = Invitation & { inviter_email: string | null; inviter_name: string | null };

/** What the accept page is told: the invitation, its account, and whether a new user is to be created. */
export interface InvitationPreview {
  invitation: Invitation & { account_name: string; account_locale: Language; inviter_name: string | null };
  passwordRequired: boolean;
}

/** `expired` is a pending invitation past its expiry (it is never stored). */
export const statusOf = (row: Pick<Invitation, 'status' | 'expires_at'>, now: number): InvitationStatusName =>
  row.status === 'pending' && row.expires_at <= now ? 'expired' : row.status;

export const presentInvitation = (row: InvitationView, now = Date.now()) => ({
  id: idString(row.id),
  email: row.email,
  role: row.role,
  status: statusOf(row, now),
  expiresAt: toIso(row.expires_at),
  createdAt: toIso(row.created_at),
  updatedAt: toIso(row.updated_at),
  acceptedAt: toIso(row.accepted_at),
  revokedAt: toIso(row.revoked_at),
  invitedBy:
    row.invited_by === null || row.inviter_email === null
      ? null
      : { id: idString(row.invited_by), email: row.inviter_email, fullName: row.inviter_name ?? '' },
});

export const presentInvitationPreview = ({ invitation, passwordRequired }: InvitationPreview) => ({
  account: { id: idString(invitation.account_id), name: invitation.account_name },
  email: invitation.email,
  role: invitation.role,
  expiresAt: toIso(invitation.expires_at),
  invitedBy: invitation.inviter_name === null ? null : { fullName: invitation.inviter_name },
  passwordRequired,
});
