import type { ChatRoutes } from './module.types.js';
import { platformRoutes } from './platform/platform.routes.js';
import { profileRoutes } from './modules/profile/profile.routes.js';
import { inboxesRoutes } from './modules/inboxes/inboxes.routes.js';
import { agentsRoutes } from './modules/agents/agents.routes.js';
import { teamsRoutes } from './modules/teams/teams.routes.js';
import { inboxMembersRoutes } from './modules/inbox-members/inbox-members.routes.js';
import { agentBotsRoutes } from './modules/agent-bots/agent-bots.routes.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import { contactsRoutes } from './modules/contacts/contacts.routes.js';
import { conversationsRoutes } from './modules/conversations/conversations.routes.js';
import { messagesRoutes } from './modules/messages/messages.routes.js';
import { attachmentFilesRoutes } from './modules/attachments-files/attachments-files.routes.js';
import { automationRulesRoutes } from './modules/automation-rules/automation-rules.routes.js';

import { publicRoutes } from './public/public.routes.js';

/** The route plugins of the core module (chat/core.module.ts). Order does not matter. */
export const coreChatRoutes: ChatRoutes[] = [
  platformRoutes,
  profileRoutes,
  inboxesRoutes,
  contactsRoutes,
  agentsRoutes,
  teamsRoutes,
  inboxMembersRoutes,
  agentBotsRoutes,
  attachmentFilesRoutes,
  conversationsRoutes,
  messagesRoutes,
  webhooksRoutes,
  automationRulesRoutes,
  publicRoutes,
];
