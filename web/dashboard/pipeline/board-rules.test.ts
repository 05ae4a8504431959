import { describe, expect, it } from 'vitest';
import { columnTotals, daysInStage, deadlineState, moveLocally, scoreCategory } from './board-rules.js';

const noon = (date: string) => new Date(`${date}T12:00:00`).getTime();

describe("a card's looks", () => {
  it('names the score band from the server, or from the score where the name is unknown', () => {
    expect(scoreCategory('quente', 10)).toBe('quente');
    expect(scoreCategory(undefined, 25)).toBe('frio');
    expect(scoreCategory('', 26)).toBe('morno');
    expect(scoreCategory('other', 51)).toBe('quente');
    expect(scoreCategory(null, 76)).toBe('muito_quente');
  });

  it('counts whole days in the stage', () => {
    const entered = '2031-03-01T10:00:00Z';
    expect(daysInStage(entered, Date.parse('2031-03-01T23:00:00Z'))).toBe(0);
    expect(daysInStage(entered, Date.parse('2031-03-04T10:00:00Z'))).toBe(3);
    expect(daysInStage('not a date', Date.now())).toBe(0);
  });

  it('warns of a close date past or within three days, for open deals only', () => {
    const now = noon('2031-03-10');
    expect(deadlineState('2031-03-09', 'open', now)).toBe('overdue');
    expect(deadlineState('2031-03-10', 'open', now)).toBe('soon');
    expect(deadlineState('2031-03-13', 'open', now)).toBe('soon');
    expect(deadlineState('2031-03-14', 'open', now)).toBeNull();
    expect(deadlineState('2031-03-01', 'won', now)).toBeNull();
    expect(deadlineState(null, 'open', now)).toBeNull();
  });
});

describe("a column's totals", () => {
  const brl = (value: number) => ({ currency: 'BRL', value });
  const usd = (value: number) => ({ currency: 'USD', value });

  it('sums each currency from the cards when all are loaded, without float drift', () => {
    expect(columnTotals(3, 0.6, [brl(0.1), brl(0.2), usd(0.3)], 'BRL')).toEqual({
      lines: [
        { currency: 'BRL', value: 0.3 },
        { currency: 'USD', value: 0.3 },
      ],
      partial: false,
    });
  });

  it("takes the server's total in the one currency held while more cards are to load", () => {
    expect(columnTotals(30, 4500, [brl(100), brl(200)], 'USD')).toEqual({
      lines: [{ currency: 'BRL', value: 4500 }],
      partial: false,
    });
  });

  it('marks the totals partial when several currencies are held and more are to load', () => {
    const totals = columnTotals(30, 4500, [brl(100), usd(200)], 'BRL');
    expect(totals.partial).toBe(true);
    expect(totals.lines).toEqual([usd(200), brl(100)]);
  });

  it('sums only the loaded cards under a filter (the server has no total for it), partial while more are to load', () => {
    expect(columnTotals(5, null, [brl(100), brl(200)], 'BRL')).toEqual({ lines: [brl(300)], partial: true });
    expect(columnTotals(2, null, [brl(100), brl(200)], 'BRL')).toEqual({ lines: [brl(300)], partial: false });
    expect(columnTotals(0, null, [], 'USD')).toEqual({ lines: [usd(0)], partial: false });
  });

  it("shows an empty column's total in the fallback currency", () => {
    expect(columnTotals(0, 0, [], 'EUR')).toEqual({ lines: [{ currency: 'EUR', value: 0 }], partial: false });
  });
});

describe('a move before the server answers', () => {
  const card = (id: number, stage: string, value: number) => ({ id, value, stage: { id: stage, name: stage } });
  const columns = [
    {
      stage: { id: '1_lead', cards_count: 2, total_value: 300.1 },
      cards: [card(1, '1_lead', 100.1), card(2, '1_lead', 200)],
    },
    { stage: { id: '1_won', cards_count: 1, total_value: 50 }, cards: [card(3, '1_won', 50)] },
  ];

  it('takes the card out of its column and puts it at the end of the other, with counts and totals', () => {
    const next = moveLocally(columns, 1, '1_won', 'Won')!;
    expect(next[0]!.cards.map((c) => c.id)).toEqual([2]);
    expect(next[0]!.stage).toMatchObject({ cards_count: 1, total_value: 200 });
    expect(next[1]!.cards.map((c) => c.id)).toEqual([3, 1]);
    expect(next[1]!.cards[1]!.stage).toEqual({ id: '1_won', name: 'Won' });
    expect(next[1]!.stage).toMatchObject({ cards_count: 2, total_value: 150.1 });
    // The columns it was given are left as they were (the rollback keeps them).
    expect(columns[0]!.cards).toHaveLength(2);
  });

  it('changes nothing for a move into the same stage or of a card not on the board', () => {
    expect(moveLocally(columns, 1, '1_lead', 'Lead')).toBeNull();
    expect(moveLocally(columns, 9, '1_won', 'Won')).toBeNull();
    expect(moveLocally(columns, 1, '9_nowhere', 'Nowhere')).toBeNull();
  });
});
