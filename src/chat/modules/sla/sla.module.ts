import type { ChatModule } from '../../module.types.js';
import { AppliedSlaReads } from './applied-slas.reads.js';
import { AppliedSlasService, type SlaMissedRefs, type SlaMissedSnapshot } from './applied-slas.service.js';
import { slaListener } from './sla.listener.js';
import {
  migration0141Sla,
  migration0142InboxWorkingHours,
  type AppliedSlasTable,
  type SlaEventsTable,
  type SlaPoliciesTable,
  type SlaVersionsTable,
} from './sla.migration.js';
import { SlaPoliciesService } from './sla-policies.service.js';
import { slaRoutes } from './sla.routes.js';

declare module '../../container.js' {
  interface ChatServices {
    slaPolicies: SlaPoliciesService;
    appliedSlas: AppliedSlasService;
    appliedSlaReads: AppliedSlaReads;
  }
}
declare module '../../db/schema.js' {
  interface ChatDatabase {
    sla_policies: SlaPoliciesTable;
    applied_slas: AppliedSlasTable;
    sla_events: SlaEventsTable;
    sla_versions: SlaVersionsTable;
  }
  interface InboxesTable {
    /** Chatwoot's working hours, seven days as JSON (migration 0142); null: the default. */
    working_hours: string | null;
  }
}
declare module '../../events.js' {
  interface ChatEvents {
    sla_missed: { refs: SlaMissedRefs; snapshot: SlaMissedSnapshot };
  }
}

/** How often the scheduler looks for passed deadlines (any instance; the breach key keeps each one single). */
export const SLA_SWEEP_EVERY_MS = 30_000;

/**
 * SLA (Enterprise plan): policies, their application to conversations (PATCH sla_policy_id, the
 * automation action add_sla), deadlines in business hours, breaches recorded once, applied SLAs
 * with metrics and a CSV download.
 */
export const slaModule: ChatModule = {
  name: 'sla',
  migrations: { '0141_sla': migration0141Sla, '0142_inbox_working_hours': migration0142InboxWorkingHours },
  // SLA breaches (docs/spec/decisions.md §10, Enterprise plan).
  events: { webhooks: ['sla_missed'], realtime: ['sla_missed'] },
  services: (deps, built) => {
    const appliedSlas = new AppliedSlasService(deps, { accounts: built.accounts, inboxes: built.inboxes });
    const slaPolicies = new SlaPoliciesService(deps, built.accounts, appliedSlas);
    return { slaPolicies, appliedSlas, appliedSlaReads: new AppliedSlaReads(deps, slaPolicies) };
  },
  fills: (services) => ({ slaPolicies: services.appliedSlas }),
  routes: [slaRoutes],
  listeners: ({ services }) => [slaListener(services.appliedSlas)],
  jobs: ({ services }) => [
    {
      name: 'sla.check_deadlines',
      schedule: { every: SLA_SWEEP_EVERY_MS },
      handle: async (_job, context) => {
        await services.appliedSlas.sweep(context.now);
      },
    },
  ],
};
