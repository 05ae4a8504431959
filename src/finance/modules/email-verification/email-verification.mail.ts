import type { Language } from '../../../core/i18n/language.js';

/** The e-mail with the link that verifies an address, in the language of the request that caused it. */
export function verificationMail(name: string, link: string, language: Language): { subject: string; text: string } {
  if (language === 'pt-BR')
    return {
      subject: 'Confirme seu endereço de e-mail',
      text:
        `Olá, ${name},\n\nPara confirmar que este endereço é seu, abra este link em até 3 dias:\n\n${link}\n\n` +
        `Depois de confirmar, você pode convidar membros para a sua conta.\n` +
        `Se você não criou uma conta, ignore este e-mail.\n`,
    };
  return {
    subject: 'Confirm your e-mail address',
    text:
      `Hello ${name},\n\nTo confirm that this address is yours, open this link within 3 days:\n\n${link}\n\n` +
      `Once it is confirmed, you can invite members to your account.\n` +
      `If you did not create an account, ignore this e-mail.\n`,
  };
}
