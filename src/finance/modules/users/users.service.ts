import { hashPassword, verifyPasswordEvenIfMissing } from '../../../core/security/passwords.js';
import type { FinanceDeps, Q } from '../../context.js';
import type { User } from '../../db/schema.js';
import * as repo from './users.repository.js';

export interface NewUser {
  email: string;
  fullName: string;
  /** Already hashed (hash outside transactions: argon2id takes tens of milliseconds). */
  passwordHash: string | null;
  isSuperAdmin?: boolean;
  /** The address is known to reach the user (they followed a link sent to it). */
  emailVerified?: boolean;
}

/** E-mail addresses are compared and stored lower-cased and trimmed. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Users (identity, password). Membership of accounts lives in AccountsService. */
export class UsersService {
  constructor(private readonly deps: FinanceDeps) {}

  get(id: number, q: Q = this.deps.db): Promise<User | undefined> {
    return repo.findUser(q, id);
  }

  findByEmail(email: string, q: Q = this.deps.db): Promise<User | undefined> {
    return repo.findUserByEmail(q, normalizeEmail(email));
  }

  anyExists(q: Q = this.deps.db): Promise<boolean> {
    return repo.anyUserExists(q);
  }

  create(q: Q, user: NewUser): Promise<User> {
    const now = Date.now();
    return repo.insertUser(q, {
      email: normalizeEmail(user.email),
      full_name: user.fullName.trim(),
      password_hash: user.passwordHash,
      avatar_url: null,
      email_verified: user.emailVerified ? 1 : 0,
      is_super_admin: user.isSuperAdmin ? 1 : 0,
      token_version: 0,
      created_at: now,
      updated_at: now,
    });
  }

  /** New password: earlier access tokens fail from now on (token version bump). */
  replacePassword(q: Q, userId: number, passwordHash: string, options: { verifiedEmail?: boolean } = {}) {
    return repo.replacePassword(
      q,
      userId,
      passwordHash,
      Date.now(),
      options.verifiedEmail ? { email_verified: 1 } : {},
    );
  }

  /** The user followed a link e-mailed to their address. */
  async markEmailVerified(q: Q, userId: number): Promise<void> {
    await repo.updateUser(q, userId, { email_verified: 1, updated_at: Date.now() });
  }

  hash(password: string): Promise<string> {
    return hashPassword(password);
  }

  /**
   * Checks a password. For an unknown user (or one without a password) it still spends the time of
   * one verification, so the answer time does not reveal whether the e-mail is registered.
   */
  checkPassword(user: User | undefined, password: string): Promise<boolean> {
    return verifyPasswordEvenIfMissing(user?.password_hash, password);
  }
}
