import type { Transaction, Generated } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../test/helpers/test-app.js';
import { withId } from '../db/schema-helpers.js';
import { OutboxDispatcher, listenerOf, type EventListener, type EventsDatabase } from './dispatcher.js';
import { addListenerRetries, createOutboxTable } from './outbox.migration.js';
import { eventRecorder } from './outbox.js';

/** A catalogue of one event, and a table where listeners leave their effects. */
type Events = { ping: { refs: { n: number }; snapshot: { text: string } } };
interface DB extends EventsDatabase {
  effects: { id: Generated<number>; event_id: number; listener: string };
}

const logger = pino({ level: 'silent' });
const emit = eventRecorder<Events>();
const listener = listenerOf<DB, Events>();
const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 23, 12);

let database: TestDatabase<DB>;
let second: TestDatabase<DB>;
let now = T0;

beforeAll(async () => {
  database = await openTestDatabase<DB>('events');
  await createOutboxTable(database.db, database.dialect);
  await addListenerRetries(database.db, database.dialect);
  await withId(database.db.schema.createTable('effects'), database.dialect)
    .addColumn('event_id', 'bigint', (c) => c.notNull())
    .addColumn('listener', 'text', (c) => c.notNull())
    .execute();
  // A listener that did its work twice for one event would break this index.
  await database.db.schema
    .createIndex('effects_once')
    .on('effects')
    .columns(['event_id', 'listener'])
    .unique()
    .execute();
  second = await openTestDatabase<DB>('events', database as TestDatabase<unknown>);
});
afterAll(async () => {
  await second.close();
  await database.close();
});
beforeEach(async () => {
  for (const table of ['effects', 'outbox_retries', 'outbox_events'] as const)
    await database.db.deleteFrom(table).execute();
  now = T0;
});

/** A listener that records its effect, unless `broken()` says it fails now. */
function recording(name: string, broken: () => boolean = () => false): EventListener<DB, Events> {
  return listener({
    name,
    events: ['ping'],
    async handle(trx: Transaction<DB>, event) {
      await trx.insertInto('effects').values({ event_id: event.id, listener: name }).execute();
      if (broken()) throw new Error(`${name} is broken`);
    },
  });
}

function dispatcher(listeners: EventListener<DB, Events>[], db = database, clock: () => number = () => now) {
  return new OutboxDispatcher<DB, Events>({
    db: db.db,
    dialect: db.dialect,
    logger,
    listeners,
    clock,
    retryDelaysMs: [MIN, 5 * MIN],
  });
}

async function ping(count = 1) {
  for (let n = 0; n < count; n++) {
    await database.db
      .transaction()
      .execute((trx) => emit(trx, { accountId: 1, name: 'ping', refs: { n }, snapshot: { text: `ping ${n}` } }));
  }
}

const effects = async (name?: string) => {
  let q = database.db.selectFrom('effects').select(['event_id', 'listener']);
  if (name) q = q.where('listener', '=', name);
  return q.execute();
};
const retries = () => database.db.selectFrom('outbox_retries').selectAll().execute();

describe('the outbox dispatcher', () => {
  it('hands listeners the typed refs and snapshot, once per event', async () => {
    const seen: unknown[] = [];
    const d = dispatcher([
      listener({
        name: 'typed',
        events: ['ping'],
        handle: async (_trx, e) => void seen.push([e.name, e.refs.n, e.snapshot.text]),
      }),
    ]);
    await ping(2);
    expect(await d.drain()).toBe(2);
    expect(await d.drain()).toBe(0);
    expect(seen).toEqual([
      ['ping', 0, 'ping 0'],
      ['ping', 1, 'ping 1'],
    ]);
  });

  it('one listener failing leaves the others their effects, and the event is not held up', async () => {
    const d = dispatcher([recording('webhooks'), recording('scoring', () => true), recording('automation')]);
    await ping();
    await d.drain();
    expect((await effects()).map((e) => e.listener).sort()).toEqual(['automation', 'webhooks']);
    const [event] = await database.db.selectFrom('outbox_events').selectAll().execute();
    expect(event.dispatched_at).toBe(T0);
    expect(await retries()).toMatchObject([
      {
        event_id: event.id,
        listener: 'scoring',
        status: 'pending',
        attempts: 1,
        next_attempt_at: T0 + MIN,
        last_error: 'scoring is broken',
      },
    ]);
  });

  it('retries a failed listener with backoff, alone, until it succeeds once fixed', async () => {
    let broken = true;
    const d = dispatcher([recording('webhooks'), recording('scoring', () => broken)]);
    await ping();
    await d.drain();
    now = T0 + MIN - 1;
    expect(await d.retryDue()).toBe(0);
    now = T0 + MIN;
    expect(await d.retryDue()).toBe(1);
    expect(await retries()).toMatchObject([{ status: 'pending', attempts: 2, next_attempt_at: T0 + 6 * MIN }]);
    broken = false;
    now = T0 + 6 * MIN;
    expect(await d.retryDue()).toBe(1);
    expect(await retries()).toMatchObject([
      { status: 'succeeded', attempts: 3, last_error: null, finished_at: T0 + 6 * MIN },
    ]);
    // Each listener's work exists once: the healthy listener was never run again.
    expect((await effects()).map((e) => e.listener).sort()).toEqual(['scoring', 'webhooks']);
    expect(await d.retryDue()).toBe(0);
  });

  it('gives up after its retries, keeping the error for operators', async () => {
    const d = dispatcher([recording('scoring', () => true)]);
    await ping();
    await d.drain();
    for (const at of [T0 + MIN, T0 + 6 * MIN]) {
      now = at;
      await d.retryDue();
    }
    now = T0 + 60 * MIN;
    expect(await d.retryDue()).toBe(0);
    expect(await retries()).toMatchObject([
      { status: 'failed', attempts: 3, last_error: 'scoring is broken', finished_at: T0 + 6 * MIN },
    ]);
    expect(await effects()).toEqual([]);
  });

  it('a crash in the middle of a dispatch leaves nothing of it: every listener gets the event again, once', async () => {
    await ping(3);
    // The clock is read once per event inside the transaction: dying on the second event's read
    // is a process that dies after the first listeners ran, before the commit.
    let reads = 0;
    const dying = dispatcher([recording('webhooks'), recording('automation')], database, () => {
      if (++reads === 2) throw new Error('killed');
      return now;
    });
    await expect(dying.dispatchBatch()).rejects.toThrow('killed');
    expect(await effects()).toEqual([]);
    expect(
      (await database.db.selectFrom('outbox_events').select('dispatched_at').execute()).every(
        (e) => e.dispatched_at === null,
      ),
    ).toBe(true);
    await dispatcher([recording('webhooks'), recording('automation')]).drain();
    expect(await effects('webhooks')).toHaveLength(3);
    expect(await effects('automation')).toHaveLength(3);
    expect(await retries()).toEqual([]);
  });

  it('a crash during a retry runs that listener again after its lease, and never the listeners that had finished', async () => {
    let broken = true;
    const listeners = () => [recording('webhooks'), recording('scoring', () => broken)];
    await ping();
    await dispatcher(listeners()).drain();
    broken = false;
    now = T0 + MIN;
    let reads = 0;
    const dying = dispatcher(listeners(), database, () => {
      // The claim reads the clock, then the retry's transaction does: die there.
      if (++reads === 2) throw new Error('killed');
      return now;
    });
    await expect(dying.retryDue()).rejects.toThrow('killed');
    expect(await retries()).toMatchObject([{ status: 'running', attempts: 2 }]);
    const healthy = dispatcher(listeners());
    expect(await healthy.retryDue()).toBe(0); // still leased to the dead worker
    now = T0 + 3 * MIN;
    expect(await healthy.retryDue()).toBe(1);
    expect(await retries()).toMatchObject([{ status: 'succeeded', attempts: 3 }]);
    expect((await effects()).map((e) => e.listener).sort()).toEqual(['scoring', 'webhooks']);
  });

  it('two instances on one database never run one listener twice for one event', async () => {
    await ping(60);
    const a = dispatcher([recording('webhooks'), recording('automation')]);
    const b = dispatcher([recording('webhooks'), recording('automation')], second);
    // On SQLite the instances contend for the write lock: a lost race is a failed pass, tried again.
    const drain = async (d: typeof a) => {
      for (let i = 0; i < 100; i++) {
        const left = await database.db
          .selectFrom('outbox_events')
          .select('id')
          .where('dispatched_at', 'is', null)
          .execute();
        if (left.length === 0) return;
        await d.dispatchBatch().catch(() => undefined);
      }
    };
    await Promise.all([drain(a), drain(b)]);
    expect(await effects('webhooks')).toHaveLength(60);
    expect(await effects('automation')).toHaveLength(60);
    expect(await retries()).toEqual([]);
  });
});
