import type { ChatDeps } from './context.js';
import { AccountsService } from './modules/accounts/accounts.service.js';
import { InboxesService } from './modules/inboxes/inboxes.service.js';
import { ProfileService } from './modules/profile/profile.service.js';
import { UsersService } from './modules/users/users.service.js';
import { PlatformService } from './platform/platform.service.js';

/**
 * The composition root: builds every service of the conversation service once, in dependency
 * order. Routes receive this object; services receive the services they call.
 */
export function createChatServices(deps: ChatDeps) {
  const users = new UsersService(deps);
  const accounts = new AccountsService(deps);
  const platform = new PlatformService(deps, users);
  const profile = new ProfileService(deps, users, platform);
  const inboxes = new InboxesService(deps);
  return { users, accounts, platform, profile, inboxes };
}

export type ChatServices = ReturnType<typeof createChatServices>;
