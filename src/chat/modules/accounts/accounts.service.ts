import type { ChatDeps, Q } from '../../context.js';
import type { AccountRole } from '../../db/schema.js';
import * as repo from './accounts.repository.js';

/** Account records and memberships, for the platform interface and other modules. */
export class AccountsService {
  constructor(readonly deps: ChatDeps) {}

  find(q: Q, id: number) {
    return repo.findAccount(q, id);
  }

  nextConversationDisplayId(q: Q, accountId: number) {
    return repo.nextConversationDisplayId(q, accountId);
  }

  membership(q: Q, accountId: number, userId: number) {
    return repo.findAccountUser(q, accountId, userId);
  }

  members(q: Q, accountId: number) {
    return repo.listAccountUsers(q, accountId);
  }

  addMember(q: Q, accountId: number, userId: number, role: AccountRole) {
    return repo.upsertAccountUser(q, accountId, userId, role);
  }

  lock(q: Q, accountId: number) {
    return repo.lockAccount(q, accountId);
  }

  removeMember(q: Q, accountId: number, userId: number) {
    return repo.deleteAccountUser(q, accountId, userId);
  }
}
