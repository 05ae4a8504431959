import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpError, conflict, forbidden, invalidField, notFound, unauthorized } from '../../../core/http/errors.js';
import type { Language } from '../../../core/i18n/language.js';
import type { FinanceContext, FinanceDeps, Trx } from '../../context.js';
import type { User } from '../../db/schema.js';
import type { AccountsService, Page } from '../accounts/accounts.service.js';
import { rule, type RateLimitService } from '../rate-limit/rate-limit.service.js';
import { INVALID_REFRESH_TOKEN, type SessionsService, type TokenPair } from '../sessions/sessions.service.js';
import { normalizeEmail, type UsersService } from '../users/users.service.js';
import type { SessionView } from './auth.presenter.js';
import type { LoginBody, RegisterBody, SetupBody } from './auth.schema.js';

/** Constant-time comparison that does not reveal the length of the expected value either. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (v: string) => createHash('sha256').update(v, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function requireName(field: string, value: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw invalidField(field, 'must not be blank');
  return trimmed;
}

/** What registration asks of e-mail verification (modules/email-verification): the first link. */
export interface RegistrationVerification {
  onRegistered(trx: Trx, user: User, language: Language): Promise<void>;
}

/** First-user setup, registration, login, token refresh, the profile and account switching. */
export class AuthService {
  private verification: RegistrationVerification | null = null;

  constructor(
    private readonly deps: FinanceDeps,
    private readonly users: UsersService,
    private readonly accounts: AccountsService,
    private readonly sessions: SessionsService,
    private readonly rateLimits: RateLimitService,
  ) {}

  async needsSetup(): Promise<{ needsSetup: boolean; requiresSetupToken: boolean }> {
    const needsSetup = !(await this.users.anyExists());
    return { needsSetup, requiresSetupToken: needsSetup && this.deps.config.finance.setupToken !== null };
  }

  /** Creates the SuperAdmin and their account, once: afterwards 409. */
  async setup(body: SetupBody, headerToken: string | undefined, ip: string): Promise<SessionView> {
    const fullName = requireName('fullName', body.fullName);
    const accountName = body.companyName === undefined ? fullName : requireName('companyName', body.companyName);
    await this.rateLimits.consume([rule('setupPerIp', ip)]);
    if (await this.users.anyExists()) throw conflict('The service is already set up');
    const expected = this.deps.config.finance.setupToken;
    if (expected !== null) {
      const given = body.setupToken ?? headerToken;
      if (given === undefined)
        throw new HttpError(401, 'setup_token_required', 'A setup token is required (setupToken or X-Setup-Token)');
      if (!sameSecret(given, expected)) throw new HttpError(403, 'invalid_setup_token', 'The setup token is not valid');
    }
    const passwordHash = await this.users.hash(body.password);
    return this.deps.db.transaction().execute(async (trx) => {
      // Checked again inside the transaction; users_super_admin_uidx settles a race between two setups.
      if (await this.users.anyExists(trx)) throw conflict('The service is already set up');
      const user = await this.users.create(trx, { email: body.email, fullName, passwordHash, isSuperAdmin: true });
      const account = await this.accounts.create(trx, accountName);
      await this.accounts.addMember(trx, account.id, user.id, 'admin');
      const pair = await this.sessions.issue(trx, user, account.id, 'admin');
      return { pair, user, role: 'admin' as const, account };
    });
  }

  /**
   * A new user with a new account they administer. Refused until the service is set up, and always
   * when FINANCE_SIGNUP is `closed` (people then join by invitation; setup is not affected).
   */
  /** Called once by the module that verifies e-mail addresses (it is built after this one). */
  useEmailVerification(verification: RegistrationVerification): void {
    this.verification = verification;
  }

  async register(body: RegisterBody, ip: string, language: Language = 'en'): Promise<SessionView> {
    if (this.deps.config.finance.signup === 'closed') {
      throw new HttpError(
        403,
        'signup_closed',
        'Self-registration is closed on this server; ask an administrator for an invitation',
      );
    }
    const fullName = requireName('fullName', body.fullName);
    const accountName = body.companyName === undefined ? fullName : requireName('companyName', body.companyName);
    await this.rateLimits.consume([rule('registerPerIp', ip)]);
    if (!(await this.users.anyExists())) {
      throw new HttpError(
        409,
        'setup_required',
        'The service is not set up yet: create the first user with POST /api/auth/setup',
      );
    }
    if (await this.users.findByEmail(body.email)) {
      throw conflict('A user with this e-mail already exists', [{ field: 'email', message: 'is already registered' }]);
    }
    const passwordHash = await this.users.hash(body.password);
    return this.deps.db.transaction().execute(async (trx) => {
      const user = await this.users.create(trx, { email: body.email, fullName, passwordHash });
      const account = await this.accounts.create(trx, accountName);
      await this.accounts.addMember(trx, account.id, user.id, 'admin');
      // The link that verifies the address, with the user or not at all.
      await this.verification?.onRegistered(trx, user, language);
      const pair = await this.sessions.issue(trx, user, account.id, 'admin');
      return { pair, user, role: 'admin' as const, account };
    });
  }

  /** Signs in to the user's oldest membership (switch-account moves to another). */
  async login(body: LoginBody, ip: string): Promise<SessionView> {
    const email = normalizeEmail(body.email);
    await this.rateLimits.consume([rule('loginPerIp', ip), rule('loginPerEmail', email)]);
    const user = await this.users.findByEmail(email);
    if (!(await this.users.checkPassword(user, body.password)) || !user) {
      throw new HttpError(401, 'invalid_credentials', 'Invalid e-mail or password');
    }
    const membership = await this.accounts.firstMembership(user.id);
    if (!membership) throw forbidden('This user does not belong to any account');
    const pair = await this.deps.db
      .transaction()
      .execute((trx) => this.sessions.issue(trx, user, membership.account_id, membership.role));
    return { pair, user, role: membership.role, account: { id: membership.account_id, name: membership.account_name } };
  }

  /** Rotates a refresh token. Reuse of a used one revokes its family (committed) and answers 401. */
  async refresh(refreshToken: string): Promise<TokenPair> {
    const outcome = await this.deps.db.transaction().execute(async (trx) => {
      const claimed = await this.sessions.claim(trx, refreshToken);
      if (claimed.reused) return null;
      const user = await this.users.get(claimed.userId, trx);
      const membership = user ? await this.accounts.membership(claimed.accountId, claimed.userId, trx) : undefined;
      if (!user || !membership) {
        await this.sessions.revokeFamily(trx, claimed.familyId);
        return null;
      }
      return this.sessions.issue(trx, user, claimed.accountId, membership.role, claimed.familyId);
    });
    if (!outcome) throw unauthorized(INVALID_REFRESH_TOKEN);
    return outcome;
  }

  async me(ctx: FinanceContext) {
    const [user, membership] = await Promise.all([
      this.users.get(ctx.userId),
      this.accounts.membership(ctx.accountId, ctx.userId),
    ]);
    if (!user || !membership) throw unauthorized();
    return { user, role: membership.role, account: { id: membership.account_id, name: membership.account_name } };
  }

  accountsOf(ctx: FinanceContext, page: Page) {
    return this.accounts.membershipsOf(ctx.userId, page);
  }

  /** New tokens (a new family) for another account of the user; 404 when not a member. */
  async switchAccount(ctx: FinanceContext, accountId: number): Promise<SessionView> {
    const [user, membership] = await Promise.all([
      this.users.get(ctx.userId),
      this.accounts.membership(accountId, ctx.userId),
    ]);
    if (!membership) throw notFound('Account');
    if (!user) throw unauthorized();
    const pair = await this.deps.db
      .transaction()
      .execute((trx) => this.sessions.issue(trx, user, accountId, membership.role));
    return { pair, user, role: membership.role, account: { id: accountId, name: membership.account_name } };
  }
}
