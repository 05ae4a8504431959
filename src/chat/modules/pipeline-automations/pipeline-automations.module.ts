import { DestinationGuard } from '../../../core/webhooks/destination-guard.js';
import type { ChatModule } from '../../module.types.js';
import type { ActionServices } from './automation-actions.js';
import { migration0131PipelineAutomationRuns } from './automation-runs.migration.js';
import { PipelineAutomationEngine } from './pipeline-automations.engine.js';
import { pipelineAutomationsListener } from './pipeline-automations.listener.js';
import { migration0130PipelineAutomations } from './pipeline-automations.migration.js';
import { pipelineAutomationsRoutes } from './pipeline-automations.routes.js';
import { PipelineAutomationsService } from './pipeline-automations.service.js';
import type { PipelineAutomationTables } from './pipeline-automations.tables.js';

declare module '../../container.js' {
  interface ChatServices {
    pipelineAutomations: PipelineAutomationsService;
    pipelineAutomationEngine: PipelineAutomationEngine;
  }
}

declare module '../../db/schema.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the tables come from PipelineAutomationTables
  interface ChatDatabase extends PipelineAutomationTables {}
}

/**
 * Pipeline automations (issue 13, docs/spec/decisions.md §9): triggers on card events, a scheduled
 * time_in_stage check and manual runs; conditions in the lead-score format over the card; actions
 * from a registry, applied through the pipeline services as the automation.
 */
export const pipelineAutomationsModule: ChatModule = {
  name: 'pipeline-automations',
  migrations: {
    '0130_pipeline_automations': migration0130PipelineAutomations,
    '0131_pipeline_automation_runs': migration0131PipelineAutomationRuns,
  },
  // A send_webhook action's deliveries are signed with its automation's secret.
  subscribers: (services) => ({ pipeline_automation: (id) => services.pipelineAutomations.secretOf(id) }),
  services: (deps, built) => {
    const actionServices: ActionServices = {
      agents: built.agents,
      pipelines: built.pipelines,
      pipelineCards: built.pipelineCards,
      pipelineCardMoves: built.pipelineCardMoves,
      pipelineDeals: built.pipelineDeals,
      pipelineCardTimeline: built.pipelineCardTimeline,
      conversations: built.conversations,
      conversationMessages: built.conversationMessages,
      contactLabels: built.contactLabels,
      destinations: new DestinationGuard(deps.config.webhooks.allowedHosts),
    };
    const pipelineAutomationEngine = new PipelineAutomationEngine(deps, actionServices);
    return {
      pipelineAutomationEngine,
      pipelineAutomations: new PipelineAutomationsService(deps, pipelineAutomationEngine, actionServices),
    };
  },
  routes: [pipelineAutomationsRoutes],
  listeners: ({ services, logger }) => [
    pipelineAutomationsListener(services.pipelineAutomationEngine.withLogger(logger)),
  ],
  jobs: ({ services }) => services.pipelineAutomations.jobs(),
};
