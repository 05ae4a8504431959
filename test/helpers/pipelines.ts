import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { client } from './http.js';
import type { TestAccount } from './factories.js';
import type { ChatTestApp } from './test-app.js';
import type { ChatDatabase } from '../../src/chat/db/schema.js';

/** Factories and looks for the pipeline tests: data is seeded through the API, as a client would. */

export interface TestStage {
  id: string;
  name: string;
  color: string | null;
  position: number;
  cards_count: number;
  total_value: number;
}

export interface TestPipeline {
  id: number;
  name: string;
  stages: TestStage[];
  cards_count: number;
  total_value: number;
  [field: string]: any;
}

/** A pipeline with stages named in order (created by the account's administrator). */
export async function newPipeline(
  t: ChatTestApp,
  account: TestAccount,
  stages: string[] = ['Lead', 'Qualified', 'Proposal'],
  name = 'Sales',
): Promise<TestPipeline> {
  const hash = Object.fromEntries(stages.map((stage, i) => [`new_${i}`, { name: stage, position: i + 1 }]));
  const res = await client(t.app, account.admin.token).post(`${account.path}/pipelines`, { name, stages: hash });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** A card in a stage of a pipeline; `fields` add to or override the body. */
export async function newCard(
  t: ChatTestApp,
  account: TestAccount,
  pipeline: TestPipeline,
  fields: Record<string, unknown> = {},
  token = account.admin.token,
) {
  const res = await client(t.app, token).post(`${account.path}/pipeline_cards`, {
    title: 'Deal',
    pipeline_id: pipeline.id,
    pipeline_stage: pipeline.stages[0].id,
    ...fields,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: number; stage: { id: string }; [field: string]: any };
}

/** Rows of a table (all accounts), for "nothing changed" checks. */
export async function rowsOf(t: ChatTestApp, table: keyof ChatDatabase): Promise<string[]> {
  const rows = await t.db.selectFrom(table).selectAll().execute();
  return rows.map((r) => JSON.stringify(r)).sort();
}

/** The pipeline tables' rows and the outbox, for asserting a refusal changed nothing. */
export async function pipelineState(t: ChatTestApp) {
  return {
    pipelines: await rowsOf(t, 'pipelines'),
    stages: await rowsOf(t, 'pipeline_stages'),
    cards: await rowsOf(t, 'pipeline_cards'),
    counts: await rowsOf(t, 'pipeline_stage_counts'),
    timeline: await rowsOf(t, 'pipeline_card_timeline'),
    attachments: await rowsOf(t, 'pipeline_card_attachments'),
    outbox: await rowsOf(t, 'outbox_events'),
  };
}

/** A multipart body exactly as fetch sends a FormData. */
export async function postForm(t: ChatTestApp, url: string, form: FormData, token: string) {
  const request = new Request('http://local/', { method: 'POST', body: form });
  const payload = Buffer.from(await request.arrayBuffer());
  const res = await t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { 'content-type': request.headers.get('content-type')!, api_access_token: token },
  });
  return { status: res.statusCode, body: res.json() };
}

/** Every file under DATA_DIR/uploads. */
export function storedFiles(t: ChatTestApp): string[] {
  const root = path.join(t.config.dataDir, 'uploads');
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter(
    (p) => !p.startsWith('.tmp') && fs.statSync(path.join(root, p)).isFile(),
  );
}

/** Polls `probe` until `ok` holds (or the time runs out, returning the last value): no fixed sleeps. */
export async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Outbox events of an account with a name prefix, oldest first, parsed. */
export async function cardEvents(t: ChatTestApp, accountId: number) {
  const rows = await t.db
    .selectFrom('outbox_events')
    .select(['id', 'name', 'payload', 'refs'])
    .where('account_id', '=', accountId)
    .where('name', 'like', 'pipeline_card_%')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ name: r.name, payload: JSON.parse(r.payload), refs: JSON.parse(r.refs) }));
}

/**
 * The stage counts as kept, and as counted from the cards: the two must always be equal (live
 * cards per stage, status and currency, with their summed minor units).
 */
export async function stageCounts(t: ChatTestApp) {
  const kept = await t.db
    .selectFrom('pipeline_stage_counts')
    .select(['stage_id', 'status', 'currency', 'cards', 'value_high', 'value_low'])
    .execute();
  const counted = await t.db
    .selectFrom('pipeline_cards')
    .select((eb) => [
      'stage_id',
      'status',
      'currency',
      eb.fn.countAll<number>().as('cards'),
      eb.fn.sum<number>('value_minor').as('value'),
    ])
    .where('deleted_at', 'is', null)
    .groupBy(['stage_id', 'status', 'currency'])
    .execute();
  const key = (r: { stage_id: number; status: string; currency: string }) => `${r.stage_id}|${r.status}|${r.currency}`;
  return {
    kept: Object.fromEntries(
      kept
        .filter((r) => Number(r.cards) !== 0)
        .map((r) => [key(r), [Number(r.cards), Number(r.value_high) * 1_000_000 + Number(r.value_low)]]),
    ),
    counted: Object.fromEntries(counted.map((r) => [key(r), [Number(r.cards), Number(r.value)]])),
  };
}
