import type { Language } from '../../../core/i18n/language.js';
import type { MembershipRole } from '../../db/schema.js';
import type { OutgoingMessage } from '../smtp/smtp.service.js';

export interface InvitationMailInput {
  to: string;
  accountName: string;
  inviterName: string | null;
  role: MembershipRole;
  link: string;
  /** The inviting administrator's language (their request's Accept-Language). */
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
  const account = oneLine(input.accountName);
  if (input.language === 'pt-BR') {
    const who = input.inviterName ? oneLine(input.inviterName) : `Um administrador de ${account}`;
    return {
      to: input.to,
      subject: `Convite para participar de ${account}`,
      text:
        `Olá,\n\n${who} convidou você para participar de ${account} no Ponte Financeiro como ` +
        `${input.role === 'admin' ? 'administrador' : 'agente'}.\n\n` +
        `Abra este link em até 7 dias para aceitar o convite:\n\n${input.link}\n\n` +
        `O link funciona uma vez. Se você não esperava este convite, ignore este e-mail: nada acontece se você não aceitar.\n`,
    };
  }
  const who = input.inviterName ? oneLine(input.inviterName) : `An administrator of ${account}`;
  const as = input.role === 'admin' ? 'an administrator' : 'an agent';
  return {
    to: input.to,
    subject: `Invitation to join ${account}`,
    text:
      `Hello,\n\n${who} invited you to join ${account} on Ponte finance as ${as}.\n\n` +
      `Open this link within 7 days to accept the invitation:\n\n${input.link}\n\n` +
      `The link works once. If you did not expect this invitation, ignore this e-mail: nothing happens unless you accept it.\n`,
  };
}
