import type { Insertable, Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { UsersTable } from '../../db/schema.js';

export async function insertUser(q: Q, values: Insertable<UsersTable>) {
  return q.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findUser(q: Q, id: number) {
  return q.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** `email` must already be lower-cased (users_email_uidx). */
export async function findUserByEmail(q: Q, email: string) {
  return q.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

/** Whether any user exists (the setup state). */
export async function anyUserExists(q: Q): Promise<boolean> {
  const row = await q.selectFrom('users').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function updateUser(q: Q, id: number, values: Updateable<UsersTable>) {
  return q.updateTable('users').set(values).where('id', '=', id).returningAll().executeTakeFirst();
}

/** Sets a new password hash and bumps the token version (earlier access tokens stop working). */
export async function replacePassword(
  q: Q,
  id: number,
  passwordHash: string,
  now: number,
  extra: Updateable<UsersTable> = {},
) {
  return q
    .updateTable('users')
    .set((eb) => ({
      ...extra,
      password_hash: passwordHash,
      token_version: eb('token_version', '+', 1),
      updated_at: now,
    }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}
