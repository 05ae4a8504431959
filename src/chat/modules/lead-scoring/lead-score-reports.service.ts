import { invalidField } from '../../../core/http/errors.js';
import { rangeOf } from '../../../core/http/timestamps.js';
import { assertStaff, systemContext, type AccountContext, type ChatDeps } from '../../context.js';
import { presentCard, scoreCategory } from '../pipelines/pipeline-cards.presenter.js';
import type { PipelineCardsService } from '../pipelines/pipeline-cards.service.js';
import * as repo from './lead-score-reports.repository.js';
import type { RangeQuery, TopLeadsQuery, TrendsQuery } from './lead-score.schema.js';
import { t } from '../../../core/i18n/catalogue.js';

export const BANDS = [
  { range: '0-25', category: 'frio', label: 'Frio' },
  { range: '26-50', category: 'morno', label: 'Morno' },
  { range: '51-75', category: 'quente', label: 'Quente' },
  { range: '76-100', category: 'muito_quente', label: 'Muito Quente' },
] as const;

const DAY = 86_400_000;
const MAX_PERIODS = 400;
const round2 = (n: number) => Math.round(n * 100) / 100;
const labelOf = (category: string) => BANDS.find((b) => b.category === category)?.label ?? category;
/** The range of trends and category_changes without one (docs/spec/decisions.md §8). */
export const DEFAULT_REPORT_DAYS = 30;

/** since/until (or from/to) as [from, to) in ms; a missing end: the last 30 days up to now. */
function lastDaysOr(query: RangeQuery): { from: number; to: number } {
  const { from, to } = rangeOf(query, { lastDays: { days: DEFAULT_REPORT_DAYS, now: Date.now() } });
  return { from: from!, to: to! };
}

/** The start of the period holding `ms` (UTC; weeks start on Monday) and the start of the next one. */
function periodOf(ms: number, granularity: 'day' | 'week' | 'month'): [number, number] {
  const d = new Date(ms);
  if (granularity === 'month') {
    const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    return [start, Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)];
  }
  const day = Math.floor(ms / DAY) * DAY;
  if (granularity === 'day') return [day, day + DAY];
  const start = day - ((new Date(day).getUTCDay() + 6) % 7) * DAY;
  return [start, start + 7 * DAY];
}

const periodLabel = (start: number, granularity: string) =>
  new Date(start).toISOString().slice(0, granularity === 'month' ? 7 : 10);

/**
 * Lead score reports (docs/spec/decisions.md §8) over the open live cards and the change logs, by indexed
 * queries (see the repository): never every card in memory.
 */
export class LeadScoreReportsService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly cards: PipelineCardsService,
  ) {}

  /** The spec's distribution: ranges with counts and labels, average and median (0 with no cards). */
  async distribution(ctx: AccountContext, pipelineId?: number) {
    assertStaff(ctx);
    const db = this.deps.db;
    const { count, sum, bands } = await repo.bandCounts(db, ctx.accountId, pipelineId);
    let median = 0;
    if (count > 0) {
      const middle = await repo.scoresAt(db, ctx.accountId, Math.floor((count - 1) / 2), pipelineId);
      median = count % 2 === 1 ? middle[0] : (middle[0] + middle[1]) / 2;
    }
    return {
      ranges: BANDS.map((b, i) => ({ range: b.range, count: bands[i], label: b.label })),
      average_score: count === 0 ? 0 : round2(sum / count),
      median_score: median,
      total: count,
    };
  }

  async dashboard(ctx: AccountContext) {
    assertStaff(ctx);
    const { count, sum, bands } = await repo.bandCounts(this.deps.db, ctx.accountId);
    return {
      average_score: count === 0 ? 0 : round2(sum / count),
      total_scored: count,
      by_category: BANDS.map((b, i) => ({ category: b.category, label: b.label, range: b.range, count: bands[i] })),
      top_rules: await repo.topRules(this.deps.db, ctx.accountId, 5),
    };
  }

  async trends(ctx: AccountContext, query: TrendsQuery) {
    assertStaff(ctx);
    const { from, to } = lastDaysOr(query);
    const granularity = query.granularity ?? 'day';
    const periods: [number, number][] = [];
    for (let p = periodOf(from, granularity); p[0] < to; p = periodOf(p[1], granularity)) {
      periods.push(p);
      if (periods.length > MAX_PERIODS)
        throw invalidField(
          'until',
          t('is too far from since (at most %{max} periods of a %{granularity})', { max: MAX_PERIODS, granularity }),
        );
    }
    const boundaries = [
      Math.max(from, periods[0][0]),
      ...periods.map((p, i) => (i === periods.length - 1 ? to : p[1])),
    ];
    const rows = await repo.trendBuckets(this.deps.db, ctx.accountId, boundaries);
    const byBucket = new Map(rows.map((r) => [r.bucket, r]));
    return periods.map(([start], i) => ({
      period: periodLabel(start, granularity),
      average_score: round2(byBucket.get(i)?.average ?? 0),
      cards_scored: byBucket.get(i)?.cards ?? 0,
    }));
  }

  async topLeads(ctx: AccountContext, query: TopLeadsQuery) {
    assertStaff(ctx);
    const ids = await repo.topCardIds(this.deps.db, ctx.accountId, query.limit ?? 10, query.pipeline_id);
    const system = systemContext(ctx.accountId);
    const views = await Promise.all(ids.map((id) => this.cards.get(system, id)));
    return views.map((view) => ({ ...presentCard(view), lead_score_label: scoreCategory(view.card.lead_score).label }));
  }

  async categoryChanges(ctx: AccountContext, query: RangeQuery) {
    assertStaff(ctx);
    const { from, to } = lastDaysOr(query);
    const rows = await repo.categoryChanges(this.deps.db, ctx.accountId, from, to);
    return {
      changes: rows
        .map((r) => ({ ...r, from_label: labelOf(r.from), to_label: labelOf(r.to) }))
        .sort((a, b) => b.count - a.count || a.from.localeCompare(b.from) || a.to.localeCompare(b.to)),
      total: rows.reduce((n, r) => n + r.count, 0),
    };
  }
}
