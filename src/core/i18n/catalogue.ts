import type { Language } from './language.js';

/**
 * The one catalogue of what people read (API error sentences, pages, e-mails), in English and
 * Brazilian Portuguese. A message's key is its English text, with `%{name}` for a parameter
 * (gettext style, Rails' placeholders): a throw site reads as the sentence it answers
 * (`forbidden('Only administrators of this account may do this')`), and English output is the key
 * itself. Each service declares its messages with `defineMessages` in `*.messages.ts` files, which
 * also add their keys to `Messages`: the compiler refuses a sentence that is not in the catalogue,
 * a parameter that is missing or unknown, and a key with parameters used without them. Documents
 * whose words belong together (a report, the help center's frame) are word tables (`defineWords`),
 * checked the same way. decisions/0033.
 */

/**
 * Every key of the catalogue, filled by the `*.messages.ts` files through declaration merging
 * (`interface Messages extends Keys<typeof theirs> {}`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface Messages {}

export type MessageKey = keyof Messages & string;

/** What a catalogue file adds to `Messages`: its keys. */
export type Keys<T> = { readonly [K in keyof T]: true };

/** The parameter names of a key (its `%{name}` placeholders). */
export type ParamsOf<K extends string> = K extends `${string}%{${infer P}}${infer Rest}` ? P | ParamsOf<Rest> : never;

/** Trusted markup given as a parameter of a sentence rendered as HTML (`formatHtml`). */
export class Html {
  constructor(readonly html: string) {}
}

/**
 * A parameter's value: data shown as it is (a name, a number, an address), another message of the
 * catalogue (rendered in the same language), a list of messages (joined by "; "), or markup for an
 * HTML page.
 */
export type ParamValue = string | number | Phrase | readonly Phrase[] | Html;

/** A message of the catalogue with its parameters. */
export interface Phrase {
  readonly key: MessageKey;
  readonly params?: Readonly<Record<string, ParamValue>>;
}

/** The keys without parameters: these may be given as they are, without `t`. */
type PlainKey = { [K in MessageKey]: [ParamsOf<K>] extends [never] ? K : never }[MessageKey];

/** What a person reads: a key without parameters, or a phrase (`t(key, params)`). */
export type Text = PlainKey | Phrase;

/** A message with its parameters, checked against its key's placeholders. */
export function t<K extends MessageKey>(
  key: K,
  ...params: [ParamsOf<K>] extends [never] ? [] : [Record<ParamsOf<K>, ParamValue>]
): Phrase {
  return params.length > 0 ? { key, params: params[0] } : { key };
}

/** Values as alternatives in a sentence: "open or overdue", "open ou overdue". */
export function alternatives(values: readonly string[]): ParamValue {
  if (values.length <= 1) return values[0] ?? '';
  return t('%{first} or %{second}', { first: values[0], second: alternatives(values.slice(1)) });
}

/** Values all together in a sentence: "since and until", "since e until". */
export function allOf(values: readonly string[]): ParamValue {
  if (values.length <= 1) return values[0] ?? '';
  return t('%{first} and %{second}', { first: values[0], second: allOf(values.slice(1)) });
}

/** A text as a phrase (a bare key becomes one without parameters). */
export const phrase = (text: Text): Phrase => (typeof text === 'string' ? { key: text } : text);

/** A catalogue file's messages: English key -> Brazilian Portuguese. */
export interface MessageCatalogue {
  readonly name: string;
  readonly entries: Readonly<Record<string, string>>;
}

/** A word table: the same shape in each language (`en` and `pt-BR`, and more where a page needs them). */
export interface WordTable {
  readonly name: string;
  readonly tables: Readonly<Record<string, object>>;
}

const portuguese = new Map<string, string>();
const messageCatalogues: MessageCatalogue[] = [];
const wordTables: WordTable[] = [];

/**
 * Declares a catalogue file's messages (English key -> Brazilian Portuguese) and registers them for
 * rendering. The file adds the keys to `Messages` (see the interface).
 */
export function defineMessages<const T extends Record<string, string>>(name: string, entries: T): T {
  messageCatalogues.push({ name, entries });
  for (const [key, value] of Object.entries(entries)) portuguese.set(key, value);
  return entries;
}

/** The registered message catalogues and word tables (the completeness test reads them). */
export const registeredCatalogues = (): { messages: readonly MessageCatalogue[]; words: readonly WordTable[] } => ({
  messages: messageCatalogues,
  words: wordTables,
});

/** Whether a key is in a registered catalogue. */
export const isMessageKey = (key: string): boolean => portuguese.has(key);

// Tests only (test/i18n-catalogue.test.ts): every rendered text is wrapped, so a page or an e-mail
// can be checked for words that did not come from the catalogue.
let marker: ((text: string) => string) | null = null;

/** Wraps every text the catalogue renders from now on (null: stop). For tests. */
export function setTextMarker(mark: ((text: string) => string) | null): void {
  marker = mark;
}

const PLACEHOLDER = /%\{(\w+)\}/g;

function template(key: string, language: Language): string {
  return language === 'en' ? key : (portuguese.get(key) ?? key);
}

function format(text: Text, language: Language, encode: (raw: string) => string): string {
  const { key, params } = phrase(text);
  const filled = encode(template(key, language)).replace(PLACEHOLDER, (whole, name: string) => {
    const value = params?.[name];
    if (value === undefined) return whole;
    if (value instanceof Html) return value.html;
    if (Array.isArray(value)) return value.map((item: Phrase) => format(item, language, encode)).join('; ');
    if (typeof value === 'object') return format(value as Phrase, language, encode);
    return encode(String(value));
  });
  return marker ? marker(filled) : filled;
}

const asIs = (raw: string) => raw;

/** A text as plain text in a language (English when a translation is missing). */
export const render = (text: Text, language: Language): string => format(text, language, asIs);

/** A text's English, never marked: what logs and `Error.message` carry. */
export function english(text: Text): string {
  const saved = marker;
  marker = null;
  try {
    return render(text, 'en');
  } finally {
    marker = saved;
  }
}

/** A text as HTML: the sentence and its data parameters escaped, `Html` parameters as they are. */
export const formatHtml = (text: Text, language: Language, escape: (raw: string) => string): string =>
  format(text, language, escape);

/**
 * Declares a word table: one object per language, the same shape in each (strings, functions that
 * return strings, lists of strings). Returns the lookup: a language's words, English for one the
 * table does not have.
 */
export function defineWords<W extends object>(
  name: string,
  tables: { en: W; 'pt-BR': W } & Record<string, W>,
): (language: string) => W {
  wordTables.push({ name, tables });
  return (language) => {
    const words = tables[language] ?? tables.en;
    return marker ? markWords(words, marker) : words;
  };
}

function markWords<W extends object>(words: W, mark: (text: string) => string): W {
  const wrap = (value: unknown): unknown => {
    if (typeof value === 'string') return mark(value);
    if (Array.isArray(value)) return value.map(wrap);
    if (typeof value === 'function')
      return (...args: unknown[]) => wrap((value as (...a: unknown[]) => unknown)(...args));
    return value;
  };
  return Object.fromEntries(Object.entries(words).map(([k, v]) => [k, wrap(v)])) as W;
}
