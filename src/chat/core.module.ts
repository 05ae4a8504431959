import { webhookFanOut } from '../core/webhooks/subscriptions.js';
import { createCoreChatServices, type ChatServices } from './container.js';
import { coreChatMigrations } from './db/migrations/index.js';
import type { ChatDatabase } from './db/schema.js';
import type { ChatEvents } from './events.js';
import { agentBotListener } from './listeners/agent-bot.listener.js';
import { automationListener } from './listeners/automation.listener.js';
import type { ChatModule } from './modules.js';
import { AutomationEngine } from './modules/automation-rules/automation.engine.js';
import { WEBHOOK_EVENTS } from './modules/webhooks/webhooks.schema.js';
import { coreChatRoutes } from './routes.js';

/**
 * The conversation core as one module: accounts, users and the platform interface, inboxes,
 * contacts, conversations and messages, agents and teams, webhooks, agent bots, automation rules
 * and the public interface; their listeners (webhook fan-out, agent bots, automation rules) and
 * their housekeeping job.
 */
export const chatCoreModule: ChatModule = {
  name: 'core',
  migrations: coreChatMigrations,
  services: (deps) => createCoreChatServices(deps) as Partial<ChatServices>,
  routes: coreChatRoutes,
  listeners: ({ deps, services, logger }) => [
    webhookFanOut<ChatDatabase, ChatEvents>({ catalogue: WEBHOOK_EVENTS, body: (event) => event.snapshot }),
    agentBotListener(),
    automationListener(new AutomationEngine(deps, services, logger)),
  ],
  jobs: ({ services }) => [
    {
      name: 'chat.rate_limit_housekeeping',
      schedule: { every: 10 * 60_000 },
      handle: async (_job, context) => void (await services.rateLimits.purgeExpired(context.now)),
    },
  ],
};
