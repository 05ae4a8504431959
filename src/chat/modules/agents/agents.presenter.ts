import type { InvitationOutcome } from './agents.service.js';
import type { AgentRow } from './agents.repository.js';

/**
 * What `POST {A}/agents` says about the invitation e-mail: `queued` (in the mail queue, through
 * SMTP_URL), `not_sent_no_smtp` (the user is new but SMTP_URL is unset: set a password with
 * `cli.js chat:reset-password`), `not_needed` (the user existed and keeps their password).
 */
export const INVITATION_EMAIL = {
  queued: 'queued',
  not_sent: 'not_sent_no_smtp',
  none: 'not_needed',
} as const;

/** The created agent, with what became of the invitation e-mail. */
export function presentCreatedAgent(a: AgentRow, invitation: InvitationOutcome | null) {
  return { ...presentAgent(a), invitation_email: INVITATION_EMAIL[invitation ?? 'none'] };
}

/** `confirmed` is true once the user has a password: an invited agent is unconfirmed until they choose one. */
export function presentAgent(a: AgentRow) {
  return {
    id: a.id,
    account_id: a.account_id,
    availability_status: a.availability,
    auto_offline: a.auto_offline === 1,
    confirmed: Number(a.has_password) === 1,
    email: a.email,
    provider: 'email',
    available_name: a.display_name || a.name,
    name: a.name,
    role: a.role,
    thumbnail: a.avatar_url ?? '',
    custom_role_id: null,
  };
}
