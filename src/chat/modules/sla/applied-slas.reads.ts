import { timeRange } from '../../../core/http/timestamps.js';
import { toIso } from '../../../core/time.js';
import type { AccountContext, ChatDeps } from '../../context.js';
import { csvRows } from '../../../core/csv.js';
import type { SlaPoliciesService } from './sla-policies.service.js';
import { presentApplied } from './sla.presenter.js';
import * as repo from './sla.repository.js';
import type { AppliedListQuery, AppliedMetricsQuery, DownloadQuery } from './sla.schema.js';

export const APPLIED_PER_PAGE = 25;
/** Metrics kept per account, filter and version (see metrics). */
const CACHED_METRICS = 500;
const round2 = (n: number) => Math.round(n * 100) / 100;

export interface Metrics {
  total_applied: number;
  hit: number;
  missed: number;
  hit_rate: number;
  avg_first_response_time: number;
  avg_resolution_time: number;
  breaches_by_type: { first_response: number; next_response: number; resolution: number };
}

/** The list's, metrics' and download's reads of applied SLAs (Enterprise plan; administrators). */
export class AppliedSlaReads {
  private readonly cache = new Map<string, Metrics>();

  constructor(
    private readonly deps: ChatDeps,
    private readonly policies: SlaPoliciesService,
  ) {}

  private async filter(ctx: AccountContext, query: AppliedMetricsQuery): Promise<repo.AppliedFilter> {
    await this.policies.requirePlan(ctx);
    if (query.sla_policy_id !== undefined) await this.policies.get(ctx, query.sla_policy_id);
    const { from, to } = timeRange(query.since, query.until);
    return {
      slaPolicyId: query.sla_policy_id,
      status: query.status,
      from,
      to,
      inboxId: query.inbox_id,
      teamId: query.team_id,
      assigneeId: query.assigned_agent_id,
    };
  }

  async list(ctx: AccountContext, query: AppliedListQuery) {
    const filter = await this.filter(ctx, query);
    const page = query.page ?? 1;
    const db = this.deps.db;
    const [rows, count] = await Promise.all([
      repo.listApplied(db, ctx.accountId, filter, { limit: APPLIED_PER_PAGE, offset: (page - 1) * APPLIED_PER_PAGE }),
      repo.countApplied(db, ctx.accountId, filter),
    ]);
    const breaches = await repo.breachesOf(
      db,
      ctx.accountId,
      rows.map((r) => r.id),
    );
    return {
      payload: rows.map((r) =>
        presentApplied(
          r,
          breaches.filter((b) => b.applied_sla_id === r.id),
        ),
      ),
      meta: { count, current_page: page },
    };
  }

  /**
   * total_applied, hit, missed; hit_rate = share not missed, in percent with 2 decimals (100 with
   * nothing applied); average first response and resolution in seconds from the conversation's creation.
   */
  async metrics(ctx: AccountContext, query: AppliedMetricsQuery): Promise<Metrics> {
    const filter = await this.filter(ctx, query);
    // Every change to the account's applied SLAs raises its version in the change's transaction (and
    // a cascade changes the count): an answer computed for the same version is still exact.
    const key = `${ctx.accountId}:${await repo.versionOf(this.deps.db, ctx.accountId)}:${JSON.stringify(filter)}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const m = await repo.metrics(this.deps.db, ctx.accountId, filter);
    const out: Metrics = {
      total_applied: m.total,
      hit: m.hit,
      missed: m.missed,
      hit_rate: m.total === 0 ? 100 : round2(((m.total - m.missed) / m.total) * 100),
      avg_first_response_time: m.frtCount === 0 ? 0 : round2(m.frtSum / m.frtCount / 1000),
      avg_resolution_time: m.rtCount === 0 ? 0 : round2(m.rtSum / m.rtCount / 1000),
      breaches_by_type: {
        first_response: m.breaches.get('first_response') ?? 0,
        next_response: m.breaches.get('next_response') ?? 0,
        resolution: m.breaches.get('resolution') ?? 0,
      },
    };
    if (this.cache.size >= CACHED_METRICS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, out);
    return out;
  }

  /** One row per applied SLA applied between start_date and end_date (UTC days, both included). */
  async download(ctx: AccountContext, query: DownloadQuery): Promise<string> {
    // Days as the spec writes them (YYYY-MM-DD, each whole UTC day), or any timestamp input.
    const days = timeRange(query.start_date, query.end_date, { fields: ['start_date', 'end_date'] });
    const filter = await this.filter(ctx, query);
    if (days.from !== undefined) filter.from = Math.max(filter.from ?? days.from, days.from);
    if (days.to !== undefined) filter.to = Math.min(filter.to ?? days.to, days.to);
    const rows = await repo.listApplied(this.deps.db, ctx.accountId, filter);
    const breaches = await repo.breachesOf(
      this.deps.db,
      ctx.accountId,
      rows.map((r) => r.id),
    );
    const iso = (ms: number | null) => (ms === null ? '' : toIso(ms));
    return csvRows([
      [
        'conversation_id',
        'contact_name',
        'sla_policy',
        'status',
        'applied_at',
        'first_response_due_at',
        'first_response_at',
        'resolution_due_at',
        'resolved_at',
        'breaches',
      ],
      ...rows.map((r) => [
        r.display_id,
        r.contact_name,
        r.policy_name,
        r.status,
        iso(r.created_at),
        iso(r.first_response_due),
        iso(r.first_response_at),
        iso(r.resolution_due),
        iso(r.resolved_at),
        breaches
          .filter((b) => b.applied_sla_id === r.id)
          .map((b) => b.event_type)
          .join(' '),
      ]),
    ]);
  }
}
