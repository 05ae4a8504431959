import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { registeredCatalogues } from '../src/core/i18n/catalogue.js';
// Everything a service loads: the catalogue files (through errors.ts and each service's index) and
// the word tables (through the modules that use them).
import '../src/core/http/errors.js';
import '../src/chat/i18n/messages.js';
import '../src/finance/i18n/messages.js';
import '../src/chat/modules/help-center/readers.i18n.js';
import '../src/finance/modules/accountant/accountant.i18n.js';
import '../src/finance/modules/notifications/notifications.i18n.js';
import { scanThrownTexts, sourceFiles } from './helpers/catalogue-scan.js';

// The catalogue is complete (every key in both languages, with the same parameters; every word
// table with the same words in each language), and nothing a service throws bypasses it: each
// error sentence and field problem of both services is a key of a catalogue the service loads.
const ROOT = path.resolve(import.meta.dirname, '..');
const { messages, words } = registeredCatalogues();

/** Keys whose Portuguese is the same text by design (a joiner, a field name, a code). */
const SAME_IN_BOTH = new Set([
  '%{field} %{problem}',
  '%{sentence}.',
  '%{refusal}: %{said}',
  'E-mail',
  'Status: %{value}',
  'Link: %{value}',
]);

const placeholders = (text: string) => [...text.matchAll(/%\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the catalogue is complete', () => {
  it('has every key in Brazilian Portuguese, with the same parameters, and translated', () => {
    expect(messages.length).toBeGreaterThan(5);
    const problems: string[] = [];
    for (const { name, entries } of messages) {
      for (const [key, pt] of Object.entries(entries)) {
        if (typeof pt !== 'string' || pt.trim() === '') problems.push(`${name}: "${key}" has no Portuguese`);
        else if (placeholders(key).join() !== placeholders(pt).join())
          problems.push(`${name}: "${key}" and "${pt}" differ in parameters`);
        else if (pt === key && !SAME_IN_BOTH.has(key)) problems.push(`${name}: "${key}" is not translated`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('gives a key the same Portuguese wherever it is declared', () => {
    const seen = new Map<string, { name: string; pt: string }>();
    const conflicts: string[] = [];
    for (const { name, entries } of messages)
      for (const [key, pt] of Object.entries(entries)) {
        const earlier = seen.get(key);
        if (earlier && earlier.pt !== pt) conflicts.push(`"${key}": ${earlier.name} and ${name} translate it apart`);
        seen.set(key, { name, pt });
      }
    expect(conflicts).toEqual([]);
  });

  it('has the same words in every language of a word table', () => {
    expect(words.map((w) => w.name)).toEqual(
      expect.arrayContaining(['help center pages', 'accountant report', 'finance notifications']),
    );
    const problems: string[] = [];
    // A function may ignore a parameter in one language (an amount's currency, named by Intl in another).
    const shape = (value: unknown) => (Array.isArray(value) ? `list of ${value.length}` : typeof value);
    for (const { name, tables } of words) {
      const english = tables.en as Record<string, unknown>;
      for (const [language, table] of Object.entries(tables)) {
        const words = table as Record<string, unknown>;
        const keys = new Set([...Object.keys(english), ...Object.keys(words)]);
        for (const key of keys) {
          if (!(key in words)) problems.push(`${name} (${language}): "${key}" is missing`);
          else if (!(key in english)) problems.push(`${name} (${language}): "${key}" is not in English`);
          else if (shape(words[key]) !== shape(english[key]))
            problems.push(`${name} (${language}): "${key}" is a ${shape(words[key])}, not a ${shape(english[key])}`);
          else if (typeof words[key] === 'string' && (words[key] as string).trim() === '')
            problems.push(`${name} (${language}): "${key}" is empty`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('loads every catalogue file with its service', () => {
    const loaded = new Set(messages.map((m) => m.name));
    const declared = sourceFiles(path.join(ROOT, 'src'))
      .filter((file) => file.endsWith('.messages.ts'))
      .map((file) => ({ file, name: /defineMessages\('([^']+)'/.exec(readFileSync(file, 'utf8'))?.[1] }));
    expect(declared.length).toBeGreaterThan(5);
    for (const { file, name } of declared) expect(loaded.has(name ?? ''), `${file} (${name}) is not loaded`).toBe(true);
  });
});

describe('nothing a service throws bypasses the catalogue', () => {
  /** The keys of the catalogues a part of the code loads: core's, and its service's. */
  const keysOf = (...names: string[]) =>
    new Set(messages.filter((m) => names.some((n) => m.name.startsWith(n))).flatMap((m) => Object.keys(m.entries)));
  const parts = [
    { dir: 'src/core', keys: keysOf('core') },
    { dir: 'src/chat', keys: keysOf('core', 'chat') },
    { dir: 'src/finance', keys: keysOf('core', 'finance') },
  ];

  for (const { dir, keys } of parts) {
    it(`finds every error sentence and field problem of ${dir} in its catalogues`, () => {
      const findings = scanThrownTexts(sourceFiles(path.join(ROOT, dir)), (key) => keys.has(key))
        // notFound builds "X not found" from a noun its type checks against the catalogue.
        .filter((f) => !(f.file.endsWith(path.join('core', 'http', 'errors.ts')) && f.text === '`${what} not found`'))
        .map((f) => `${path.relative(ROOT, f.file)}:${f.line} ${f.kind}: ${f.text}`);
      expect(findings).toEqual([]);
    });
  }

  it('reports a sentence built in place and a literal that is not a key (the scan itself)', () => {
    const file = path.join(ROOT, 'test', 'fixtures', 'i18n-bypass.ts.txt');
    const findings = scanThrownTexts([file], (key) => key === 'Contact not found');
    expect(findings.map((f) => [f.kind, f.text])).toEqual([
      ['built', '`Contact ${id} is gone`'],
      ['missing', 'Not in the catalogue'],
      ['missing', 'Ghost not found'],
      ['missing', 'is odd'],
      ['built', "'is ' + status"],
      ['missing', 'Cast away'],
    ]);
  });
});
