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
  accountName: string;
  inviterName: string | null;
  role: AccountRole;
  link: string;
  /** The page that sends a new link (a reset) once this one has expired. */
  newLinkPage: string;
  language: Language;
}): IdentityMail {
  const account = oneLine(input.accountName);
  const name = oneLine(input.name);
  const admin = input.role === 'administrator';
  if (input.language === 'pt-BR') {
    const who = input.inviterName ? oneLine(input.inviterName) : `Um administrador de ${account}`;
    return {
      subject: `Participe de ${account} no Ponte`,
      text:
        `Olá, ${name},\n\n${who} adicionou você a ${account} no Ponte como ${admin ? 'administrador' : 'agente'}.\n\n` +
        `Abra este link em até 7 dias para escolher sua senha:\n\n${input.link}\n\n` +
        `O link funciona uma vez. Depois que expirar, peça um novo em ${input.newLinkPage}\n` +
        'Se você não esperava este convite, ignore este e-mail.\n',
    };
  }
  const who = input.inviterName ? oneLine(input.inviterName) : `An administrator of ${account}`;
  return {
    subject: `Join ${account} on Ponte`,
    text:
      `Hello ${name},\n\n${who} added you to ${account} on Ponte as ${admin ? 'an administrator' : 'an agent'}.\n\n` +
      `Open this link within 7 days to choose your password:\n\n${input.link}\n\n` +
      `The link works once. Once it has expired, ask for a new one at ${input.newLinkPage}\n` +
      'If you did not expect this, ignore this e-mail.\n',
  };
}

/** The forgotten-password link, in the language of the request that asked for it. */
export function resetMail(input: { name: string; link: string; language: Language }): IdentityMail {
  const name = oneLine(input.name);
  if (input.language === 'pt-BR') {
    return {
      subject: 'Redefina sua senha do Ponte',
      text:
        `Olá, ${name},\n\nAlguém (esperamos que você) pediu para redefinir a senha do seu usuário do Ponte.\n` +
        `Abra este link em até uma hora para escolher uma nova senha:\n\n${input.link}\n\n` +
        'O link funciona uma vez. Se você não pediu, ignore este e-mail: sua senha continua a mesma.\n',
    };
  }
  return {
    subject: 'Reset your Ponte password',
    text:
      `Hello ${name},\n\nSomeone (hopefully you) asked to reset the password of your Ponte user.\n` +
      `Open this link within one hour to choose a new password:\n\n${input.link}\n\n` +
      'The link works once. If you did not ask for it, ignore this e-mail: your password stays as it is.\n',
  };
}
