import type { AccountRole } from '../../db/schema.js';

/** An identity e-mail: plain text, one recipient. */
export interface IdentityMail {
  subject: string;
  text: string;
}

/** Names come from people (account and user names): keep them on one line in headers and text. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Lifetimes in words, as the e-mails state them. */
export const INVITATION_LIFETIME_TEXT = '7 days';
export const RESET_LIFETIME_TEXT = 'one hour';

export function invitationMail(input: {
  name: string;
  accountName: string;
  inviterName: string | null;
  role: AccountRole;
  link: string;
  /** The page that sends a new link (a reset) once this one has expired. */
  newLinkPage: string;
}): IdentityMail {
  const account = oneLine(input.accountName);
  const who = input.inviterName ? oneLine(input.inviterName) : `An administrator of ${account}`;
  const as = input.role === 'administrator' ? 'an administrator' : 'an agent';
  return {
    subject: `Join ${account} on Ponte`,
    text:
      `Hello ${oneLine(input.name)},\n\n${who} added you to ${account} on Ponte as ${as}.\n\n` +
      `Open this link within ${INVITATION_LIFETIME_TEXT} to choose your password:\n\n${input.link}\n\n` +
      `The link works once. Once it has expired, ask for a new one at ${input.newLinkPage}\n` +
      'If you did not expect this, ignore this e-mail.\n',
  };
}

export function resetMail(input: { name: string; link: string }): IdentityMail {
  return {
    subject: 'Reset your Ponte password',
    text:
      `Hello ${oneLine(input.name)},\n\nSomeone (hopefully you) asked to reset the password of your Ponte user.\n` +
      `Open this link within ${RESET_LIFETIME_TEXT} to choose a new password:\n\n${input.link}\n\n` +
      'The link works once. If you did not ask for it, ignore this e-mail: your password stays as it is.\n',
  };
}
