import { notFound } from '../../../core/http/errors.js';
import { timeRange, type Timestamp } from '../../../core/http/timestamps.js';
import { assertStaff, type AccountContext, type ChatDeps } from '../../context.js';
import type { AgentsService } from '../agents/agents.service.js';
import * as repo from './deal-figures.repository.js';
import { totalValue, type CurrencyTotal } from './pipeline-cards.money.js';
import { listPipelines } from './pipelines.repository.js';
import type { PipelinesService } from './pipelines.service.js';

/** The period analytics cover without one: the last 30 days up to now (NooviChat's default). */
export const DEFAULT_ANALYTICS_DAYS = 30;

/** What every analytics request may narrow by (NooviChat's n8n node and MCP server send these). */
export interface AnalyticsQuery {
  start_date?: Timestamp;
  end_date?: Timestamp;
  pipeline_id?: number;
  /** Owners, as ids or comma-separated lists of ids ("3,7"). */
  agent_ids?: string[];
}

export interface Scope extends repo.AnalyticsFilter {
  period: { start_date: string; end_date: string };
}

export interface Money {
  currency: string;
  value: number;
}

/** A percentage with two decimals; 0 of nothing is 0. */
const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100);
const round2 = (n: number) => Math.round(n * 100) / 100;
const DAY_MS = 86_400_000;

/** Per-currency sums as money, in currency order. */
function moneyOf(totals: Map<string, CurrencyTotal>): Money[] {
  return [...totals.values()]
    .sort((a, b) => a.currency.localeCompare(b.currency))
    .map((t) => ({ currency: t.currency, value: totalValue([t]) }));
}

/** Adds one grouped row's split sum to a per-currency map. */
function addTo(totals: Map<string, CurrencyTotal>, currency: string, high: unknown, low: unknown) {
  const current = totals.get(currency) ?? { currency, high: 0n, low: 0n };
  totals.set(currency, {
    currency,
    high: BigInt(String(current.high ?? 0)) + BigInt(String(high ?? 0)),
    low: BigInt(String(current.low ?? 0)) + BigInt(String(low ?? 0)),
  });
}

export interface ClosedTotals {
  deals: number;
  value: Map<string, CurrencyTotal>;
  /** Deals per currency. */
  dealsByCurrency: Map<string, number>;
  cycleMs: number;
}

const emptyTotals = (): ClosedTotals => ({ deals: 0, value: new Map(), dealsByCurrency: new Map(), cycleMs: 0 });

function totalsOf(rows: repo.ClosedRow[], keep: (row: repo.ClosedRow) => boolean = () => true): ClosedTotals {
  const out = emptyTotals();
  for (const row of rows.filter(keep)) {
    const deals = Number(row.deals);
    out.deals += deals;
    out.dealsByCurrency.set(row.currency, (out.dealsByCurrency.get(row.currency) ?? 0) + deals);
    out.cycleMs += Number(row.cycle_ms ?? 0);
    addTo(out.value, row.currency, row.high, row.low);
  }
  return out;
}

/**
 * NooviChat's pipeline analytics (decisions/0029) over the sales pipeline: win rate, stage
 * conversion, sales velocity, the team's pipeline and lost reasons, for a period (default the
 * last 30 days), a pipeline and owners. Read from timeline entries of the period and the
 * trigger-kept owner counts (deal-figures.repository.ts); every member of the account may
 * read them, as every member reads the cards they come from.
 */
export class DealFiguresService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly pipelines: PipelinesService,
    private readonly agents: AgentsService,
    private readonly clock: () => number = () => Date.now(),
  ) {}

  /** The period and filters of a request: 404 for a pipeline or an owner that is not the account's. */
  async scope(ctx: AccountContext, query: AnalyticsQuery): Promise<Scope> {
    assertStaff(ctx);
    const { from, to } = timeRange(query.start_date, query.end_date, {
      fields: ['start_date', 'end_date'],
      lastDays: { days: DEFAULT_ANALYTICS_DAYS, now: this.clock() },
    });
    if (query.pipeline_id !== undefined) await this.pipelines.find(this.deps.db, ctx.accountId, query.pipeline_id);
    let ownerIds: number[] | undefined;
    if (query.agent_ids !== undefined) {
      ownerIds = [...new Set(query.agent_ids.flatMap((ids) => ids.split(',')).map((id) => Number(id.trim())))];
      const found = await this.agents.byIds(this.deps.db, ctx.accountId, ownerIds);
      if (found.length !== ownerIds.length) throw notFound('Agent');
    }
    return {
      from: from!,
      to: to!,
      pipelineId: query.pipeline_id,
      ownerIds,
      period: { start_date: new Date(from!).toISOString(), end_date: new Date(to!).toISOString() },
    };
  }

  /** Deals won and lost in the period (each still in that state), per pipeline, owner and currency. */
  async closed(ctx: AccountContext, scope: Scope) {
    const [won, lost] = await Promise.all([
      repo.closedDeals(this.deps.db, ctx.accountId, 'deal_won', scope),
      repo.closedDeals(this.deps.db, ctx.accountId, 'deal_lost', scope),
    ]);
    return { won, lost };
  }

  /** Win rate = won / (won + lost) of the deals closed in the period. */
  async winRate(ctx: AccountContext, scope: Scope) {
    const { won, lost } = await this.closed(ctx, scope);
    const w = totalsOf(won);
    const l = totalsOf(lost);
    return {
      won_deals: w.deals,
      lost_deals: l.deals,
      closed_deals: w.deals + l.deals,
      win_rate: percent(w.deals, w.deals + l.deals),
      won_value: moneyOf(w.value),
      lost_value: moneyOf(l.value),
      period: scope.period,
    };
  }

  /**
   * Conversion from stage i = of the cards that entered stage i in the period, the share that
   * entered stage i + 1 afterwards (at any time since). Per pipeline (all of the account's, or one).
   */
  async conversion(ctx: AccountContext, scope: Scope) {
    const pipelines = await listPipelines(this.deps.db, ctx.accountId);
    const chosen = pipelines.filter((p) => scope.pipelineId === undefined || p.id === scope.pipelineId);
    const stages = await this.pipelines.stagesInListOrder(this.deps.db, ctx.accountId, scope.pipelineId);
    const next = new Map<number, number>();
    const byPipeline = new Map<number, typeof stages>();
    for (const stage of stages)
      byPipeline.set(stage.pipeline_id, [...(byPipeline.get(stage.pipeline_id) ?? []), stage]);
    for (const list of byPipeline.values())
      list.forEach((s, i) => i + 1 < list.length && next.set(s.id, list[i + 1].id));
    const rows = await repo.stageConversions(
      this.deps.db,
      ctx.accountId,
      stages.map((s) => s.id),
      next,
      scope,
    );
    const byStage = new Map(rows.map((r) => [Number(r.stage_id), r]));
    return {
      pipelines: chosen.map((p) => ({
        id: p.id,
        name: p.name,
        stages: (byPipeline.get(p.id) ?? []).map((s, i, list) => {
          const entered = Number(byStage.get(s.id)?.entered ?? 0);
          const last = i === list.length - 1;
          const converted = last ? null : Number(byStage.get(s.id)?.converted ?? 0);
          return {
            id: s.key,
            name: s.name,
            position: i,
            entered,
            converted_to_next: converted,
            conversion_rate: converted === null ? null : percent(converted, entered),
          };
        }),
      })),
      period: scope.period,
    };
  }

  /**
   * Sales velocity per currency = (open deals x average won value x win rate) / average days from
   * creation to won; the win rate and the days are the period's, over every currency.
   */
  async velocity(ctx: AccountContext, scope: Scope) {
    const [{ won, lost }, open] = await Promise.all([
      this.closed(ctx, scope),
      repo.ownerCounts(this.deps.db, ctx.accountId, 'open', scope),
    ]);
    const w = totalsOf(won);
    const l = totalsOf(lost);
    const rate = percent(w.deals, w.deals + l.deals);
    const days = w.deals === 0 ? 0 : round2(w.cycleMs / w.deals / DAY_MS);
    const openByCurrency = new Map<string, number>();
    for (const row of open)
      openByCurrency.set(row.currency, (openByCurrency.get(row.currency) ?? 0) + Number(row.cards));
    const currencies = [...new Set([...openByCurrency.keys(), ...w.dealsByCurrency.keys()])].sort();
    return {
      open_deals: [...openByCurrency.values()].reduce((n, c) => n + c, 0),
      won_deals: w.deals,
      win_rate: rate,
      average_days_to_win: days,
      currencies: currencies.map((currency) => {
        const wonDeals = w.dealsByCurrency.get(currency) ?? 0;
        const wonValue = w.value.get(currency);
        const average = wonDeals === 0 || !wonValue ? 0 : round2(totalValue([wonValue]) / wonDeals);
        const openDeals = openByCurrency.get(currency) ?? 0;
        const cycle = wonDeals === 0 ? 0 : w.cycleMs / w.deals / DAY_MS;
        return {
          currency,
          open_deals: openDeals,
          won_deals: wonDeals,
          average_won_value: average,
          velocity_per_day: cycle === 0 ? 0 : round2((openDeals * average * (rate / 100)) / cycle),
        };
      }),
      period: scope.period,
    };
  }

  /** Per owner (and the unassigned): open deals and their value now, deals won and lost in the period. */
  async team(ctx: AccountContext, scope: Scope) {
    const [{ won, lost }, open, agents] = await Promise.all([
      this.closed(ctx, scope),
      repo.ownerCounts(this.deps.db, ctx.accountId, 'open', scope),
      scope.ownerIds === undefined
        ? this.agents.list(ctx)
        : this.agents.byIds(this.deps.db, ctx.accountId, scope.ownerIds),
    ]);
    const owners: (number | null)[] = [...agents.map((a) => a.id)];
    if (scope.ownerIds === undefined) owners.push(null);
    const names = new Map(agents.map((a) => [a.id, a.name]));
    const members = owners.map((ownerId) => {
      const key = ownerId ?? 0;
      const openValue = new Map<string, CurrencyTotal>();
      let openDeals = 0;
      for (const row of open.filter((r) => Number(r.owner_key) === key)) {
        openDeals += Number(row.cards);
        addTo(openValue, row.currency, row.high, row.low);
      }
      const mine = (row: repo.ClosedRow) => (row.owner_id === null ? null : Number(row.owner_id)) === ownerId;
      const w = totalsOf(won, mine);
      const l = totalsOf(lost, mine);
      return {
        owner: ownerId === null ? null : { id: ownerId, name: names.get(ownerId) ?? '' },
        open_deals: openDeals,
        open_value: moneyOf(openValue),
        won_deals: w.deals,
        lost_deals: l.deals,
        won_value: moneyOf(w.value),
        win_rate: percent(w.deals, w.deals + l.deals),
      };
    });
    members.sort((a, b) => b.open_deals - a.open_deals || (a.owner?.name ?? '').localeCompare(b.owner?.name ?? ''));
    // Totals of every owner: deals of users who left the account count here, not as a member.
    const w = totalsOf(won);
    const l = totalsOf(lost);
    return {
      members,
      totals: {
        open_deals: open.reduce((n, r) => n + Number(r.cards), 0),
        won_deals: w.deals,
        lost_deals: l.deals,
        win_rate: percent(w.deals, w.deals + l.deals),
      },
      period: scope.period,
    };
  }

  /** Per pipeline: open deals and value now, deals won and lost in the period (the dashboard's summary). */
  async summary(ctx: AccountContext, scope: Scope) {
    const [pipelines, { won, lost }, open] = await Promise.all([
      listPipelines(this.deps.db, ctx.accountId),
      this.closed(ctx, scope),
      repo.ownerCounts(this.deps.db, ctx.accountId, 'open', scope),
    ]);
    return pipelines
      .filter((p) => scope.pipelineId === undefined || p.id === scope.pipelineId)
      .map((p) => {
        const openValue = new Map<string, CurrencyTotal>();
        let openDeals = 0;
        for (const row of open.filter((r) => Number(r.pipeline_id) === p.id)) {
          openDeals += Number(row.cards);
          addTo(openValue, row.currency, row.high, row.low);
        }
        return {
          id: p.id,
          name: p.name,
          open_deals: openDeals,
          open_value: moneyOf(openValue),
          won_deals: won.filter((r) => Number(r.pipeline_id) === p.id).reduce((n, r) => n + Number(r.deals), 0),
          lost_deals: lost.filter((r) => Number(r.pipeline_id) === p.id).reduce((n, r) => n + Number(r.deals), 0),
        };
      });
  }

  /** The reasons deals were lost in the period, with counts, most frequent first (at most 100). */
  async lostReasons(ctx: AccountContext, scope: Scope) {
    const reasons = await repo.lostReasons(this.deps.db, ctx.accountId, scope, 100);
    return { reasons, total: reasons.reduce((n, r) => n + r.count, 0), period: scope.period };
  }
}
