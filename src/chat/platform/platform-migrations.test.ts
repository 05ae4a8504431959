import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../core/db/migrator.js';
import { sha256Hex } from '../../core/security/tokens.js';
import { openTestDatabase, type TestDatabase } from '../../../test/helpers/test-app.js';
import type { ChatDatabase } from '../db/schema.js';
import { chatMigrations } from '../modules.js';
import { ownerOfToken } from '../auth/access-tokens.js';

/**
 * 0160 (platform tokens kept as SHA-256) and 0161 (the first platform app holds what no app held)
 * on a database written before them, as an upgrade meets it, on both dialects.
 */
let database: TestDatabase<ChatDatabase>;
beforeAll(async () => {
  database = await openTestDatabase<ChatDatabase>('migr0160');
});
afterAll(async () => {
  await database.close();
});

describe('migrations 0160_platform_token_hash and 0161_installation_app', () => {
  it('hashes the stored platform token (which keeps working), leaves user tokens, and gives unheld accounts and users to the first app', async () => {
    const names = Object.keys(chatMigrations);
    const before = Object.fromEntries(
      names.slice(0, names.indexOf('0160_platform_token_hash')).map((n) => [n, chatMigrations[n]]),
    );
    await migrateToLatest(database.db, database.dialect, before);
    const db = database.db as unknown as Kysely<any>;
    const now = Date.now();
    const insert = (table: string, values: Record<string, unknown>) =>
      db.insertInto(table).values(values).returning('id').executeTakeFirstOrThrow();
    const first = await insert('platform_apps', { name: 'Default platform app', created_at: now });
    const second = await insert('platform_apps', { name: 'Other app', created_at: now });
    await insert('access_tokens', {
      owner_type: 'PlatformApp',
      owner_id: first.id,
      token: 'old-platform-token',
      created_at: now,
    });
    const byCli = await insert('accounts', { name: 'Made by the CLI', created_at: now, updated_at: now });
    const byOther = await insert('accounts', { name: 'Made by the other app', created_at: now, updated_at: now });
    await insert('platform_app_permissibles', {
      platform_app_id: second.id,
      permissible_type: 'Account',
      permissible_id: byOther.id,
      created_at: now,
    });
    const user = await insert('users', {
      name: 'Ana',
      email: 'ana@example.test',
      pubsub_token: 'pubsub-ana',
      created_at: now,
      updated_at: now,
    });
    await insert('access_tokens', { owner_type: 'User', owner_id: user.id, token: 'ana-user-token', created_at: now });

    await migrateToLatest(database.db, database.dialect, chatMigrations);

    const tokens = await db.selectFrom('access_tokens').select(['owner_type', 'token']).orderBy('id').execute();
    expect(tokens).toEqual([
      { owner_type: 'PlatformApp', token: sha256Hex('old-platform-token') },
      { owner_type: 'User', token: 'ana-user-token' },
    ]);
    expect(await ownerOfToken(database.db, 'old-platform-token')).toMatchObject({ owner_type: 'PlatformApp' });
    expect(await ownerOfToken(database.db, 'ana-user-token')).toMatchObject({ owner_type: 'User' });
    // The stored hash itself is no token.
    expect(await ownerOfToken(database.db, sha256Hex('old-platform-token'))).toBeUndefined();

    const held = await db
      .selectFrom('platform_app_permissibles')
      .select(['platform_app_id', 'permissible_type', 'permissible_id'])
      .orderBy('id')
      .execute();
    expect(held.map((h) => [Number(h.platform_app_id), h.permissible_type, Number(h.permissible_id)])).toEqual([
      [Number(second.id), 'Account', Number(byOther.id)],
      [Number(first.id), 'Account', Number(byCli.id)],
      [Number(first.id), 'User', Number(user.id)],
    ]);
  });
});
