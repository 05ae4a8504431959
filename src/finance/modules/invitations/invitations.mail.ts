import { render, t, type Text } from '../../../core/i18n/catalogue.js';
import type { Language } from '../../../core/i18n/language.js';
import type { MembershipRole } from '../../db/schema.js';
import type { OutgoingMessage } from '../smtp/smtp.service.js';

export interface InvitationMailInput {
  to: string;
  accountName: string;
  inviterName: string | null;
  role: MembershipRole;
  link: string;
  /** The inviting administrator's language (their request's Accept-Language), else the account's. */
  language: Language;
}

/** Header values come from people (account and user names): keep them on one line. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The invitation e-mail. It reads the same whether or not the address already has a user: the
 * account's SMTP server (which its administrators choose) sees every message, so the text must not
 * tell them. The accept page says whether to choose a password or to sign in.
 */
export function invitationMail(input: InvitationMailInput): OutgoingMessage {
  const say = (text: Text) => render(text, input.language);
  const account = oneLine(input.accountName);
  const who = input.inviterName ? oneLine(input.inviterName) : t('An administrator of %{account}', { account });
  const role = input.role === 'admin' ? t('an administrator') : t('an agent');
  return {
    to: input.to,
    subject: say(t('Invitation to join %{account}', { account })),
    text:
      `${say('Hello,')}\n\n` +
      `${say(t('%{who} invited you to join %{account} on Ponte finance as %{role}.', { who, account, role }))}\n\n` +
      `${say('Open this link within 7 days to accept the invitation:')}\n\n${input.link}\n\n` +
      `${say('The link works once. If you did not expect this invitation, ignore this e-mail: nothing happens unless you accept it.')}\n`,
  };
}
