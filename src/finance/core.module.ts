import { toIso } from '../core/time.js';
import { webhookFanOut } from '../core/webhooks/subscriptions.js';
import { createCoreFinanceServices, type FinanceServices } from './container.js';
import { coreFinanceMigrations } from './db/migrations/index.js';
import type { FinanceDatabase } from './db/schema.js';
import { FINANCE_WEBHOOK_EVENTS, type FinanceEvents } from './events.js';
import { dailyJob } from './jobs/daily-schedule.js';
import { notificationsListener } from './listeners/notifications.listener.js';
import type { FinanceModule } from './module.types.js';
import { coreFinanceRoutes } from './routes.js';

/**
 * The finance service as one module: identity, accounts and members, SMTP, finance data,
 * notifications, the accountant's report and webhooks; their listeners (webhook fan-out in the
 * finance envelope, payment notifications) and jobs (the daily job at 00:05 UTC, housekeeping of
 * expired identity rows every 10 minutes).
 */
export const financeCoreModule: FinanceModule = {
  name: 'core',
  migrations: coreFinanceMigrations,
  services: (deps, _built, declared) => createCoreFinanceServices(deps, declared) as Partial<FinanceServices>,
  routes: coreFinanceRoutes,
  events: { webhooks: FINANCE_WEBHOOK_EVENTS },
  subscribers: (services) => ({ webhook: (id) => services.webhooks.secretOf(id) }),
  listeners: ({ services, declared }) => [
    webhookFanOut<FinanceDatabase, FinanceEvents>({
      catalogue: declared.webhookEvents,
      // The envelope {id, event, created_at, account_id, data}: `id` is the outbox event id.
      body: (event) => ({
        id: String(event.id),
        ...event.snapshot,
        created_at: event.snapshot.created_at ?? toIso(event.createdAt),
      }),
    }),
    notificationsListener(
      services.notifications,
      {
        bill: (q, accountId, id) => services.bills.paidRecord(q, accountId, id),
        invoice: (q, accountId, id) => services.invoices.paidRecord(q, accountId, id),
      },
      (q, accountId) => services.accounts.languageOf(accountId, q),
    ),
  ],
  jobs: ({ services }) => [
    {
      name: 'finance.housekeeping',
      schedule: { every: 10 * 60_000 },
      async handle(_job, context) {
        const now = context.now;
        await services.rateLimits.purgeExpired(now);
        await services.passwords.purgeExpired(now);
        await services.invitations.purgeExpired(now);
        await services.sessions.purgeExpired(now);
      },
    },
    dailyJob(services.dailyAlerts),
  ],
};
