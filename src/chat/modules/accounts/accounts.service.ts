import type { ChatDeps, Q } from '../../context.js';
import type { Insertable, Updateable } from 'kysely';
import type { AccountRole, AccountsTable } from '../../db/schema.js';
import * as repo from './accounts.repository.js';

/** Account records and memberships, for the platform interface and other modules. */
export class AccountsService {
  constructor(readonly deps: ChatDeps) {}

  find(q: Q, id: number) {
    return repo.findAccount(q, id);
  }

  create(q: Q, values: Insertable<AccountsTable>) {
    return repo.insertAccount(q, values);
  }

  /** Every account with its member count (the command line lists them). */
  async listAll(q: Q) {
    return (await repo.listAccountsWithMembers(q)).map((a) => ({ ...a, members: Number(a.members ?? 0) }));
  }

  update(q: Q, id: number, values: Updateable<AccountsTable>) {
    return repo.updateAccount(q, id, values);
  }

  /** Removes the account and, through foreign keys, everything it owns. */
  delete(q: Q, id: number) {
    return repo.deleteAccount(q, id);
  }

  /** A user who leaves the service: unassigned from conversations and removed from every account. */
  unassignUserEverywhere(q: Q, userId: number) {
    return repo.unassignUserEverywhere(q, userId);
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
