import type { CableChannel } from '../../core/realtime/cable.hub.js';
import type { Q } from '../context.js';
import * as repo from './realtime.repository.js';
import { routeEvent, type AgentSubscription, type ChatSubscription } from './realtime.routing.js';

export interface RoomChannelOptions {
  /** How old an agent's role and inbox memberships may get before they are read again (ms). */
  membershipTtlMs?: number;
  now?: () => number;
}

const MAX_ID = 2_147_483_647;
const REFRESH_CHUNK = 500;

/** A positive integer id given as a number or a string of digits (clients send either). */
function idParam(value: unknown): number | null | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n > 0 && n <= MAX_ID ? n : null;
}

/**
 * Chatwoot's `RoomChannel`: the identifier carries a `pubsub_token` and, for users, the
 * `account_id` (and `user_id`, which must then be the token's user). The token is resolved once,
 * at subscribe time:
 * - a user's token (users.pubsub_token) with an account they are a member of: their role and inbox
 *   memberships, re-read for all the account's user subscriptions in one query when an event finds
 *   them older than `membershipTtlMs` (5 s);
 * - a contact inbox's token (contact_inboxes.pubsub_token): that contact inbox (an `account_id`, if
 *   given, must be its account).
 * Anything else is rejected.
 */
export function roomChannel(db: Q, options: RoomChannelOptions = {}): CableChannel<ChatSubscription> {
  const ttl = options.membershipTtlMs ?? 5000;
  const now = options.now ?? Date.now;

  return {
    name: 'RoomChannel',
    scopeOf: (subscription) => subscription.accountId,
    route: routeEvent,

    async subscribe(params) {
      const token = params.pubsub_token;
      if (typeof token !== 'string' || token.length === 0 || token.length > 256) return null;
      const accountId = idParam(params.account_id);
      const userId = idParam(params.user_id);
      if (accountId === null || userId === null) return null;

      const tokenUserId = await repo.userIdByPubsubToken(db, token);
      if (tokenUserId !== undefined) {
        if (accountId === undefined || (userId !== undefined && userId !== tokenUserId)) return null;
        const membership = (await repo.memberships(db, accountId, [tokenUserId])).get(tokenUserId);
        if (!membership) return null;
        return {
          kind: 'user',
          accountId,
          userId: tokenUserId,
          role: membership.role,
          inboxIds: new Set(membership.inboxIds),
          checkedAt: now(),
        };
      }
      // Chatwoot's widget may send the contact's id as user_id; only a user token is checked against it.
      const contactInbox = await repo.contactInboxByPubsubToken(db, token);
      if (!contactInbox || (accountId !== undefined && accountId !== contactInbox.account_id)) return null;
      return {
        kind: 'contact',
        accountId: contactInbox.account_id,
        contactInboxId: contactInbox.id,
        inboxId: contactInbox.inbox_id,
        sourceId: contactInbox.source_id,
      };
    },

    /** All subscriptions given share one account (the hub passes one scope at a time). */
    async refresh(subscriptions) {
      const users = subscriptions.filter((s): s is AgentSubscription => s.kind === 'user');
      const at = now();
      if (!users.some((s) => at - s.checkedAt >= ttl)) return;
      const accountId = users[0].accountId;
      const ids = [...new Set(users.map((s) => s.userId))];
      const found = new Map<number, repo.Membership>();
      for (let i = 0; i < ids.length; i += REFRESH_CHUNK) {
        for (const [id, m] of await repo.memberships(db, accountId, ids.slice(i, i + REFRESH_CHUNK))) found.set(id, m);
      }
      for (const s of users) {
        const membership = found.get(s.userId);
        s.role = membership?.role ?? null;
        s.inboxIds = new Set(membership?.inboxIds ?? []);
        s.checkedAt = at;
      }
    },
  };
}
