import { describe, expect, it } from 'vitest';
import { cannedQuery, insertCanned } from './canned.js';

describe('canned responses in the composer', () => {
  it('opens on a / at the start of a word before the caret', () => {
    expect(cannedQuery('/', 1)).toEqual({ start: 0, term: '' });
    expect(cannedQuery('Hi /ref', 7)).toEqual({ start: 3, term: 'ref' });
    expect(cannedQuery('line\n/gr', 8)).toEqual({ start: 5, term: 'gr' });
  });

  it('stays shut inside words, paths and after a space', () => {
    expect(cannedQuery('and/or', 6)).toBeNull();
    expect(cannedQuery('/a/b', 4)).toBeNull();
    expect(cannedQuery('/ref ', 5)).toBeNull();
    expect(cannedQuery('no slash', 8)).toBeNull();
  });

  it('replaces the /word with the response and puts the caret after it', () => {
    const text = 'Hi /ref, thanks';
    const query = cannedQuery(text, 7)!;
    expect(insertCanned(text, query, 7, 'Your refund is on its way')).toEqual({
      text: 'Hi Your refund is on its way, thanks',
      caret: 28,
    });
  });
});
