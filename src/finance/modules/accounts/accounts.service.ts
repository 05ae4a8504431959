import type { Language } from '../../../core/i18n/language.js';
import { notFound } from '../../../core/http/errors.js';
import type { FinanceContext, FinanceDeps, Q } from '../../context.js';
import type { Account, MembershipRole } from '../../db/schema.js';
import * as repo from './accounts.repository.js';

export type MembershipOfUser = Awaited<ReturnType<typeof repo.listMembershipsOfUser>>[number];
export type MemberRow = Awaited<ReturnType<typeof repo.listMembers>>[number];
export type MembershipWithAccount = NonNullable<Awaited<ReturnType<typeof repo.findMembership>>>;

export interface Page {
  page: number;
  limit: number;
}

const offsetOf = (p: Page) => ({ limit: p.limit, offset: (p.page - 1) * p.limit });

/** Accounts and who belongs to them with which role. */
export class AccountsService {
  constructor(private readonly deps: FinanceDeps) {}

  create(q: Q, name: string): Promise<Account> {
    return repo.insertAccount(q, name.trim(), Date.now());
  }

  get(id: number, q: Q = this.deps.db): Promise<Account | undefined> {
    return repo.findAccount(q, id);
  }

  /** The caller's current account; any other id is 404 (a member of it must switch to it first). */
  async show(ctx: FinanceContext, id: number): Promise<Account> {
    const account = id === ctx.accountId ? await repo.findAccount(this.deps.db, id) : undefined;
    if (!account) throw notFound('Account');
    return account;
  }

  /** Changes the current account's settings (administrators: the route checks the role). */
  async update(ctx: FinanceContext, id: number, changes: { locale?: Language }): Promise<Account> {
    const account = await this.show(ctx, id);
    if (changes.locale === undefined) return account;
    return repo.updateAccount(this.deps.db, id, { locale: changes.locale, updated_at: Date.now() });
  }

  /** The language the service writes in for the account (report e-mails, notifications). */
  async languageOf(id: number, q: Q = this.deps.db): Promise<Language> {
    return (await repo.findAccount(q, id))?.locale ?? 'en';
  }

  addMember(q: Q, accountId: number, userId: number, role: MembershipRole) {
    return repo.insertMembership(q, accountId, userId, role, Date.now());
  }

  /** The user's membership of the account (with the account name), or undefined. */
  membership(accountId: number, userId: number, q: Q = this.deps.db): Promise<MembershipWithAccount | undefined> {
    return repo.findMembership(q, accountId, userId);
  }

  /** Whether the user with this e-mail (already normalized) belongs to the account. */
  isMemberByEmail(accountId: number, email: string, q: Q = this.deps.db): Promise<boolean> {
    return repo.isMemberByEmail(q, accountId, email);
  }

  /** The user's oldest membership: the account a login lands in. */
  async firstMembership(userId: number, q: Q = this.deps.db): Promise<MembershipOfUser | undefined> {
    return (await repo.listMembershipsOfUser(q, userId, { limit: 1, offset: 0 }))[0];
  }

  async membershipsOf(
    userId: number,
    page: Page,
    q: Q = this.deps.db,
  ): Promise<{ rows: MembershipOfUser[]; total: number }> {
    const [rows, total] = await Promise.all([
      repo.listMembershipsOfUser(q, userId, offsetOf(page)),
      repo.countMembershipsOfUser(q, userId),
    ]);
    return { rows, total };
  }

  async members(accountId: number, page: Page, q: Q = this.deps.db): Promise<{ rows: MemberRow[]; total: number }> {
    const [rows, total] = await Promise.all([
      repo.listMembers(q, accountId, offsetOf(page)),
      repo.countMembers(q, accountId),
    ]);
    return { rows, total };
  }

  /** The admin memberships of an account, locked for the transaction on PostgreSQL. */
  lockAdmins(q: Q, accountId: number): Promise<number[]> {
    return repo.lockAdminMemberships(q, accountId, this.deps.dialect);
  }

  setRole(q: Q, accountId: number, userId: number, role: MembershipRole): Promise<void> {
    return repo.updateMembershipRole(q, accountId, userId, role);
  }

  removeMember(q: Q, accountId: number, userId: number): Promise<boolean> {
    return repo.deleteMembership(q, accountId, userId);
  }
}
