import { webhookFanOut } from '../core/webhooks/subscriptions.js';
import { createCoreChatServices, type ChatServices } from './container.js';
import { migration0018AuthEpoch } from './auth/auth-epoch.migration.js';
import { migration0015MembershipEpoch } from './auth/membership-epoch.migration.js';
import { migration0012UserSessions } from './auth/sessions.migration.js';
import { coreChatMigrations } from './db/migrations/index.js';
import type { ChatDatabase } from './db/schema.js';
import type { ChatEvents } from './events.js';
import { agentBotListener } from './listeners/agent-bot.listener.js';
import { apiInboxWebhookListener } from './listeners/api-inbox-webhook.listener.js';
import { automationListener } from './listeners/automation.listener.js';
import type { ChatModule } from './module.types.js';
import type { AgentInvitations } from './modules/agents/agents.service.js';
import type { SlaPolicies } from './modules/conversations/conversations.service.js';
import type { CustomAttributeCriteria } from './filters/criteria.js';
import { AutomationEngine } from './modules/automation-rules/automation.engine.js';
import { migration0011ApiInboxSecrets } from './modules/inboxes/inboxes.secret.migration.js';
import { migration0161InstallationApp } from './platform/installation-app.migration.js';
import { migration0160PlatformTokenHash } from './platform/platform-token-hash.migration.js';
import { coreChatRoutes } from './routes.js';

/**
 * The conversation core as one module: accounts, users and the platform interface, inboxes,
 * contacts, conversations and messages, agents and teams, webhooks, agent bots, automation rules
 * and the public interface; their listeners (webhook fan-out, agent bots, API inbox webhooks,
 * automation rules) and their housekeeping job. Migrations 0011 (API inboxes' webhook secrets),
 * 0012 (sign-in sessions), 0015 (the change epoch of the profile's account list) and 0018 (the
 * change epoch of authentication's cache) extend the core's tables; 0160 keeps platform app
 * tokens as their SHA-256; 0161 gives the first platform app what no app holds.
 */
declare module './module.types.js' {
  interface ChatExtensionPoints {
    /** The custom attributes the conversation and contact filters may name (custom-attributes). */
    customAttributeCriteria: CustomAttributeCriteria;
    /** The SLA policies a conversation applies and shows (sla). */
    slaPolicies: SlaPolicies;
    /** Invitations for the agents an administrator adds (invitations). */
    agentInvitations: AgentInvitations;
  }
}

export const chatCoreModule: ChatModule = {
  name: 'core',
  migrations: {
    ...coreChatMigrations,
    '0011_api_inbox_secrets': migration0011ApiInboxSecrets,
    '0012_user_sessions': migration0012UserSessions,
    '0015_membership_epoch': migration0015MembershipEpoch,
    '0018_auth_epoch': migration0018AuthEpoch,
    '0160_platform_token_hash': migration0160PlatformTokenHash,
    '0161_installation_app': migration0161InstallationApp,
  },
  services: (deps, _built, declared) => createCoreChatServices(deps, declared) as Partial<ChatServices>,
  routes: coreChatRoutes,
  offers: {
    customAttributeCriteria: (services, criteria) => {
      services.conversations.useCustomAttributes(criteria);
      services.contacts.useCustomAttributes(criteria);
    },
    slaPolicies: (services, policies) => services.conversations.useSlaPolicies(policies),
    agentInvitations: (services, invitations) => services.agents.useInvitations(invitations),
  },
  events: {
    webhooks: [
      'conversation_created',
      'conversation_status_changed',
      'conversation_updated',
      'message_created',
      'message_updated',
      'contact_created',
      'contact_updated',
      'webwidget_triggered',
    ],
    realtime: [
      'conversation_created',
      'conversation_updated',
      'conversation_status_changed',
      'message_created',
      'message_updated',
      'contact_created',
      'contact_updated',
    ],
  },
  // Deliveries to account webhooks, agent bots and API inboxes are signed with their secrets.
  subscribers: (services) => ({
    webhook: (id) => services.webhooks.secretOf(id),
    agent_bot: (id) => services.agentBots.secretOf(id),
    api_inbox: (id) => services.inboxes.webhookSecretOf(id),
  }),
  listeners: ({ deps, services, logger, declared }) => [
    // Every module's webhook events reach the account webhooks subscribed to them.
    webhookFanOut<ChatDatabase, ChatEvents>({
      catalogue: declared.webhookEvents,
      aliases: declared.webhookAliases,
      body: (event) => event.snapshot,
    }),
    agentBotListener(),
    apiInboxWebhookListener(services.inboxes),
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
