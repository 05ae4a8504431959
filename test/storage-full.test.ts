import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Metrics } from '../src/core/http/metrics.js';
import { StorageHealth } from '../src/core/http/storage-health.js';
import { newAccount, newConversation, type TestAccount } from './helpers/factories.js';
import { financeClient, newFinanceAccount } from './helpers/finance-factories.js';
import { client } from './helpers/http.js';
import {
  buildChatTestApp,
  buildFinanceTestApp,
  type ChatTestApp,
  type FinanceTestApp,
  type TestDatabase,
} from './helpers/test-app.js';

/**
 * A full storage (decisions §2, decisions/0034): writes answer 503 storage_full with Retry-After
 * and a sentence, /health stays 200 but says degraded, /metrics counts it, and once there is room
 * again everything works without a restart and nothing acknowledged is missing. On SQLite the
 * database is capped at its current size (PRAGMA max_page_count: SQLITE_FULL without a small
 * filesystem); on PostgreSQL a trigger makes the server raise its own disk_full (53100).
 */
async function fill(database: TestDatabase<unknown>, table: string): Promise<void> {
  if (database.dialect === 'sqlite') {
    const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(database.db);
    await sql.raw(`pragma max_page_count = ${rows[0].page_count}`).execute(database.db);
    return;
  }
  await sql
    .raw(
      `create or replace function test_disk_full() returns trigger language plpgsql as $$ begin ` +
        `raise exception 'could not extend file: No space left on device' using errcode = 'disk_full'; end $$; ` +
        `create trigger test_disk_full before insert on ${table} for each row execute function test_disk_full()`,
    )
    .execute(database.db);
}

async function free(database: TestDatabase<unknown>, table: string): Promise<void> {
  if (database.dialect === 'sqlite') await sql.raw('pragma max_page_count = 1073741823').execute(database.db);
  else await sql.raw(`drop trigger test_disk_full on ${table}`).execute(database.db);
}

/** Sends writes until one is refused (at most `bound`); returns what was acknowledged and the refusal. */
async function writeUntilRefused<T>(bound: number, write: () => Promise<{ status: number; body: T }>) {
  const acknowledged: T[] = [];
  for (let i = 0; i < bound; i++) {
    const res = await write();
    if (res.status >= 300) return { acknowledged, refusal: res as { status: number; body: any; headers?: any } };
    acknowledged.push(res.body);
  }
  throw new Error(`${bound} writes went through: the storage never filled`);
}

describe('a full storage, conversation service', () => {
  let t: ChatTestApp;
  let account: TestAccount;
  const metrics = new Metrics();
  beforeAll(async () => {
    t = await buildChatTestApp({ METRICS: 'on' }, { metrics });
    account = await newAccount(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 503 storage_full, says degraded on /health, counts it, and recovers without a restart', async () => {
    const conversation = await newConversation(t, account);
    const api = client(t.app, account.admin.token);
    const url = `${account.path}/conversations/${conversation.id}/messages`;
    const post = (i: number) => api.post(url, { content: `message ${i} ${'x'.repeat(4000)}` });
    const acknowledged: number[] = [];
    for (let i = 0; i < 5; i++) acknowledged.push((await post(i)).body.id);
    expect((await t.app.inject({ url: '/health' })).json()).toEqual({ status: 'ok' });

    await fill(t.database, 'messages');
    const { acknowledged: before, refusal } = await writeUntilRefused(200, () => post(acknowledged.length));
    acknowledged.push(...before.map((m: any) => m.id));
    expect(refusal.status).toBe(503);
    expect(refusal.body).toEqual({
      error: "The server's storage is full, so nothing was saved; try again later",
      code: 'storage_full',
    });
    expect(refusal.headers['retry-after']).toBe('60');
    // Refused in Brazilian Portuguese too, when asked.
    const pt = await t.app.inject({
      method: 'POST',
      url,
      headers: { api_access_token: account.admin.token, 'accept-language': 'pt-BR' },
      payload: { content: 'x'.repeat(4000) },
    });
    expect(pt.statusCode).toBe(503);
    expect(pt.json().error).toBe(
      'O armazenamento do servidor está cheio, então nada foi salvo; tente novamente mais tarde',
    );

    // Alive (a restart would not help), but not well; reads still work.
    const health = await t.app.inject({ url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'degraded', reasons: ['storage_full'] });
    expect((await api.get(url)).status).toBe(200);
    const scraped = (await t.app.inject({ url: '/metrics' })).body;
    const refused = Number(/^ponte_storage_full_total\{service="chat"\} (\d+)$/m.exec(scraped)?.[1]);
    expect(refused).toBeGreaterThanOrEqual(2);

    // Room again: the next write goes through and clears the state; nothing acknowledged is missing.
    await free(t.database, 'messages');
    const after = await post(acknowledged.length);
    expect(after.status).toBe(200);
    acknowledged.push(after.body.id);
    expect((await t.app.inject({ url: '/health' })).json()).toEqual({ status: 'ok' });
    const stored = await t.db.selectFrom('messages').select('id').where('id', 'in', acknowledged).execute();
    expect(stored).toHaveLength(acknowledged.length);
  });
});

describe('a full storage, finance service', () => {
  let f: FinanceTestApp;
  beforeAll(async () => {
    f = await buildFinanceTestApp();
  });
  afterAll(async () => {
    await f.close();
  });

  it('answers 503 storage_full in its envelope, and recovers without a restart', async () => {
    const account = await newFinanceAccount(f);
    const api = financeClient(f.app, account.admin.accessToken);
    let n = 0;
    const register = () =>
      api.post('/api/v1/webhooks', {
        url: `https://hooks.example.com/${++n}/${'p'.repeat(1500)}`,
        events: ['invoice.paid'],
      });
    await fill(f.database, 'webhooks');
    const { acknowledged, refusal } = await writeUntilRefused(300, register);
    expect(refusal.status).toBe(503);
    expect(refusal.body).toEqual({
      success: false,
      message: "The server's storage is full, so nothing was saved; try again later",
      error: { code: 'storage_full' },
    });
    expect(refusal.headers['retry-after']).toBe('60');
    expect((await f.app.inject({ url: '/health' })).json()).toEqual({ status: 'degraded', reasons: ['storage_full'] });

    await free(f.database, 'webhooks');
    const after = await register();
    expect(after.status).toBe(201);
    expect((await f.app.inject({ url: '/health' })).json()).toEqual({ status: 'ok' });
    const ids = [...acknowledged.map((w: any) => w.data.id), after.body.data.id];
    const listed = (await api.get('/api/v1/webhooks?limit=100')).body.data.items.map((w: { id: string }) => w.id);
    expect(listed).toEqual(expect.arrayContaining(ids));
  });
});

describe('StorageHealth', () => {
  it('is degraded from a refusal until a write goes through, or a minute without another refusal', () => {
    let now = 1_000_000;
    const health = new StorageHealth(() => now);
    expect(health.reasons()).toEqual([]);
    health.refused();
    expect(health.reasons()).toEqual(['storage_full']);
    health.wrote();
    expect(health.reasons()).toEqual([]);
    health.refused();
    now += 59_000;
    expect(health.reasons()).toEqual(['storage_full']);
    now += 1_000;
    expect(health.reasons()).toEqual([]);
  });
});
