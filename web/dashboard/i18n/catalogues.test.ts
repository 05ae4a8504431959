import { describe, expect, it } from 'vitest';
import en from './en.json';
import ptBR from './pt-BR.json';

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') found.set(`${prefix}${key}`, value);
    else for (const [k, v] of leaves(value, `${prefix}${key}.`)) found.set(k, v);
  }
  return found;
}

const placeholders = (text: string) => [...text.matchAll(/{(\w+)}/g)].map((m) => m[1]).sort();

describe('the language catalogues', () => {
  const english = leaves(en);
  const portuguese = leaves(ptBR);

  it('have the same keys', () => {
    expect([...portuguese.keys()].sort()).toEqual([...english.keys()].sort());
  });

  it('fill the same placeholders, and say every sentence', () => {
    for (const [key, text] of english) {
      expect(placeholders(portuguese.get(key) ?? ''), key).toEqual(placeholders(text));
      expect(text.trim(), key).not.toBe('');
      expect(portuguese.get(key)?.trim(), key).not.toBe('');
    }
  });

  it('use no message syntax that would break a sentence (a bare @ or |)', () => {
    for (const [key, text] of [...english, ...portuguese]) expect(text, key).not.toMatch(/(^|[^'])[@|]/);
  });
});
