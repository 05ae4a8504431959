import { invalidField } from '../../../core/http/errors.js';

/**
 * Slugs of the help center. Portal slugs are the readers' address (/hc/{slug}) and may become host
 * names: ASCII letters, digits and hyphens, with a letter (an all-digit slug would read as an id in
 * paths that take either). Category and article slugs keep letters of any script ("как-начать"),
 * so help centers in other languages get readable addresses; accents are dropped ("educação" ->
 * "educacao"), as people type addresses without them.
 */

const PORTAL_SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const PAGE_SLUG = /^[\p{Ll}\p{Lo}\p{M}\p{N}]+(-[\p{Ll}\p{Lo}\p{M}\p{N}]+)*$/u;

/** `text` as a slug (lower case, accents dropped, runs of anything else as one hyphen); may be ''. */
export function slugify(text: string, maxLength = 100): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{Ll}\p{Lo}\p{M}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return [...slug].slice(0, maxLength).join('').replace(/-+$/, '');
}

/** A portal slug as given, lower-cased, or a 422 naming the rule. */
export function portalSlug(input: string): string {
  const slug = input.trim().toLowerCase();
  if (!PORTAL_SLUG.test(slug) || !/[a-z]/.test(slug))
    throw invalidField('slug', 'may hold only lower-case letters, digits and single hyphens, with at least one letter');
  return slug;
}

/** A category or article slug as given, lower-cased, or a 422 naming the rule. */
export function pageSlug(input: string): string {
  const slug = input.trim().normalize('NFC').toLowerCase();
  if (!PAGE_SLUG.test(slug)) throw invalidField('slug', 'may hold only lower-case letters, digits and single hyphens');
  return slug;
}

/** The first of `base`, `base-2`, `base-3`... that `taken` does not hold. */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
