import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFinanceTestApp, type FinanceTestApp } from '../../../test/helpers/test-app.js';
import { HistoryPruner } from './history-pruner.js';

let t: FinanceTestApp;
beforeAll(async () => {
  t = await buildFinanceTestApp();
});
afterAll(async () => {
  await t.close();
});

const DAY = 86_400_000;
const NOW = Date.parse('2026-06-30T12:00:00Z');
const OLD = NOW - 31 * DAY;
const RECENT = NOW - 29 * DAY;

let serial = 0;
const uid = (label: string) => `${label}-${++serial}-${Math.random().toString(36).slice(2)}`;

async function seed() {
  await t.db.deleteFrom('outbox_events').execute();
  await t.db.deleteFrom('webhook_deliveries').execute();
  await t.db.deleteFrom('outgoing_emails').execute();
  const event = (label: string, createdAt: number, dispatchedAt: number | null) => ({
    account_id: 1,
    name: label,
    payload: '{}',
    origin: null,
    created_at: createdAt,
    dispatched_at: dispatchedAt,
    dispatch_error: null,
    refs: '{}',
  });
  await t.db
    .insertInto('outbox_events')
    .values([
      event('old-dispatched-1', OLD, OLD),
      event('old-dispatched-2', OLD, OLD + 1000),
      event('old-dispatched-3', OLD, OLD + 2000),
      event('old-undispatched', OLD, null), // never dispatched: kept whatever its age
      event('recent-dispatched', RECENT, RECENT),
    ])
    .execute();
  const delivery = (label: string, status: string, createdAt: number) => ({
    id: uid(label),
    account_id: 1,
    subscriber_type: 'webhook',
    subscriber_id: 1,
    url: 'https://hooks.example.com/x',
    event_name: label,
    event_id: null,
    payload: '{}',
    status: status as never,
    attempts: 1,
    next_attempt_at: createdAt,
    locked_until: status === 'delivering' ? NOW + 30_000 : null,
    last_status_code: null,
    last_error: null,
    last_attempt_at: createdAt,
    delivered_at: null,
    created_at: createdAt,
  });
  await t.db
    .insertInto('webhook_deliveries')
    .values([
      delivery('old-succeeded', 'succeeded', OLD),
      delivery('old-failed', 'failed', OLD),
      delivery('old-cancelled', 'cancelled', OLD),
      delivery('old-pending', 'pending', OLD),
      delivery('old-delivering', 'delivering', OLD),
      delivery('recent-succeeded', 'succeeded', RECENT),
    ])
    .execute();
  const email = (label: string, status: string, createdAt: number) => ({
    id: uid(label),
    account_id: 1,
    source: 'test',
    to_addresses: 'a@example.test',
    subject: label,
    text_body: 'x',
    html_body: null,
    reply_to: null,
    attachments: null,
    status: status as never,
    attempts: 1,
    next_attempt_at: createdAt,
    locked_until: null,
    last_error: null,
    last_attempt_at: createdAt,
    sent_at: null,
    created_at: createdAt,
  });
  await t.db
    .insertInto('outgoing_emails')
    .values([
      email('old-sent', 'sent', OLD),
      email('old-failed', 'failed', OLD),
      email('old-pending', 'pending', OLD),
      email('recent-sent', 'sent', RECENT),
    ])
    .execute();
}

const names = async () => ({
  events: (await t.db.selectFrom('outbox_events').select('name').orderBy('name').execute()).map((r) => r.name),
  deliveries: (await t.db.selectFrom('webhook_deliveries').select('event_name').orderBy('event_name').execute()).map(
    (r) => r.event_name,
  ),
  emails: (await t.db.selectFrom('outgoing_emails').select('subject').orderBy('subject').execute()).map(
    (r) => r.subject,
  ),
});

const pruner = (retentionDays: number, batchSize = 2) => {
  const p = new HistoryPruner({ db: t.db, retentionMs: retentionDays * DAY, batchSize });
  return { prune: () => p.prune(NOW) };
};
const counts = (events: number, deliveries: number, emails: number) => ({
  events,
  deliveries,
  emails,
  retries: 0,
  jobs: 0,
});

describe('HistoryPruner', () => {
  it('deletes ended history older than the retention, in batches, and keeps everything pending, in flight or recent', async () => {
    await seed();
    expect(await pruner(30).prune()).toEqual(counts(3, 3, 2));
    expect(await names()).toEqual({
      events: ['old-undispatched', 'recent-dispatched'],
      deliveries: ['old-delivering', 'old-pending', 'recent-succeeded'],
      emails: ['old-pending', 'recent-sent'],
    });
    // Nothing left to prune: a second run deletes nothing.
    expect(await pruner(30).prune()).toEqual(counts(0, 0, 0));
  });

  it('keeps everything when the retention is 0 (HISTORY_RETENTION_DAYS=0)', async () => {
    await seed();
    const before = await names();
    expect(await pruner(0).prune()).toEqual(counts(0, 0, 0));
    expect(await names()).toEqual(before);
  });

  it('a longer retention keeps more', async () => {
    await seed();
    expect(await pruner(60, 1000).prune()).toEqual(counts(0, 0, 0));
    expect(await pruner(30, 1000).prune()).toEqual(counts(3, 3, 2));
  });
});
