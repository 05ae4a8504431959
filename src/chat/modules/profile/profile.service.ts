import { unauthorized } from '../../../core/http/errors.js';
import { verifyPasswordEvenIfMissing } from '../../../core/security/passwords.js';
import type { RateLimiter, RateRule } from '../../../core/security/rate-limit.js';
import type { ChatDeps } from '../../context.js';
import type { User } from '../../db/schema.js';
import type { UsersService } from '../users/users.service.js';
import { closeSession, openSession, type OpenedSession } from '../../auth/sessions.js';
import { consumeLoginToken } from '../../auth/login-tokens.js';
import { MembershipCache } from './profile.cache.js';

const MINUTE = 60_000;

/**
 * Sign-in attempts (password or SSO token, failed or not): 10 a minute per e-mail address, so one
 * account cannot be guessed at from many addresses, and 30 a minute per client address.
 */
export const SIGN_IN_LIMITS = {
  perEmail: { limit: 10, windowMs: MINUTE },
  perIp: { limit: 30, windowMs: MINUTE },
} as const;

const signInRules = (email: string, ip: string): RateRule[] => [
  { key: `chatSignInPerEmail:${email.trim().toLowerCase()}`, ...SIGN_IN_LIMITS.perEmail },
  { key: `chatSignInPerIp:${ip}`, ...SIGN_IN_LIMITS.perIp },
];

/** The calling user's own profile, and sign-in by password or single sign-on link. */
export class ProfileService {
  /** One per service container, so one per instance (each empties its own when the epoch moves). */
  private readonly memberships: MembershipCache;

  constructor(
    private readonly deps: ChatDeps,
    private readonly users: UsersService,
    private readonly rateLimits: RateLimiter,
  ) {
    this.memberships = new MembershipCache(deps.db, (userId) => users.memberships(deps.db, userId));
  }

  /**
   * `known`: what the request has read already: the user's access token (the request's own) and
   * the membership epoch (read with the auth epoch).
   */
  async profile(user: User, known: { token?: string; membershipEpoch?: number } = {}) {
    const [token, memberships] = await Promise.all([
      known.token ?? this.users.accessToken(this.deps.db, user.id),
      this.memberships.of(user.id, known.membershipEpoch),
    ]);
    return { user, token: token ?? '', memberships };
  }

  /**
   * Rate limited (429 with Retry-After) before anything is checked. An unknown e-mail costs the
   * same password verification as a wrong password, so timing does not tell them apart.
   */
  async signIn(input: { email: string; password?: string; sso_auth_token?: string }, ip: string) {
    await this.rateLimits.consume(signInRules(input.email, ip));
    let user: User | undefined;
    if (input.sso_auth_token) {
      // A sign-on link's token, once (auth/login-tokens.ts), for the e-mail the link names.
      const userId = await consumeLoginToken(this.deps.db, input.sso_auth_token);
      const found = userId === undefined ? undefined : await this.users.find(this.deps.db, userId);
      if (found && found.email === input.email.trim().toLowerCase()) user = found;
    } else if (input.password) {
      const found = await this.users.findByEmail(this.deps.db, input.email);
      if (await verifyPasswordEvenIfMissing(found?.password_hash, input.password)) user = found;
    }
    if (!user) throw unauthorized('Invalid login credentials');
    // A sign-in session for the clients that authenticate with devise-token headers (auth/sessions.ts).
    const session: OpenedSession = await openSession(this.deps.db, user.id);
    return { ...(await this.profile(user)), session };
  }

  /** Ends the sign-in session the request came with (DELETE /auth/sign_out); nothing to end for an access token. */
  async signOut(user: User, client: string | undefined): Promise<void> {
    if (client) await closeSession(this.deps.db, user.id, client);
  }
}
