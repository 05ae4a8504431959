import { render, t, type Text } from '../../../core/i18n/catalogue.js';
import type { Language } from '../../../core/i18n/language.js';
import type { AccountRole } from '../../db/schema.js';

/** An identity e-mail: plain text, one recipient. */
export interface IdentityMail {
  subject: string;
  text: string;
}

/** Names come from people (account and user names): keep them on one line in headers and text. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The invitation, in the account's language (its locale). */
export function invitationMail(input: {
  name: string;
  /** Null when the account is gone: the e-mail says "your account". */
  accountName: string | null;
  inviterName: string | null;
  role: AccountRole;
  link: string;
  /** The page that sends a new link (a reset) once this one has expired. */
  newLinkPage: string;
  language: Language;
}): IdentityMail {
  const say = (text: Text) => render(text, input.language);
  const account = input.accountName === null ? t('your account') : oneLine(input.accountName);
  const who = input.inviterName ? oneLine(input.inviterName) : t('An administrator of %{account}', { account });
  const role = input.role === 'administrator' ? t('an administrator') : t('an agent');
  return {
    subject: say(t('Join %{account} on Ponte', { account })),
    text:
      `${say(t('Hello %{name},', { name: oneLine(input.name) }))}\n\n` +
      `${say(t('%{who} added you to %{account} on Ponte as %{role}.', { who, account, role }))}\n\n` +
      `${say('Open this link within 7 days to choose your password:')}\n\n${input.link}\n\n` +
      `${say(t('The link works once. Once it has expired, ask for a new one at %{page}', { page: input.newLinkPage }))}\n` +
      `${say('If you did not expect this, ignore this e-mail.')}\n`,
  };
}

/** The forgotten-password link, in the language of the request that asked for it. */
export function resetMail(input: { name: string; link: string; language: Language }): IdentityMail {
  const say = (text: Text) => render(text, input.language);
  return {
    subject: say('Reset your Ponte password'),
    text:
      `${say(t('Hello %{name},', { name: oneLine(input.name) }))}\n\n` +
      `${say('Someone (hopefully you) asked to reset the password of your Ponte user.')}\n` +
      `${say('Open this link within one hour to choose a new password:')}\n\n${input.link}\n\n` +
      `${say('The link works once. If you did not ask for it, ignore this e-mail: your password stays as it is.')}\n`,
  };
}
