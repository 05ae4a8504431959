import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../../core/db/migrator.js';
import { openTestDatabase, type TestDatabase } from '../../../../test/helpers/test-app.js';
import type { ChatDatabase } from '../schema.js';
import { chatMigrations } from '../../modules.js';

/** 0007 on a database that already holds inboxes and contact inboxes (an upgrade, on both dialects). */

let database: TestDatabase<ChatDatabase>;

beforeAll(async () => {
  database = await openTestDatabase<ChatDatabase>('migr0007');
});
afterAll(async () => {
  await database.close();
});

describe('migration 0007_inbox_hmac', () => {
  it('gives every existing inbox its own random hmac_token, hmac_mandatory off, and contact inboxes unverified', async () => {
    const names = Object.keys(chatMigrations);
    const upTo0006 = Object.fromEntries(
      names.slice(0, names.indexOf('0007_inbox_hmac')).map((n) => [n, chatMigrations[n]]),
    );
    await migrateToLatest(database.db, database.dialect, upTo0006);

    // Rows written before the upgrade (the old columns only), through an untyped handle.
    const db = database.db as unknown as Kysely<any>;
    const now = Date.now();
    const account = await db
      .insertInto('accounts')
      .values({ name: 'Old', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const inboxIds: number[] = [];
    for (const identifier of ['old-a', 'old-b', 'old-c']) {
      const row = await db
        .insertInto('inboxes')
        .values({
          account_id: account.id,
          name: identifier,
          channel_type: 'Channel::Api',
          identifier,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      inboxIds.push(Number(row.id));
    }
    const contact = await db
      .insertInto('contacts')
      .values({ account_id: account.id, name: 'Old contact', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('contact_inboxes')
      .values({
        account_id: account.id,
        contact_id: contact.id,
        inbox_id: inboxIds[0],
        source_id: 'old-source',
        pubsub_token: 'old-pubsub',
        created_at: now,
      })
      .execute();

    await migrateToLatest(database.db, database.dialect, chatMigrations);

    const inboxes = await database.db
      .selectFrom('inboxes')
      .select(['id', 'hmac_token', 'hmac_mandatory'])
      .orderBy('id')
      .execute();
    expect(inboxes.map((i) => Number(i.id))).toEqual(inboxIds);
    for (const inbox of inboxes) {
      expect(inbox.hmac_token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(inbox.hmac_mandatory).toBe(0);
    }
    expect(new Set(inboxes.map((i) => i.hmac_token)).size).toBe(3);
    const contactInboxes = await database.db.selectFrom('contact_inboxes').select('hmac_verified').execute();
    expect(contactInboxes).toEqual([{ hmac_verified: 0 }]);
  });
});
