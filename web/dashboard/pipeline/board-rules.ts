/**
 * The deal board's rules, free of Vue and of requests (unit tested): what a card shows (days in its
 * stage, a close date that is near or past, its score band), what a column's header totals, and
 * how a move changes the columns before the server answers.
 */

export const SCORE_CATEGORIES = ['frio', 'morno', 'quente', 'muito_quente'] as const;
export type ScoreCategory = (typeof SCORE_CATEGORIES)[number];

/**
 * The band of a score as the server names it (docs/spec/decisions.md §8), read from the name or,
 * failing that, the score.
 */
export function scoreCategory(category: string | null | undefined, score: number): ScoreCategory {
  const known = SCORE_CATEGORIES.find((c) => c === category);
  if (known) return known;
  if (score > 75) return 'muito_quente';
  if (score > 50) return 'quente';
  if (score > 25) return 'morno';
  return 'frio';
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days since the card entered its stage (0 on the day it did). */
export function daysInStage(stageEnteredAt: string, nowMs: number): number {
  const entered = Date.parse(stageEnteredAt);
  if (!Number.isFinite(entered)) return 0;
  return Math.max(0, Math.floor((nowMs - entered) / DAY_MS));
}

/** The close date is near when it is this many days away or fewer. */
export const DEADLINE_SOON_DAYS = 3;

/** The local calendar date of an instant, `YYYY-MM-DD`. */
export function localDate(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * Whether an open deal's expected close date has passed (`overdue`) or comes within
 * DEADLINE_SOON_DAYS (`soon`); a won or lost deal, or one without a date, has no warning.
 */
export function deadlineState(closeDate: string | null, status: string, nowMs: number): 'overdue' | 'soon' | null {
  if (!closeDate || status !== 'open' || !/^\d{4}-\d{2}-\d{2}$/.test(closeDate)) return null;
  const today = localDate(nowMs);
  if (closeDate < today) return 'overdue';
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const limit = localDate(new Date(y, m - 1, d + DEADLINE_SOON_DAYS).getTime());
  return closeDate <= limit ? 'soon' : null;
}

export interface Money {
  currency: string;
  value: number;
}

/** Sums amounts without a binary float's drift (to thousandths, the finest a currency has). */
function sum(values: readonly number[]): number {
  return values.reduce((n, v) => n + Math.round(v * 1000), 0) / 1000;
}

export interface ColumnTotals {
  /** One amount per currency, the largest first. */
  lines: Money[];
  /** True when the amounts cover only the cards loaded so far (several currencies, more to load). */
  partial: boolean;
}

interface Priced {
  currency: string;
  value: number;
}

/**
 * A column's total per currency. The server counts one total per stage (`total_value`, every
 * currency added up; null under a filter, where it has none): with every card of the column loaded
 * the cards give the exact amount per currency; with more to load, one currency among the loaded
 * cards means the server's total is in it; otherwise only the cards held can be summed (partial).
 */
export function columnTotals(
  count: number,
  serverTotal: number | null,
  cards: readonly Priced[],
  fallbackCurrency: string,
): ColumnTotals {
  const currencies = [...new Set(cards.map((c) => c.currency))];
  if (cards.length >= count || currencies.length > 1 || serverTotal === null) {
    const lines = currencies
      .map((currency) => ({ currency, value: sum(cards.filter((c) => c.currency === currency).map((c) => c.value)) }))
      .sort((a, b) => b.value - a.value);
    const partial = cards.length < count;
    return { lines: lines.length > 0 ? lines : [{ currency: fallbackCurrency, value: serverTotal ?? 0 }], partial };
  }
  return { lines: [{ currency: currencies[0] ?? fallbackCurrency, value: serverTotal }], partial: false };
}

export interface MovableColumn<C> {
  stage: { id: string; cards_count: number; total_value: number };
  cards: C[];
}

/**
 * The columns after a card moves to the end of another stage (where `move_to_stage` puts it), with
 * both stages' counts and totals changed by it; null when the card is not on the board or is
 * already in that stage (a same-stage move changes nothing). The card's stage is set to the target.
 */
export function moveLocally<C extends { id: number; value: number; stage: { id: string; name: string } }>(
  columns: readonly MovableColumn<C>[],
  cardId: number,
  toStageId: string,
  toStageName: string,
): MovableColumn<C>[] | null {
  const from = columns.find((c) => c.cards.some((card) => card.id === cardId));
  const to = columns.find((c) => c.stage.id === toStageId);
  if (!from || !to || from === to) return null;
  const card = from.cards.find((c) => c.id === cardId)!;
  const moved = { ...card, stage: { id: toStageId, name: toStageName } };
  return columns.map((column) => {
    if (column === from)
      return {
        stage: {
          ...column.stage,
          cards_count: Math.max(0, column.stage.cards_count - 1),
          total_value: sum([column.stage.total_value, -card.value]),
        },
        cards: column.cards.filter((c) => c.id !== cardId),
      };
    if (column === to)
      return {
        stage: {
          ...column.stage,
          cards_count: column.stage.cards_count + 1,
          total_value: sum([column.stage.total_value, card.value]),
        },
        cards: [...column.cards, moved],
      };
    return column;
  });
}
