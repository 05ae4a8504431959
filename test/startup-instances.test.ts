import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { chatMigrations } from '../src/chat/modules.js';
import { ensurePlatformApp } from '../src/chat/platform/platform.bootstrap.js';
import { dropPostgresSchema, openDatabase, type Database } from '../src/core/db/database.js';
import { ForeignDatabaseError, migrateToLatest, prepareDatabase } from '../src/core/db/migrator.js';
import { financeMigrations } from '../src/finance/modules.js';
import { TEST_DATABASE_URL, testDialect } from './helpers/test-app.js';

/**
 * Instances started at the same moment on one empty PostgreSQL database (a deployment's first
 * start, or a restart of all of them): each migrates and bootstraps exactly as server.ts does, on
 * its own connections. Every start must succeed, and the bootstrap rows exist once.
 */
const schemas: string[] = [];
afterAll(async () => {
  for (const schema of schemas) await dropPostgresSchema(TEST_DATABASE_URL, schema);
});

async function emptyDatabase(instances: number): Promise<Database<any>[]> {
  const schema = `t_startup_${randomBytes(6).toString('hex')}`;
  schemas.push(schema);
  // One after the other: the test's own schema is created by the first (CREATE SCHEMA IF NOT EXISTS races too).
  const opened: Database<any>[] = [];
  for (let i = 0; i < instances; i++) opened.push(await openDatabase<any>(TEST_DATABASE_URL, { schema, poolSize: 2 }));
  return opened;
}

const startChat = (database: Database<any>, token?: string) =>
  prepareDatabase(database.db, database.dialect, chatMigrations, (db) => ensurePlatformApp(db, token), {
    service: 'conversation',
  });

describe.skipIf(testDialect !== 'postgres')('instances starting together on one empty PostgreSQL database', () => {
  it('two conversation services with PLATFORM_TOKEN both start, and the token is registered once (8 trials)', async () => {
    for (let trial = 0; trial < 8; trial++) {
      const token = randomBytes(24).toString('base64url');
      const [a, b] = await emptyDatabase(2);
      try {
        const started = await Promise.allSettled([startChat(a, token), startChat(b, token)]);
        expect(
          started.map((s) => (s.status === 'rejected' ? String(s.reason) : s.status)),
          `trial ${trial}`,
        ).toEqual(['fulfilled', 'fulfilled']);
        const created = started.map((s) => (s as PromiseFulfilledResult<{ created: boolean }>).value.created);
        expect(created.sort()).toEqual([false, true]);
        const apps = await a.db.selectFrom('platform_apps').select('id').execute();
        expect(apps).toHaveLength(1);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    }
  }, 60_000);

  it('without PLATFORM_TOKEN, one platform app is made and one token printed (3 trials)', async () => {
    for (let trial = 0; trial < 3; trial++) {
      const [a, b] = await emptyDatabase(2);
      try {
        const started = await Promise.all([startChat(a), startChat(b)]);
        expect(started.filter((s) => s.token !== undefined)).toHaveLength(1);
        expect(await a.db.selectFrom('platform_apps').select('id').execute()).toHaveLength(1);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    }
  }, 60_000);

  it('two finance services migrate one empty database together (3 trials)', async () => {
    for (let trial = 0; trial < 3; trial++) {
      const [a, b] = await emptyDatabase(2);
      try {
        await Promise.all(
          [a, b].map((d) => migrateToLatest(d.db, d.dialect, financeMigrations, { service: 'finance' })),
        );
        const ran = await a.db.selectFrom('kysely_migration').select('name').execute();
        expect(ran).toHaveLength(Object.keys(financeMigrations).length);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    }
  }, 60_000);

  it('both services started together on one database: the second is told each needs its own (2 trials)', async () => {
    for (let trial = 0; trial < 2; trial++) {
      const [a, b] = await emptyDatabase(2);
      try {
        const started = await Promise.allSettled([
          startChat(a),
          migrateToLatest(b.db, b.dialect, financeMigrations, { service: 'finance' }),
        ]);
        expect(started.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
        const refusal = (started.find((s) => s.status === 'rejected') as PromiseRejectedResult).reason;
        expect(refusal).toBeInstanceOf(ForeignDatabaseError);
        expect(refusal.message).toMatch(
          /^The (finance|conversation) service's database holds another service's data .* Each service needs its own database \(or PostgreSQL schema\)/,
        );
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    }
  });
});
