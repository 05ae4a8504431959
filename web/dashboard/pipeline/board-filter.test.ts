import { describe, expect, it } from 'vitest';
import { filterFromQuery, queryOfFilter } from './board-filter.js';

describe("the board's filter in the address", () => {
  it('reads the text, the owner (me or an id) and the status', () => {
    expect(filterFromQuery({ q: ' chairs ', owner: 'me', status: 'won' })).toEqual({
      q: 'chairs',
      owner: 'me',
      status: 'won',
    });
    expect(filterFromQuery({ owner: '12' })).toEqual({ q: '', owner: 12, status: null });
  });

  it('takes anything else as no filter', () => {
    expect(filterFromQuery({ owner: 'someone', status: 'pending', q: ['a', 'b'] })).toEqual({
      q: '',
      owner: null,
      status: null,
    });
    expect(filterFromQuery({ owner: '-3' }).owner).toBeNull();
  });

  it('writes back only what is set', () => {
    expect(queryOfFilter({ q: '', owner: null, status: null })).toEqual({
      q: undefined,
      owner: undefined,
      status: undefined,
    });
    expect(queryOfFilter({ q: 'x', owner: 'me', status: 'open' })).toEqual({ q: 'x', owner: 'me', status: 'open' });
  });
});
