import type { ChatModule } from '../../module.types.js';
import { pipelineAnalyticsRoutes } from './pipeline-analytics.routes.js';
import { PipelineAnalyticsService } from './pipeline-analytics.service.js';

declare module '../../container.js' {
  interface ChatServices {
    pipelineAnalytics: PipelineAnalyticsService;
  }
}

/**
 * NooviChat's pipeline analytics (issue 23, decisions/0029): routes over the pipeline's deal
 * figures (pipelines module: deal-figures.*) and lead scoring's distribution. No tables of its own.
 */
export const pipelineAnalyticsModule: ChatModule = {
  name: 'pipeline-analytics',
  services: (_deps, built) => ({
    pipelineAnalytics: new PipelineAnalyticsService(built.pipelineDealFigures, built.leadScoreReports),
  }),
  routes: [pipelineAnalyticsRoutes],
};
