import { buildServices, collectMigrations, declaredBy } from '../core/modules/module.js';
import type { ChatServices } from './container.js';
import type { ChatDeps } from './context.js';
import type { ChatEventName } from './events.js';
import { chatCoreModule } from './core.module.js';
import type { ChatModule } from './module.types.js';
import { contactMergeModule } from './modules/contact-merge/contact-merge.module.js';
import { labelsModule } from './modules/labels/labels.module.js';
import { cannedResponsesModule } from './modules/canned-responses/canned-responses.module.js';
import { campaignsModule } from './modules/campaigns/campaigns.module.js';
import { pipelinesModule } from './modules/pipelines/pipelines.module.js';
import { helpCenterModule } from './modules/help-center/help-center.module.js';
import { customAttributesModule } from './modules/custom-attributes/custom-attributes.module.js';
import { customFiltersModule } from './modules/custom-filters/custom-filters.module.js';
import { integrationsModule } from './modules/integrations/integrations.module.js';
import { leadScoringModule } from './modules/lead-scoring/lead-scoring.module.js';
import { invitationsModule } from './modules/invitations/invitations.module.js';
import { reportsModule } from './modules/reports/reports.module.js';
import { slaModule } from './modules/sla/sla.module.js';
import { pipelineAutomationsModule } from './modules/pipeline-automations/pipeline-automations.module.js';
import { pipelineAnalyticsModule } from './modules/pipeline-analytics/pipeline-analytics.module.js';

/**
 * Every module of the conversation service, in dependency order. Adding a module is its folder
 * (routes, services, listeners, jobs, migrations, declared in its `<name>.module.ts`) and one line here.
 */
export const chatModules: readonly ChatModule[] = [
  chatCoreModule,
  labelsModule,
  contactMergeModule,
  cannedResponsesModule,
  campaignsModule,
  pipelinesModule,
  helpCenterModule,
  customAttributesModule,
  customFiltersModule,
  integrationsModule,
  leadScoringModule,
  invitationsModule,
  reportsModule,
  slaModule,
  pipelineAutomationsModule,
  pipelineAnalyticsModule,
];

/** What the modules declare together (their webhook and realtime events). */
export const chatDeclared = declaredBy<ChatEventName>(chatModules);

/** Every migration of the conversation service, in order. */
export const chatMigrations = collectMigrations(chatModules);

/** The container of the conversation service's services. */
export const createChatServices = (deps: ChatDeps): ChatServices => buildServices(deps, chatModules);
