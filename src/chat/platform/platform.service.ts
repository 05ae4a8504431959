import { conflict, HttpError, notFound } from '../../core/http/errors.js';
import { randomToken } from '../../core/security/tokens.js';
import { issueAccessToken, revokeAccessTokens } from '../auth/access-tokens.js';
import { issueLoginToken } from '../auth/login-tokens.js';
import type { ChatDeps, Q } from '../context.js';
import type { Updateable } from 'kysely';
import type { Account, AccountRole, AccountsTable, User } from '../db/schema.js';
import type { AccountsService } from '../modules/accounts/accounts.service.js';
import type { AttachmentFilesService } from '../modules/attachments-files/attachments-files.service.js';
import type { AgentBotsService } from '../modules/agent-bots/agent-bots.service.js';
import type { AgentBotBody, AgentBotPatch } from '../modules/agent-bots/agent-bots.schema.js';
import type { UsersService } from '../modules/users/users.service.js';
import { grantUnheldToApp } from './installation-app.migration.js';
import * as repo from './platform.repository.js';
import type { AccountBody, AccountPatch, UserBody, UserPatch } from './platform.schema.js';

/**
 * A 404 of the platform interface says why: an app sees only what it created, so an object of
 * another app answers as one that does not exist (the same words, whether it exists or not).
 */
const NOT_THIS_APPS = {
  Account:
    "Account not found for this platform app: an app manages only the accounts it created (those made with cli.js belong to the installation's first platform app)",
  User: "User not found for this platform app: an app manages only the users it created (those made with cli.js belong to the installation's first platform app)",
  'Agent bot':
    "Agent bot not found for this platform app: an app manages only the agent bots it created (those made with cli.js belong to the installation's first platform app)",
} as const;
const notThisApps = (what: keyof typeof NOT_THIS_APPS) => new HttpError(404, 'not_found', NOT_THIS_APPS[what]);

/**
 * The platform interface: an operator's app creates accounts and users and links them. An app
 * manages only what it created (its "permissibles"); anything else is "not found".
 */
export class PlatformService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly users: UsersService,
    private readonly accounts: AccountsService,
    private readonly agentBots: AgentBotsService,
    private readonly attachmentFiles: AttachmentFilesService,
  ) {}

  private async ownedAccount(q: Q, appId: number, accountId: number): Promise<Account> {
    const account = (await repo.isGranted(q, appId, 'Account', accountId))
      ? await this.accounts.find(q, accountId)
      : undefined;
    if (!account) throw notThisApps('Account');
    return account;
  }

  private async ownedUser(q: Q, appId: number, userId: number): Promise<User> {
    const user = (await repo.isGranted(q, appId, 'User', userId)) ? await this.users.find(q, userId) : undefined;
    if (!user) throw notThisApps('User');
    return user;
  }

  createAccount(appId: number, body: AccountBody): Promise<Account> {
    return this.deps.db.transaction().execute(async (trx) => {
      const now = Date.now();
      const account = await this.accounts.create(trx, {
        name: body.name,
        locale: body.locale ?? 'en',
        domain: body.domain ?? null,
        support_email: body.support_email ?? null,
        status: body.status ?? 'active',
        auto_resolve_duration: body.auto_resolve_duration ?? null,
        custom_attributes: JSON.stringify(body.custom_attributes ?? {}),
        plan: body.plan ?? this.deps.config.chat.defaultAccountPlan,
        features: JSON.stringify(body.features ?? {}),
        created_at: now,
        updated_at: now,
      });
      await repo.grant(trx, appId, 'Account', account.id);
      return account;
    });
  }

  /**
   * The app the command line acts as: the installation's first (lowest id). When there is none yet
   * (the command line runs before the first start), it is made here with a token, returned once,
   * and given whatever no app holds.
   */
  installationApp(): Promise<{ id: number; token?: string }> {
    return this.deps.db.transaction().execute(async (trx) => {
      const first = await repo.firstPlatformApp(trx);
      if (first) return { id: first.id };
      const app = await repo.insertPlatformApp(trx, 'Default platform app');
      const token = await issueAccessToken(trx, 'PlatformApp', app.id, randomToken(32));
      await grantUnheldToApp(trx, app.id);
      return { id: app.id, token };
    });
  }

  /**
   * Replaces the installation app's token (made with the app when there is none) and returns the
   * new one: the way back when the printed token is lost.
   */
  async rotateInstallationToken(): Promise<string> {
    const app = await this.installationApp();
    return this.deps.db.transaction().execute(async (trx) => {
      await revokeAccessTokens(trx, 'PlatformApp', app.id);
      return issueAccessToken(trx, 'PlatformApp', app.id, randomToken(32));
    });
  }

  /** Records that the app manages an account or user the command line made for it. */
  adopt(q: Q, appId: number, type: 'Account' | 'User', id: number): Promise<void> {
    return repo.grant(q, appId, type, id);
  }

  getAccount(appId: number, accountId: number): Promise<Account> {
    return this.ownedAccount(this.deps.db, appId, accountId);
  }

  updateAccount(appId: number, accountId: number, body: AccountPatch): Promise<Account> {
    return this.deps.db.transaction().execute(async (trx) => {
      const account = await this.ownedAccount(trx, appId, accountId);
      // The editable fields, picked one by one (never the id or the timestamps).
      const values: Updateable<AccountsTable> = { updated_at: Date.now() };
      if (body.name !== undefined) values.name = body.name;
      if (body.locale !== undefined) values.locale = body.locale;
      if (body.domain !== undefined) values.domain = body.domain;
      if (body.support_email !== undefined) values.support_email = body.support_email;
      if (body.status !== undefined) values.status = body.status;
      if (body.auto_resolve_duration !== undefined) values.auto_resolve_duration = body.auto_resolve_duration;
      if (body.plan !== undefined) values.plan = body.plan;
      if (body.custom_attributes !== undefined) values.custom_attributes = JSON.stringify(body.custom_attributes);
      if (body.features !== undefined) values.features = JSON.stringify(body.features);
      const updated = await this.accounts.update(trx, account.id, values);
      return updated ?? account;
    });
  }

  /** Removes the account and, through foreign keys, everything it owns; then its files. */
  async deleteAccount(appId: number, accountId: number): Promise<void> {
    const storageKeys = await this.deps.db.transaction().execute(async (trx) => {
      const account = await this.ownedAccount(trx, appId, accountId);
      const keys = await this.attachmentFiles.keysOfAccount(trx, account.id);
      await this.accounts.delete(trx, account.id);
      await repo.revokeAll(trx, 'Account', account.id);
      return keys;
    });
    await this.attachmentFiles.removeFiles(storageKeys);
  }

  async listAccountUsers(appId: number, accountId: number) {
    await this.ownedAccount(this.deps.db, appId, accountId);
    return this.accounts.members(this.deps.db, accountId);
  }

  addAccountUser(appId: number, accountId: number, userId: number, role: AccountRole) {
    return this.deps.db.transaction().execute(async (trx) => {
      await this.ownedAccount(trx, appId, accountId);
      await this.ownedUser(trx, appId, userId);
      return this.accounts.addMember(trx, accountId, userId, role);
    });
  }

  async removeAccountUser(appId: number, accountId: number, userId: number): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      await this.ownedAccount(trx, appId, accountId);
      const removed = await this.accounts.removeMember(trx, accountId, userId);
      if (!removed) throw notFound('Account user');
    });
  }

  /**
   * Creates a user. An e-mail this app already created answers that user (a retried create is
   * harmless); any other existing e-mail is a 409: an app never obtains, or gets to manage, a user
   * it did not create (Chatwoot hands such a user, with its access token, to any platform app).
   */
  createUser(appId: number, body: UserBody): Promise<User> {
    return this.deps.db.transaction().execute(async (trx) => {
      const existing = await this.users.findByEmail(trx, body.email);
      if (existing) {
        if (await repo.isGranted(trx, appId, 'User', existing.id)) return existing;
        throw conflict('Email has already been taken', [{ field: 'email', message: 'has already been taken' }]);
      }
      const { user } = await this.users.findOrCreate(trx, body);
      await repo.grant(trx, appId, 'User', user.id);
      return user;
    });
  }

  getUser(appId: number, userId: number): Promise<User> {
    return this.ownedUser(this.deps.db, appId, userId);
  }

  updateUser(appId: number, userId: number, body: UserPatch): Promise<User> {
    return this.deps.db.transaction().execute(async (trx) => {
      const user = await this.ownedUser(trx, appId, userId);
      return this.users.update(trx, user, body);
    });
  }

  async deleteUser(appId: number, userId: number): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const user = await this.ownedUser(trx, appId, userId);
      await this.accounts.unassignUserEverywhere(trx, user.id);
      await this.users.delete(trx, user.id);
      await repo.revokeAll(trx, 'User', user.id);
    });
  }

  /** A single-use sign-in link valid for five minutes (auth/login-tokens.ts). */
  async loginLink(appId: number, userId: number): Promise<string> {
    const user = await this.ownedUser(this.deps.db, appId, userId);
    const token = await issueLoginToken(this.deps.db, user.id);
    const params = new URLSearchParams({ email: user.email, sso_auth_token: token });
    return `${this.deps.config.chat.publicUrl}/app/login?${params.toString()}`;
  }

  /** Global agent bots: an app sees and manages only the bots it created. */
  private async ownedBot(appId: number, botId: number) {
    if (!(await repo.isGranted(this.deps.db, appId, 'AgentBot', botId))) throw notThisApps('Agent bot');
    return this.agentBots.get(null, botId);
  }

  createBot(appId: number, body: AgentBotBody) {
    return this.agentBots.create(null, body, (q, bot) => repo.grant(q, appId, 'AgentBot', bot.id));
  }

  async listBots(appId: number) {
    return this.agentBots.listByIds(await repo.grantedIds(this.deps.db, appId, 'AgentBot'));
  }

  getBot(appId: number, botId: number) {
    return this.ownedBot(appId, botId);
  }

  async updateBot(appId: number, botId: number, body: AgentBotPatch) {
    await this.ownedBot(appId, botId);
    return this.agentBots.update(null, botId, body);
  }

  async deleteBot(appId: number, botId: number) {
    await this.ownedBot(appId, botId);
    await this.agentBots.delete(null, botId);
    await repo.revokeAll(this.deps.db, 'AgentBot', botId);
  }

  /** The user as the platform interface shows it: with token and memberships. */
  async present(user: User) {
    const [token, memberships] = await Promise.all([
      this.users.accessToken(this.deps.db, user.id),
      this.users.memberships(this.deps.db, user.id),
    ]);
    return { user, token: token ?? '', memberships };
  }
}
