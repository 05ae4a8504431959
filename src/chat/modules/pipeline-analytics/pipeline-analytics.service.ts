import type { AccountContext } from '../../context.js';
import type { LeadScoreReportsService } from '../lead-scoring/lead-score-reports.service.js';
import type { AnalyticsQuery, DealFiguresService } from '../pipelines/deal-figures.service.js';

/**
 * NooviChat's pipeline analytics endpoints (decisions/0029): each reads the request's scope (the
 * period, default the last 30 days; a pipeline and owners of the account, 404 otherwise) and the
 * pipeline's deal figures; the dashboard puts win rate, velocity, the lead-score distribution and
 * a per-pipeline summary together.
 */
export class PipelineAnalyticsService {
  constructor(
    private readonly figures: DealFiguresService,
    private readonly leadScores: LeadScoreReportsService,
  ) {}

  async winRate(ctx: AccountContext, query: AnalyticsQuery) {
    return this.figures.winRate(ctx, await this.figures.scope(ctx, query));
  }

  async conversion(ctx: AccountContext, query: AnalyticsQuery) {
    return this.figures.conversion(ctx, await this.figures.scope(ctx, query));
  }

  async velocity(ctx: AccountContext, query: AnalyticsQuery) {
    return this.figures.velocity(ctx, await this.figures.scope(ctx, query));
  }

  async team(ctx: AccountContext, query: AnalyticsQuery) {
    return this.figures.team(ctx, await this.figures.scope(ctx, query));
  }

  async lostReasons(ctx: AccountContext, query: AnalyticsQuery) {
    return this.figures.lostReasons(ctx, await this.figures.scope(ctx, query));
  }

  async dashboard(ctx: AccountContext, query: AnalyticsQuery) {
    const scope = await this.figures.scope(ctx, query);
    const [winRate, velocity, distribution, summary] = await Promise.all([
      this.figures.winRate(ctx, scope),
      this.figures.velocity(ctx, scope),
      this.leadScores.distribution(ctx, scope.pipelineId),
      this.figures.summary(ctx, scope),
    ]);
    const { period: _w, ...win_rate } = winRate;
    const { period: _v, ...sales_velocity } = velocity;
    return {
      win_rate,
      sales_velocity,
      lead_distribution: distribution,
      pipeline_summary: summary,
      period: scope.period,
    };
  }
}
