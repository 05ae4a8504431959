import type { ChatModule } from '../../module.types.js';
import { reportingListener } from './reports.listener.js';
import {
  migration0140ReportingEvents,
  migration0143ReportingBusinessHours,
  type ReportingConversationsTable,
  type ReportingEventLabelsTable,
  type ReportingEventsTable,
  type ReportingRollupsTable,
} from './reports.migration.js';
import { reportsRoutes } from './reports.routes.js';
import { ReportsService } from './reports.service.js';

declare module '../../container.js' {
  interface ChatServices {
    reports: ReportsService;
  }
}
declare module '../../db/schema.js' {
  interface ChatDatabase {
    reporting_events: ReportingEventsTable;
    reporting_event_labels: ReportingEventLabelsTable;
    reporting_conversations: ReportingConversationsTable;
    reporting_rollups: ReportingRollupsTable;
  }
}

/**
 * Reports (`/api/v2/accounts/{id}/reports...`, Chatwoot's reporting events): a listener records
 * reporting events as things happen; reports read them with grouped, indexed queries.
 */
export const reportsModule: ChatModule = {
  name: 'reports',
  migrations: {
    '0140_reporting_events': migration0140ReportingEvents,
    '0143_reporting_business_hours': migration0143ReportingBusinessHours,
  },
  services: (deps, built) => ({
    reports: new ReportsService(deps, {
      agents: built.agents,
      inboxes: built.inboxes,
      teams: built.teams,
      labels: built.labels,
      conversations: built.conversations,
    }),
  }),
  routes: [reportsRoutes],
  listeners: ({ services }) => [reportingListener(services.reports)],
};
