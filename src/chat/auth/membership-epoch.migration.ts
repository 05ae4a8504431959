import { bumpEpochOnChange, createChangeEpoch, type EpochSource } from '../../core/db/change-epoch.js';
import type { DialectName } from '../../core/db/database.js';
import type { PortableMigration } from '../../core/db/migrator.js';
import type { UntypedDb } from '../../core/db/untyped.js';

/**
 * The change epoch of the profile's account list (modules/profile/profile.cache.ts). Read with the
 * auth epoch, in the same statement (auth.cache.ts), so the profile costs no query of its own.
 */
export const MEMBERSHIP_EPOCH = 'membership_epoch';

/**
 * What the profile lists of each account a user belongs to: the membership (role, availability,
 * auto_offline; every column) and the account's name, locale and status. Other account columns
 * do not bump it. Deleting an account deletes its memberships, whose triggers fire. Kept apart
 * from the auth epoch, so that an availability change does not empty authentication's cache.
 */
export const MEMBERSHIP_EPOCH_SOURCES: readonly EpochSource[] = [
  { table: 'account_users' },
  { table: 'accounts', columns: ['name', 'locale', 'status'] },
];

async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  await createChangeEpoch(db, dialect, MEMBERSHIP_EPOCH);
  for (const source of MEMBERSHIP_EPOCH_SOURCES) await bumpEpochOnChange(db, dialect, MEMBERSHIP_EPOCH, source);
}

export const migration0015MembershipEpoch: PortableMigration = { up };
