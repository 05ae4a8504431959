import { bumpEpochOnChange, createChangeEpoch, type EpochSource } from '../../core/db/change-epoch.js';
import type { DialectName } from '../../core/db/database.js';
import type { PortableMigration } from '../../core/db/migrator.js';
import type { UntypedDb } from '../../core/db/untyped.js';

/** The change epoch of what authentication reads (auth.cache.ts). */
export const AUTH_EPOCH = 'auth_epoch';

/**
 * Every change authentication may have cached bumps the epoch: tokens, the user row (the profile
 * shows it from the actor), bots, a membership or its role (not availability, which changes
 * often), and which bot an inbox is connected to. Accounts are not read by authentication; deleting
 * one deletes its memberships, bots and inboxes, whose triggers fire. Sign-in sessions are not cached.
 */
export const AUTH_EPOCH_SOURCES: readonly EpochSource[] = [
  { table: 'access_tokens' },
  { table: 'users' },
  { table: 'agent_bots' },
  { table: 'account_users', columns: ['account_id', 'user_id', 'role'] },
  { table: 'inboxes', columns: ['agent_bot_id'] },
];

async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  await createChangeEpoch(db, dialect, AUTH_EPOCH);
  for (const source of AUTH_EPOCH_SOURCES) await bumpEpochOnChange(db, dialect, AUTH_EPOCH, source);
}

export const migration0018AuthEpoch: PortableMigration = { up };
