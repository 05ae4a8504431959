import { RateLimiter } from '../core/security/rate-limit.js';
import { WebhookSubscriptions } from '../core/webhooks/subscriptions.js';
import type { Declared } from '../core/modules/module.js';
import type { ChatDeps } from './context.js';
import { AccountsService } from './modules/accounts/accounts.service.js';
import { AgentBotsService } from './modules/agent-bots/agent-bots.service.js';
import { AgentsService } from './modules/agents/agents.service.js';
import { AutomationRulesService } from './modules/automation-rules/automation-rules.service.js';
import { AttachmentFilesService } from './modules/attachments-files/attachments-files.service.js';
import { ContactLabelsService } from './modules/contacts/contact-labels.service.js';
import { ContactsService } from './modules/contacts/contacts.service.js';
import { ConversationChangesService } from './modules/conversations/conversation-changes.service.js';
import { ConversationsService } from './modules/conversations/conversations.service.js';
import { StartConversation } from './modules/conversations/start-conversation.js';
import { InboxMembersService } from './modules/inbox-members/inbox-members.service.js';
import { InboxesService } from './modules/inboxes/inboxes.service.js';
import { ConversationMessagesService } from './modules/messages/conversation-messages.service.js';
import { MessagesService } from './modules/messages/messages.service.js';
import { ProfileService } from './modules/profile/profile.service.js';
import { TeamsService } from './modules/teams/teams.service.js';
import { UsersService } from './modules/users/users.service.js';
import { PlatformService } from './platform/platform.service.js';
import { PublicService } from './public/public.service.js';

/**
 * The services of the conversation service's core module (chat/core.module.ts), built once, in
 * dependency order. Routes receive the container; services receive the services they call.
 */
export function createCoreChatServices(deps: ChatDeps, declared: Declared) {
  // Uploaded files (<DATA_DIR>/uploads): readMultipart writes them, attachment rows point at them.
  const fileStore = deps.fileStore;
  const attachmentFiles = new AttachmentFilesService(deps, fileStore);
  const users = new UsersService(deps);
  const accounts = new AccountsService(deps);
  const inboxes = new InboxesService(deps, attachmentFiles);
  const agentBots = new AgentBotsService(deps, inboxes);
  const platform = new PlatformService(deps, users, accounts, agentBots, attachmentFiles);
  // Sign-in rate limits, in the database so every instance shares them.
  const rateLimits = new RateLimiter(deps.db);
  const profile = new ProfileService(deps, users, rateLimits);
  const agents = new AgentsService(deps, users, accounts);
  const teams = new TeamsService(deps, agents);
  const inboxMembers = new InboxMembersService(deps, inboxes, agents);
  const contacts = new ContactsService(deps, accounts, inboxes, attachmentFiles);
  const contactLabels = new ContactLabelsService(deps, contacts);
  // Messages (records) sit below conversations (which show their last messages); the use cases
  // that need both (posting in a conversation, starting one) sit above them.
  const messages = new MessagesService(deps, attachmentFiles);
  const conversations = new ConversationsService(deps, { accounts, inboxes, agents, messages, contacts });
  const conversationChanges = new ConversationChangesService(deps, conversations, teams);
  const conversationMessages = new ConversationMessagesService(deps, conversations, messages, accounts, {
    onAttachmentsRemoved: (keys) => fileStore.remove(keys),
  });
  const startConversation = new StartConversation(deps, { inboxes, contacts, conversations, conversationMessages });
  // The public interface (widgets, third parties) acts through the services above as a contact.
  const publicApi = new PublicService(deps, {
    accounts,
    inboxes,
    contacts,
    conversations,
    conversationChanges,
    conversationMessages,
    messages,
    startConversation,
  });
  const webhooks = new WebhookSubscriptions({
    db: deps.db,
    allowedHosts: deps.config.webhooks.allowedHosts,
    // The events every module declares (core/modules/module.ts), and their other names.
    catalogue: declared.webhookEvents,
    aliases: declared.webhookAliases,
    eventsField: 'subscriptions',
  });
  const automationRules = new AutomationRulesService(deps, { agents, conversations });
  return {
    webhooks,
    automationRules,
    users,
    accounts,
    platform,
    rateLimits,
    profile,
    inboxes,
    agentBots,
    contacts,
    contactLabels,
    agents,
    teams,
    inboxMembers,
    fileStore,
    attachmentFiles,
    messages,
    conversations,
    conversationChanges,
    conversationMessages,
    startConversation,
    publicApi,
  };
}

type CoreChatServices = ReturnType<typeof createCoreChatServices>;

/**
 * The container of every module's services (chat/modules.ts builds it in list order). A module
 * adds its own by declaration merging:
 *   declare module '../../container.js' { interface ChatServices { pipelines: PipelinesService } }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the modules extend it
export interface ChatServices extends CoreChatServices {}
