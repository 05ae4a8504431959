import { render, t, type Text } from '../../../core/i18n/catalogue.js';
import type { Language } from '../../../core/i18n/language.js';

/** The e-mail with the link that verifies an address, in the language of the request that caused it. */
export function verificationMail(name: string, link: string, language: Language): { subject: string; text: string } {
  const say = (text: Text) => render(text, language);
  return {
    subject: say('Confirm your e-mail address'),
    text:
      `${say(t('Hello %{name},', { name }))}\n\n` +
      `${say('To confirm that this address is yours, open this link within 3 days:')}\n\n${link}\n\n` +
      `${say('Once it is confirmed, you can invite members to your account.')}\n` +
      `${say('If you did not create an account, ignore this e-mail.')}\n`,
  };
}
