import { describe, expect, it } from 'vitest';
import { describeEntry } from './deal-timeline.js';

describe("a deal's timeline entry as a sentence", () => {
  it('names the stages of a move, the reason of a loss and the value of a win', () => {
    expect(
      describeEntry({
        type: 'stage_change',
        data: { from_stage: { id: '1_a', name: 'Lead' }, to_stage: { name: 'Won' } },
      }),
    ).toEqual({ key: 'stageChange', params: { from: 'Lead', to: 'Won' } });
    expect(describeEntry({ type: 'deal_lost', data: { lost_reason: 'Price' } })).toEqual({
      key: 'lostWithReason',
      params: { reason: 'Price' },
    });
    expect(describeEntry({ type: 'deal_lost', data: { lost_reason: null } }).key).toBe('lost');
    expect(describeEntry({ type: 'deal_won', data: { value: 1500.5, currency: 'BRL', won_note: 'Signed' } })).toEqual({
      key: 'wonWithValue',
      params: {},
      money: { to: { value: 1500.5, currency: 'BRL' } },
      quote: 'Signed',
    });
  });

  it('keeps the text of a note and the amounts of a value change', () => {
    expect(describeEntry({ type: 'note_added', data: { content: 'Call back' } })).toEqual({
      key: 'noteAdded',
      params: {},
      quote: 'Call back',
    });
    expect(
      describeEntry({ type: 'value_changed', data: { from: 10, to: '12.5', from_currency: 'USD', currency: 'BRL' } })
        .money,
    ).toEqual({ from: { value: 10, currency: 'USD' }, to: { value: 12.5, currency: 'BRL' } });
  });

  it('says who owns the deal now, or that nobody does, and something for a type it does not know', () => {
    expect(describeEntry({ type: 'owner_changed', data: { to_owner: { id: 2, name: 'Rui' } } })).toEqual({
      key: 'ownerChanged',
      params: { owner: 'Rui' },
    });
    expect(describeEntry({ type: 'owner_changed', data: { to_owner: null } }).key).toBe('ownerRemoved');
    expect(describeEntry({ type: 'future_thing', data: {} })).toEqual({
      key: 'other',
      params: { type: 'future_thing' },
    });
  });
});
