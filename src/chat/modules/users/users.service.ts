import { conflict } from '../../../core/http/errors.js';
import { hashPassword } from '../../../core/security/passwords.js';
import { randomToken } from '../../../core/security/tokens.js';
import { accessTokenOf, issueAccessToken } from '../../auth/access-tokens.js';
import { closeAllSessions } from '../../auth/sessions.js';
import type { ChatDeps, Q } from '../../context.js';
import type { User } from '../../db/schema.js';
import * as repo from './users.repository.js';

export interface NewUserInput {
  name: string;
  email: string;
  password?: string;
  display_name?: string | null;
  custom_attributes?: Record<string, unknown>;
}

export interface UserUpdateInput {
  name?: string;
  display_name?: string | null;
  email?: string;
  password?: string;
  custom_attributes?: Record<string, unknown>;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * Users are global (one login, many accounts). Other modules create and find users through this
 * service, inside their own transaction (`q`).
 */
export class UsersService {
  constructor(readonly deps: ChatDeps) {}

  /** Finds a user by e-mail or creates one with a fresh access token. */
  async findOrCreate(q: Q, input: NewUserInput): Promise<{ user: User; created: boolean }> {
    const email = normalizeEmail(input.email);
    const existing = await repo.findUserByEmail(q, email);
    if (existing) return { user: existing, created: false };
    const now = Date.now();
    const user = await repo.insertUser(q, {
      name: input.name,
      display_name: input.display_name ?? null,
      email,
      password_hash: input.password ? await hashPassword(input.password) : null,
      avatar_url: null,
      custom_attributes: JSON.stringify(input.custom_attributes ?? {}),
      pubsub_token: randomToken(24),
      created_at: now,
      updated_at: now,
    });
    await issueAccessToken(q, 'User', user.id);
    return { user, created: true };
  }

  async update(q: Q, user: User, input: UserUpdateInput): Promise<User> {
    const values: Parameters<typeof repo.updateUser>[2] = { updated_at: Date.now() };
    if (input.name !== undefined) values.name = input.name;
    if (input.display_name !== undefined) values.display_name = input.display_name;
    if (input.custom_attributes !== undefined) values.custom_attributes = JSON.stringify(input.custom_attributes);
    if (input.password !== undefined) {
      values.password_hash = await hashPassword(input.password);
      // A new password signs every device out (its API access token stays).
      await closeAllSessions(q, user.id);
    }
    if (input.email !== undefined) {
      const email = normalizeEmail(input.email);
      const other = await repo.findUserByEmail(q, email);
      if (other && other.id !== user.id)
        throw conflict('Email has already been taken', [{ field: 'email', message: 'has already been taken' }]);
      values.email = email;
    }
    const updated = await repo.updateUser(q, user.id, values);
    return updated ?? user;
  }

  find(q: Q, id: number) {
    return repo.findUserById(q, id);
  }

  findByEmail(q: Q, email: string) {
    return repo.findUserByEmail(q, normalizeEmail(email));
  }

  delete(q: Q, id: number) {
    return repo.deleteUser(q, id);
  }

  /** Users (the members of one account when given) with their memberships, without a query per user. */
  async listWithMemberships(q: Q, accountId?: number) {
    const users = await repo.listUsers(q, accountId);
    const byUser = new Map<number, { account_id: number; role: string }[]>();
    // IN lists stay bounded: the memberships are read a thousand users at a time.
    for (let i = 0; i < users.length; i += 1000) {
      const ids = users.slice(i, i + 1000).map((u) => u.id);
      for (const m of await repo.membershipsOfUsers(q, ids))
        byUser.set(m.user_id, [...(byUser.get(m.user_id) ?? []), { account_id: m.account_id, role: m.role }]);
    }
    return users.map((u) => ({ ...u, memberships: byUser.get(u.id) ?? [] }));
  }

  memberships(q: Q, userId: number) {
    return repo.membershipsOf(q, userId);
  }

  accessToken(q: Q, userId: number) {
    return accessTokenOf(q, 'User', userId);
  }
}
