import type { ChatModule } from '../../module.types.js';
import { LeadScoringEngine } from './lead-score.engine.js';
import { leadScoreListener } from './lead-score.listener.js';
import { LeadScoreReportsService } from './lead-score-reports.service.js';
import { leadScoreRoutes } from './lead-score.routes.js';
import { leadScoreRulesRoutes } from './lead-score-rules.routes.js';
import { LeadScoreRulesService } from './lead-score-rules.service.js';
import { LeadScoringService } from './lead-score.service.js';
import { migration0100LeadScoring } from './lead-scoring.migration.js';
import type { LeadScoringTables } from './lead-scoring.tables.js';

declare module '../../container.js' {
  interface ChatServices {
    leadScoreRules: LeadScoreRulesService;
    /** The engine: applies events to cards; the pipeline's scorer. */
    leadScoreEngine: LeadScoringEngine;
    /** Custom events, logs, bulk recalculation and the daily stale check. */
    leadScoring: LeadScoringService;
    leadScoreReports: LeadScoreReportsService;
  }
}

declare module '../../db/schema.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the tables come from LeadScoringTables
  interface ChatDatabase extends LeadScoringTables {}
}

/**
 * Lead scoring (issue 12, docs/spec/decisions.md §8): a 0-100 score per card from event rules and the
 * qualification checklist, with manual override, logs, reports and recalculation. Its listener
 * turns conversation, message, contact and card events into scored events; its scorer plugs into
 * the pipeline (its leadScorer extension point), so the checklist, override and
 * `recalculate_score` routes the pipeline serves use it.
 */
export const leadScoringModule: ChatModule = {
  name: 'lead-scoring',
  migrations: { '0100_lead_scoring': migration0100LeadScoring },
  services: (deps, built) => {
    const leadScoreEngine = new LeadScoringEngine(built.pipelineCards, built.pipelineCardReads);
    return {
      leadScoreRules: new LeadScoreRulesService(deps),
      leadScoreEngine,
      leadScoring: new LeadScoringService(deps, {
        engine: leadScoreEngine,
        pipelineCards: built.pipelineCards,
        pipelineCardScoring: built.pipelineCardScoring,
        pipelineCardReads: built.pipelineCardReads,
        contacts: built.contacts,
      }),
      leadScoreReports: new LeadScoreReportsService(deps, built.pipelineCards),
    };
  },
  routes: [leadScoreRulesRoutes, leadScoreRoutes],
  // Its scorer is the pipeline's: the checklist, override and recalculate_score routes use it.
  fills: (services) => ({ leadScorer: services.leadScoreEngine.scorer }),
  listeners: ({ services }) => [leadScoreListener(services.leadScoreEngine)],
  jobs: ({ services }) => services.leadScoring.jobs(),
};
