/**
 * The languages the apps speak: English and Brazilian Portuguese. The UI's language is the one
 * the user chose, else the first of the browser's languages the apps have, else English.
 */
export const LANGUAGES = ['en', 'pt-BR'] as const;
export type Language = (typeof LANGUAGES)[number];

export const isLanguage = (value: unknown): value is Language => LANGUAGES.includes(value as Language);

/** The first of the browser's languages (`navigator.languages`, in its order) that the apps have. */
export function browserLanguage(tags: readonly string[]): Language {
  for (const tag of tags) {
    const lower = tag.toLowerCase();
    if (lower === 'pt' || lower.startsWith('pt-')) return 'pt-BR';
    if (lower === 'en' || lower.startsWith('en-')) return 'en';
  }
  return 'en';
}

/** The UI's language: the user's choice when there is one, else the browser's. */
export function uiLanguage(choice: Language | null, browserTags: readonly string[]): Language {
  return choice ?? browserLanguage(browserTags);
}
