import { createI18n } from 'vue-i18n';
import type { Language } from '../../shared/i18n/language.js';
import type en from './en.json';

/**
 * The dashboard's words, one catalogue per language (en.json, pt-BR.json: the same keys, a test
 * checks it). A catalogue is fetched when its language is first used, so a page loads one.
 */
export type Messages = typeof en;

declare module 'vue-i18n' {
  // Typed keys: `t('auth.signIn.title')` is checked against the English catalogue.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface DefineLocaleMessage extends Messages {}
}

const catalogues: Record<Language, () => Promise<{ default: Messages }>> = {
  en: () => import('./en.json'),
  'pt-BR': () => import('./pt-BR.json'),
};

export const i18n = createI18n({
  legacy: false,
  locale: 'en',
  fallbackLocale: 'en',
  messages: {},
  // Every key exists in every catalogue (tested); a miss is a bug to see in development only.
  missingWarn: import.meta.env.DEV,
  fallbackWarn: import.meta.env.DEV,
});

/** The UI's language now. */
export const currentLanguage = (): Language => i18n.global.locale.value as Language;

/** Switches the UI to a language, fetching its catalogue the first time. */
export async function applyLanguage(language: Language): Promise<void> {
  if (!i18n.global.availableLocales.includes(language)) {
    const { default: messages } = await catalogues[language]();
    i18n.global.setLocaleMessage(language, messages);
  }
  i18n.global.locale.value = language;
  document.documentElement.lang = language;
}
