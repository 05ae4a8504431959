/**
 * The languages Ponte speaks to people (error sentences, pages, e-mails): English, and Brazilian
 * Portuguese. A request chooses by Accept-Language; an account by its locale; a link by the
 * `locale` it carries. The words themselves are in the catalogue (catalogue.ts).
 */
export type Language = 'en' | 'pt-BR';

/** The language a request asks for (Accept-Language, by weight): Portuguese is pt-BR, anything else English. */
export const languageOf = (acceptLanguage: string | string[] | undefined): Language =>
  requestedLanguage(acceptLanguage) ?? 'en';

/** The first language of Accept-Language (by weight) that Ponte speaks, or undefined when it names none. */
export function requestedLanguage(acceptLanguage: string | string[] | undefined): Language | undefined {
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
  return undefined;
}

/** The language a locale names (`pt_BR`, `pt-BR`, `pt`; `en`, `en_US`), or undefined for any other value. */
export function parseLocale(locale: string | null | undefined): Language | undefined {
  if (!locale) return undefined;
  if (/^pt([_-][a-z]{2})?$/i.test(locale)) return 'pt-BR';
  if (/^en([_-][a-z]{2})?$/i.test(locale)) return 'en';
  return undefined;
}

/** The language of an account's locale (`pt_BR`, `pt-BR`, `pt` are pt-BR; anything else English). */
export function languageOfLocale(locale: string | null | undefined): Language {
  return locale && /^pt([_-]|$)/i.test(locale) ? 'pt-BR' : 'en';
}

/** A value read back from storage (a job's payload): a language, or English. */
export const asLanguage = (value: unknown): Language => (value === 'pt-BR' ? 'pt-BR' : 'en');
