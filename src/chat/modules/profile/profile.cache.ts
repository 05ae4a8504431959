import { epochReader } from '../../../core/db/change-epoch.js';
import { EpochCache } from '../../../core/security/epoch-cache.js';
import type { Q } from '../../context.js';
import type { UsersService } from '../users/users.service.js';
import { MEMBERSHIP_EPOCH } from '../../auth/membership-epoch.migration.js';

/** One account of a user, as the profile lists it. */
export type Membership = Awaited<ReturnType<UsersService['memberships']>>[number];

/**
 * The accounts each user belongs to, cached per instance (decisions/0025): every read checks the
 * membership epoch first (auth/membership-epoch.migration.ts: triggers bump it on any change of a
 * membership or of an account's name, locale or status, whoever commits it), and a moved epoch
 * empties the cache. An authenticated request has read that epoch already, with the auth epoch, so
 * a cached profile costs no query of its own; before, the account list was most of its cost.
 * Cached lists are frozen: requests share them.
 */
export class MembershipCache {
  private readonly cache: EpochCache;

  constructor(
    db: Q,
    private readonly load: (userId: number) => Promise<Membership[]>,
    maxEntries = 10_000,
  ) {
    this.cache = new EpochCache(epochReader(db, MEMBERSHIP_EPOCH), maxEntries);
  }

  /** `epoch`: the membership epoch when the caller has just read it (the request's authentication). */
  async of(userId: number, epoch?: number): Promise<readonly Readonly<Membership>[]> {
    const view = epoch === undefined ? await this.cache.open() : this.cache.openAt(epoch);
    const found = await view.through(`m:${userId}`, async () =>
      Object.freeze((await this.load(userId)).map((m) => Object.freeze(m))),
    );
    return found ?? [];
  }
}
