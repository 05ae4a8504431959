import { epochsReader } from '../../core/db/change-epoch.js';
import { EpochCache, type EpochView } from '../../core/security/epoch-cache.js';
import type { Actor, Q } from '../context.js';
import type { AccountRole, AgentBot } from '../db/schema.js';
import { AUTH_EPOCH } from './auth-epoch.migration.js';
import { ownerOfToken } from './access-tokens.js';
import * as repo from './auth.repository.js';
import { MEMBERSHIP_EPOCH } from './membership-epoch.migration.js';

/** Actors the cache may hold: what an access token resolves to. */
export type TokenActor = Extract<Actor, { type: 'user' | 'bot' | 'platform' }>;

/**
 * What authentication resolves, cached per process (decisions/0025): token -> actor, (account,
 * user) -> role, (account, global bot) -> connected. Every request reads the auth epoch once
 * (auth-epoch.migration.ts: database triggers bump it on any change of tokens, users, bots,
 * memberships or bot connections, whoever makes it), and a moved epoch empties the cache first, so
 * a change committed anywhere takes effect at the next request of every instance. Sign-in sessions
 * are not cached (sessions.ts). Cached actors are frozen: requests share them.
 */
export class AuthCache {
  private readonly cache: EpochCache;
  private readonly readEpochs: () => Promise<(number | undefined)[]>;

  constructor(
    private readonly db: Q,
    maxEntries = 10_000,
  ) {
    // Opened at the auth epoch read below; the membership epoch comes along in the same
    // statement, for the profile's cache.
    this.cache = new EpochCache(undefined, maxEntries);
    this.readEpochs = epochsReader(db, [AUTH_EPOCH, MEMBERSHIP_EPOCH]);
  }

  /** The lookups of one request, as fresh as the database at the epoch read this makes. */
  async open(): Promise<AuthLookups> {
    const [auth, membership] = await this.readEpochs();
    return new AuthLookups(this.db, this.cache.openAt(auth), membership);
  }
}

export class AuthLookups {
  constructor(
    private readonly db: Q,
    private readonly view: EpochView,
    /** The membership epoch, read with the auth epoch (profile.cache.ts uses it). */
    readonly membershipEpoch: number | undefined,
  ) {}

  /** Who an access token belongs to, if anyone. */
  actor(token: string): Promise<TokenActor | undefined> {
    return this.view.through(`t:${token}`, () => resolveActor(this.db, token));
  }

  /** The user's role in the account; undefined when not a member. */
  role(accountId: number, userId: number): Promise<AccountRole | undefined> {
    return this.view.through(`r:${accountId}:${userId}`, () => repo.findMembershipRole(this.db, accountId, userId));
  }

  /** Whether the bot may act in the account: its own, or, for a global bot, one where it serves an inbox. */
  async botAllowed(accountId: number, bot: AgentBot): Promise<boolean> {
    if (bot.account_id !== null) return bot.account_id === accountId;
    const connected = await this.view.through(`b:${accountId}:${bot.id}`, async () =>
      (await repo.botConnectedToAccount(this.db, accountId, bot.id)) ? true : undefined,
    );
    return connected === true;
  }
}

async function resolveActor(db: Q, token: string): Promise<TokenActor | undefined> {
  const owner = await ownerOfToken(db, token);
  if (!owner) return undefined;
  switch (owner.owner_type) {
    case 'User': {
      const user = await repo.findUser(db, owner.owner_id);
      return user ? Object.freeze({ type: 'user', user: Object.freeze(user) }) : undefined;
    }
    case 'AgentBot': {
      const bot = await repo.findBot(db, owner.owner_id);
      return bot ? Object.freeze({ type: 'bot', bot: Object.freeze(bot) }) : undefined;
    }
    case 'PlatformApp':
      return Object.freeze({ type: 'platform', platformAppId: owner.owner_id });
    default:
      return undefined;
  }
}
