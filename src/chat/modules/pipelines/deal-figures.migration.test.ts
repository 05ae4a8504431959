import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../../core/db/migrator.js';
import { openTestDatabase, type TestDatabase } from '../../../../test/helpers/test-app.js';
import type { ChatDatabase } from '../../db/schema.js';
import { chatMigrations } from '../../modules.js';

/**
 * 0151_timeline_facts and 0152_pipeline_owner_counts on a database that already holds cards and
 * timelines (an upgrade, on both dialects): entries written before get their facts from their JSON
 * and their card, the owner counts start equal to the cards, and the triggers keep them so for
 * every writer, a user's deletion (the owner set to NULL by the foreign key) included.
 */

let database: TestDatabase<ChatDatabase>;

beforeAll(async () => {
  database = await openTestDatabase<ChatDatabase>('migr0151');
});
afterAll(async () => {
  await database.close();
});

const NEW = ['0151_timeline_facts', '0152_pipeline_owner_counts'];

describe('migrations 0151_timeline_facts and 0152_pipeline_owner_counts', () => {
  it('fill the facts of existing entries and count the existing cards, then keep the counts by triggers', async () => {
    const before = Object.fromEntries(Object.entries(chatMigrations).filter(([name]) => !NEW.includes(name)));
    await migrateToLatest(database.db, database.dialect, before);
    const db = database.db as unknown as Kysely<any>;
    const now = 1_900_000_000_000;
    const id = async (table: string, values: Record<string, unknown>) =>
      Number((await db.insertInto(table).values(values).returning('id').executeTakeFirstOrThrow()).id);
    const account = await id('accounts', { name: 'Old', created_at: now, updated_at: now });
    const user = await id('users', {
      name: 'Ana',
      email: 'ana@example.test',
      pubsub_token: 'p-ana',
      created_at: now,
      updated_at: now,
    });
    const pipeline = await id('pipelines', { account_id: account, name: 'Sales', created_at: now, updated_at: now });
    const stage = (key: string, position: number) =>
      id('pipeline_stages', {
        account_id: account,
        pipeline_id: pipeline,
        key,
        name: key,
        position,
        created_at: now,
        updated_at: now,
      });
    const lead = await stage(`${pipeline}_lead`, 0);
    const won = await stage(`${pipeline}_won`, 1);
    const card = (title: string, values: Record<string, unknown>) =>
      id('pipeline_cards', {
        account_id: account,
        pipeline_id: pipeline,
        stage_id: lead,
        title,
        value_minor: 150_000,
        currency: 'BRL',
        status: 'open',
        position: 0,
        stage_version: 1,
        stage_entered_at: now,
        owner_id: user,
        created_at: now,
        updated_at: now,
        ...values,
      });
    const winner = await card('Winner', { stage_id: won, status: 'won', closed_at: now + 2 });
    const loser = await card('Loser', { status: 'lost', lost_reason: 'Price', closed_at: now + 3, owner_id: null });
    await card('Open', { value_minor: 2_000_000_250 });
    await card('Discarded', { deleted_at: now });
    const entry = (cardId: number, type: string, data: unknown, at: number) =>
      id('pipeline_card_timeline', {
        account_id: account,
        card_id: cardId,
        type,
        data: JSON.stringify(data),
        performer_type: 'system',
        created_at: at,
      });
    const created = await entry(winner, 'created', { stage: { id: `${pipeline}_lead`, name: 'lead' } }, now);
    const moved = await entry(
      winner,
      'stage_change',
      { from_stage: { id: `${pipeline}_lead` }, to_stage: { id: `${pipeline}_won` } },
      now + 1,
    );
    const wonEntry = await entry(winner, 'deal_won', { value: 1500, currency: 'BRL' }, now + 2);
    const lostEntry = await entry(loser, 'deal_lost', { lost_reason: 'Price' }, now + 3);
    const note = await entry(loser, 'note_added', { content: 'hi' }, now + 4);

    await migrateToLatest(database.db, database.dialect, chatMigrations);

    const facts = await db
      .selectFrom('pipeline_card_timeline')
      .select(['id', 'pipeline_id', 'stage_id', 'owner_id', 'value_minor', 'currency', 'reason'])
      .orderBy('id')
      .execute();
    const num = (v: unknown) => (v === null ? null : Number(v));
    expect(
      facts.map((f) => ({
        ...f,
        id: num(f.id),
        pipeline_id: num(f.pipeline_id),
        stage_id: num(f.stage_id),
        owner_id: num(f.owner_id),
        value_minor: num(f.value_minor),
      })),
    ).toEqual([
      {
        id: created,
        pipeline_id: pipeline,
        stage_id: lead,
        owner_id: user,
        value_minor: null,
        currency: null,
        reason: null,
      },
      {
        id: moved,
        pipeline_id: pipeline,
        stage_id: won,
        owner_id: user,
        value_minor: null,
        currency: null,
        reason: null,
      },
      {
        id: wonEntry,
        pipeline_id: pipeline,
        stage_id: null,
        owner_id: user,
        value_minor: 150_000,
        currency: 'BRL',
        reason: null,
      },
      {
        id: lostEntry,
        pipeline_id: pipeline,
        stage_id: null,
        owner_id: null,
        value_minor: 150_000,
        currency: 'BRL',
        reason: 'Price',
      },
      {
        id: note,
        pipeline_id: pipeline,
        stage_id: null,
        owner_id: null,
        value_minor: null,
        currency: null,
        reason: null,
      },
    ]);

    /** The kept counts, and the same counted from the live cards: always equal. */
    const counts = async () => {
      const kept = await db
        .selectFrom('pipeline_owner_counts')
        .select(['owner_key', 'status', 'cards', 'value_high', 'value_low'])
        .where('cards', '>', 0)
        .orderBy('owner_key')
        .orderBy('status')
        .execute();
      const counted = await sql<Record<string, unknown>>`select coalesce(owner_id, 0) as owner_key, status,
          count(*) as cards, sum(value_minor / 1000000) as value_high, sum(value_minor % 1000000) as value_low
        from pipeline_cards where deleted_at is null
        group by coalesce(owner_id, 0), status order by 1, 2`.execute(db);
      const plain = (rows: Record<string, unknown>[]) =>
        rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'status' ? v : Number(v)])));
      expect(plain(kept)).toEqual(plain(counted.rows));
      return plain(kept);
    };
    expect(await counts()).toEqual([
      { owner_key: 0, status: 'lost', cards: 1, value_high: 0, value_low: 150_000 },
      { owner_key: user, status: 'open', cards: 1, value_high: 2000, value_low: 250 },
      { owner_key: user, status: 'won', cards: 1, value_high: 0, value_low: 150_000 },
    ]);
    // Any writer: an update of value and status, a restore, a delete, and a user's deletion.
    await db
      .updateTable('pipeline_cards')
      .set({ value_minor: 999, status: 'won' })
      .where('title', '=', 'Open')
      .execute();
    await db.updateTable('pipeline_cards').set({ deleted_at: null }).where('title', '=', 'Discarded').execute();
    await counts();
    await db.deleteFrom('pipeline_cards').where('title', '=', 'Loser').execute();
    await db.deleteFrom('users').where('id', '=', user).execute();
    expect(await counts()).toEqual([
      { owner_key: 0, status: 'open', cards: 1, value_high: 0, value_low: 150_000 },
      { owner_key: 0, status: 'won', cards: 2, value_high: 0, value_low: 150_999 },
    ]);
  });
});
