import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DialectName } from '../core/db/database.js';
import type { FileStore } from '../core/storage/file-store.js';
import type { AccountRole, AgentBot, ChatDatabase, User } from './db/schema.js';

/** What every chat service gets: the database, its dialect, the configuration, the file store. */
export interface ChatDeps {
  readonly db: Kysely<ChatDatabase>;
  readonly dialect: DialectName;
  readonly config: Config;
  /** Uploaded files under DATA_DIR/uploads; rows point at them by storage key. */
  readonly fileStore: FileStore;
}

/** Executor accepted by repositories: the root handle or an open transaction. */
export type Q = Kysely<ChatDatabase>;

export type Actor =
  | { readonly type: 'user'; readonly user: User }
  | { readonly type: 'bot'; readonly bot: AgentBot }
  | { readonly type: 'platform'; readonly platformAppId: number };

/**
 * The context of a request on account data: which account (from the path alone) and who acts
 * in it with which role. Services take it as their first argument and scope every query by it.
 */
export interface AccountContext {
  readonly accountId: number;
  readonly actor: Actor;
  /** The membership role for users; 'bot' for agent bots. */
  readonly role: AccountRole | 'bot';
  /** The acting user's id, or null for a bot. */
  readonly userId: number | null;
}

export const isAdmin = (ctx: AccountContext) => ctx.role === 'administrator';
