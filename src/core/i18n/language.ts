/**
 * The languages Ponte speaks to people (error sentences, e-mails): English, and Brazilian
 * Portuguese. A request chooses by Accept-Language; an account by its locale.
 */
export type Language = 'en' | 'pt-BR';

/** The language a request asks for (Accept-Language, by weight): Portuguese is pt-BR, anything else English. */
export function languageOf(acceptLanguage: string | string[] | undefined): Language {
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : (acceptLanguage ?? '');
  const ranked = header
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q) };
    })
    .filter((entry) => entry.tag && entry.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    if (tag === 'pt' || tag.startsWith('pt-')) return 'pt-BR';
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
  }
  return 'en';
}

/** The language of an account's locale (`pt_BR`, `pt-BR`, `pt` are pt-BR; anything else English). */
export function languageOfLocale(locale: string | null | undefined): Language {
  return locale && /^pt([_-]|$)/i.test(locale) ? 'pt-BR' : 'en';
}

/** A value read back from storage (a job's payload): a language, or English. */
export const asLanguage = (value: unknown): Language => (value === 'pt-BR' ? 'pt-BR' : 'en');
