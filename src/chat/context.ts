import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../config.js';
import type { DialectName } from '../core/db/database.js';
import type { FileStore } from '../core/storage/file-store.js';
import { forbidden } from '../core/http/errors.js';
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

/** An open transaction: what writing an event (and anything that must join a caller's transaction) requires. */
export type Trx = Transaction<ChatDatabase>;

export type Actor =
  | { readonly type: 'user'; readonly user: User }
  | { readonly type: 'bot'; readonly bot: AgentBot }
  | { readonly type: 'platform'; readonly platformAppId: number }
  /**
   * A contact acting through the public interface (src/chat/public): no credential, addressed by
   * an inbox identifier and its contact inbox's source_id. It sees only that inbox, that contact and
   * the conversations of that contact inbox.
   */
  | { readonly type: 'contact'; readonly contactId: number; readonly inboxId: number; readonly contactInboxId: number }
  /**
   * An automation rule applying its actions (src/chat/modules/automation-rules): administrator
   * powers in its account, but no user (userId null). Events it causes carry origin 'automation'.
   */
  | { readonly type: 'automation'; readonly ruleId: number }
  /**
   * Ponte itself, doing background work in an account (lead scoring's recalculations, SLA checks):
   * administrator powers there, no user. Its events carry no origin, so automation rules see them.
   */
  | { readonly type: 'system' };

/**
 * The context of a request on account data: which account (from the path alone) and who acts
 * in it with which role. Services take it as their first argument and scope every query by it.
 */
export interface AccountContext {
  readonly accountId: number;
  readonly actor: Actor;
  /** The membership role for users; 'bot' for agent bots; 'contact' for the public interface. */
  readonly role: AccountRole | 'bot' | 'contact';
  /** The acting user's id, or null for a bot, a contact or an automation rule. */
  readonly userId: number | null;
}

export const isAdmin = (ctx: AccountContext) => ctx.role === 'administrator';

/** The context of background work in an account: the system actor, with administrator powers. */
export const systemContext = (accountId: number): AccountContext => ({
  accountId,
  actor: { type: 'system' },
  role: 'administrator',
  userId: null,
});

/** The `origin` of the events a context causes: 'automation' for rule actions (rules skip those), else null. */
export const eventOrigin = (ctx: AccountContext) => (ctx.actor.type === 'automation' ? 'automation' : null);

/** The contact acting through the public interface, or null for agents, administrators and bots. */
export const contactActor = (ctx: AccountContext) => (ctx.actor.type === 'contact' ? ctx.actor : null);

/** Refuses a contact context on what only agents, administrators and bots may do (defence in depth). */
export function assertStaff(ctx: AccountContext): void {
  if (ctx.role === 'contact' || ctx.actor.type === 'contact') throw forbidden('Contacts may not do this');
}
