import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows } from '../../../../test/helpers/db.js';
import {
  newAccount,
  newAgent,
  newContact,
  type TestAccount,
  type TestUser,
} from '../../../../test/helpers/factories.js';
import { client } from '../../../../test/helpers/http.js';
import { cardOf, newRule, scoringDispatcher, scoringJobs } from '../../../../test/helpers/lead-scoring.js';
import { newCard, newPipeline, rowsOf } from '../../../../test/helpers/pipelines.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';

/** Reports, logs, custom events and bulk recalculation, on known sets of scores. */
let t: ChatTestApp;
let scoring: ReturnType<typeof scoringDispatcher>;
let account: TestAccount;
let other: TestAccount;
let agent: TestUser;
const scored: Record<string, number> = {};

beforeAll(async () => {
  t = await buildChatTestApp();
  scoring = scoringDispatcher(t);
  account = await newAccount(t);
  other = await newAccount(t, 'Other');
  agent = await newAgent(t, account);
  // Pipeline A: 10, 30, 30, 60, 80, 90; pipeline B: 50; a won 100 and a discarded 95 that no report counts.
  const a = await newPipeline(t, account, ['Lead', 'Won'], 'A');
  const b = await newPipeline(t, account, ['Lead'], 'B');
  const api = client(t.app, account.admin.token);
  const set = async (pipeline: typeof a, score: number, name: string) => {
    const card = await newCard(t, account, pipeline, { title: name });
    expect((await api.patch(`${account.path}/pipeline_cards/${card.id}`, { lead_score: score })).status).toBe(200);
    scored[name] = card.id;
    return card;
  };
  for (const [i, s] of [10, 30, 30, 60, 80, 90].entries()) await set(a, s, `a${i}:${s}`);
  await set(b, 50, 'b:50');
  const won = await set(a, 100, 'won');
  await api.post(`${account.path}/pipeline/cards/${won.id}/deal_status/mark_won`);
  const gone = await set(a, 95, 'gone');
  await api.delete(`${account.path}/pipeline_cards/${gone.id}`);
  scored.pipelineA = a.id;
  // The other account has a card of its own at 99.
  const theirs = await newPipeline(t, other);
  const card = await newCard(t, other, theirs);
  await client(t.app, other.admin.token).patch(`${other.path}/pipeline_cards/${card.id}`, { lead_score: 99 });
  scored.theirs = card.id;
  await scoring.dispatcher.drain();
});
afterAll(async () => {
  await t.close();
});

const admin = () => client(t.app, account.admin.token);

describe('distribution', () => {
  it('counts open live cards per band, with the average and the median worked out by hand', async () => {
    const res = await client(t.app, agent.token).get(`${account.path}/pipeline/lead_scores/distribution`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // 10 | 30 30 50 | 60 | 80 90: sum 350 over 7, median the 4th value (50).
    expect(res.body.data).toEqual({
      ranges: [
        { range: '0-25', count: 1, label: 'Frio' },
        { range: '26-50', count: 3, label: 'Morno' },
        { range: '51-75', count: 1, label: 'Quente' },
        { range: '76-100', count: 2, label: 'Muito Quente' },
      ],
      average_score: 50,
      median_score: 50,
      total: 7,
    });
    // Pipeline A alone: 10 30 30 60 80 90: average 50, median (30 + 60) / 2 = 45.
    const a = await admin().get(`${account.path}/lead_score/reports/distribution?pipeline_id=${scored.pipelineA}`);
    expect(a.body.data.ranges.map((r: { count: number }) => r.count)).toEqual([1, 2, 1, 2]);
    expect(a.body.data).toMatchObject({ average_score: 50, median_score: 45, total: 6 });
  });

  it('is 0 everywhere with no cards, and never counts another account', async () => {
    const empty = await newAccount(t, 'Empty');
    const res = await client(t.app, empty.admin.token).get(`${empty.path}/lead_score/reports/distribution`);
    expect(res.body.data).toMatchObject({ average_score: 0, median_score: 0, total: 0 });
    const theirs = await client(t.app, other.admin.token).get(`${other.path}/pipeline/lead_scores/distribution`);
    expect(theirs.body.data).toMatchObject({ average_score: 99, median_score: 99, total: 1 });
  });
});

describe('reports', () => {
  it('top_leads: open cards by score, highest first, at most limit', async () => {
    const res = await admin().get(`${account.path}/lead_score/reports/top_leads?limit=3`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { id: number; lead_score: number }) => [c.id, c.lead_score])).toEqual([
      [scored['a5:90'], 90],
      [scored['a4:80'], 80],
      [scored['a3:60'], 60],
    ]);
    expect(res.body.data[0]).toMatchObject({ lead_score_category: 'muito_quente', lead_score_label: 'Muito Quente' });
    expect((await admin().get(`${account.path}/lead_score/reports/top_leads`)).body.data).toHaveLength(7);
    expect((await admin().get(`${account.path}/lead_score/reports/top_leads?limit=101`)).status).toBe(422);
  });

  it('dashboard: average, cards scored and cards per band', async () => {
    const res = await admin().get(`${account.path}/lead_score/reports/dashboard`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ average_score: 50, total_scored: 7, top_rules: [] });
    expect(res.body.data.by_category.map((c: { category: string; count: number }) => [c.category, c.count])).toEqual([
      ['frio', 1],
      ['morno', 3],
      ['quente', 1],
      ['muito_quente', 2],
    ]);
  });

  it('trends and category_changes default to the last 30 days, read from/to as since/until, and refuse an inverted range', async () => {
    const fresh = await newAccount(t, 'Defaults');
    const api = client(t.app, fresh.admin.token);
    const card = await newCard(t, fresh, await newPipeline(t, fresh));
    await api.patch(`${fresh.path}/pipeline_cards/${card.id}`, { lead_score: 60 });
    await scoring.dispatcher.drain();
    const today = new Date().toISOString().slice(0, 10);
    const trends = await api.get(`${fresh.path}/lead_score/reports/trends`);
    expect(trends.status, trends.text).toBe(200);
    // 30 days back from now, day by day: 31 periods (the first is partly in range), today last.
    expect(trends.body.data).toHaveLength(31);
    expect(trends.body.data.at(-1)).toEqual({ period: today, average_score: 60, cards_scored: 1 });
    const changes = await api.get(`${fresh.path}/lead_score/reports/category_changes`);
    expect(changes.body.data).toEqual({
      changes: [{ from: 'frio', to: 'quente', count: 1, from_label: 'Frio', to_label: 'Quente' }],
      total: 1,
    });
    // from/to (NooviChat's names, ISO 8601 from n8n) are since/until: a range before the change counts nothing.
    const before = await api.get(
      `${fresh.path}/lead_score/reports/category_changes?from=2020-01-01T00:00:00&to=2020-01-31`,
    );
    expect(before.body.data).toEqual({ changes: [], total: 0 });
    const byAlias = await api.get(
      `${fresh.path}/lead_score/reports/trends?granularity=month&from=${today}&to=${today}`,
    );
    expect(byAlias.body.data).toEqual([{ period: today.slice(0, 7), average_score: 60, cards_scored: 1 }]);
    for (const path of ['trends', 'category_changes']) {
      const inverted = await admin().get(`${account.path}/lead_score/reports/${path}?since=100&until=50`);
      expect(inverted.status).toBe(422);
      expect(inverted.body.details.map((d: { field: string }) => d.field)).toEqual(['since', 'until']);
      const aliased = await admin().get(`${account.path}/lead_score/reports/${path}?from=2031-09-15&to=2031-09-01`);
      expect(aliased.body.details.map((d: { field: string }) => d.field)).toEqual(['from', 'to']);
      expect((await admin().get(`${account.path}/lead_score/reports/${path}?since=yesterday`)).status).toBe(422);
    }
  });

  it("trends: each card's last score in the period, averaged; category_changes per from -> to", async () => {
    const fresh = await newAccount(t, 'Trends');
    const api = client(t.app, fresh.admin.token);
    const pipeline = await newPipeline(t, fresh);
    const one = await newCard(t, fresh, pipeline);
    const two = await newCard(t, fresh, pipeline);
    await api.patch(`${fresh.path}/pipeline_cards/${one.id}`, { lead_score: 40 });
    await api.patch(`${fresh.path}/pipeline_cards/${two.id}`, { lead_score: 60 });
    await api.patch(`${fresh.path}/pipeline_cards/${one.id}`, { lead_score: 80 });
    await scoring.dispatcher.drain();
    const now = Math.floor(Date.now() / 1000);
    const since = now - 86_400 * 2;
    const day = await api.get(`${fresh.path}/lead_score/reports/trends?granularity=day&since=${since}&until=${now}`);
    expect(day.status, JSON.stringify(day.body)).toBe(200);
    const logs = await api.get(`${fresh.path}/lead_score/logs`);
    expect(day.body.data, JSON.stringify(logs.body)).toHaveLength(3);
    expect(day.body.data.at(-1), JSON.stringify(logs.body)).toEqual({
      period: new Date(now * 1000).toISOString().slice(0, 10),
      average_score: 70,
      cards_scored: 2,
    });
    expect(day.body.data[0]).toMatchObject({ average_score: 0, cards_scored: 0 });
    const month = await api.get(`${fresh.path}/lead_score/reports/trends?granularity=month&since=${now}&until=${now}`);
    expect(month.body.data).toEqual([
      { period: new Date(now * 1000).toISOString().slice(0, 7), average_score: 70, cards_scored: 2 },
    ]);

    const changes = await api.get(`${fresh.path}/lead_score/reports/category_changes?since=${since}&until=${now}`);
    expect(changes.status).toBe(200);
    expect(changes.body.data.total, JSON.stringify(changes.body)).toBe(3);
    expect(changes.body.data.changes).toEqual(
      expect.arrayContaining([
        { from: 'frio', to: 'morno', count: 1, from_label: 'Frio', to_label: 'Morno' },
        { from: 'morno', to: 'muito_quente', count: 1, from_label: 'Morno', to_label: 'Muito Quente' },
        { from: 'frio', to: 'quente', count: 1, from_label: 'Frio', to_label: 'Quente' },
      ]),
    );
  });

  it('reports are for administrators (403 for agents); the board distribution is for every member', async () => {
    const api = client(t.app, agent.token);
    for (const path of [
      'dashboard',
      'distribution',
      'top_leads',
      'trends?since=1&until=2',
      'category_changes?since=1&until=2',
    ])
      expect((await api.get(`${account.path}/lead_score/reports/${path}`)).status).toBe(403);
    expect((await api.post(`${account.path}/lead_score/reports/bulk_recalculate`)).status).toBe(403);
    expect((await api.get(`${account.path}/pipeline/lead_scores/distribution`)).status).toBe(200);
  });
});

describe('logs', () => {
  it('lists with filters, shows one, and hides other accounts', async () => {
    const all = await admin().get(`${account.path}/lead_score/logs?per_page=100`);
    expect(all.status).toBe(200);
    expect(all.body.meta).toMatchObject({ total: 9, page: 1, per_page: 100 });
    const forCard = await admin().get(`${account.path}/lead_score/logs?pipeline_card_id=${scored['a4:80']}`);
    expect(forCard.body.data).toEqual([
      {
        id: expect.any(Number),
        pipeline_card_id: scored['a4:80'],
        contact_id: null,
        rule_id: null,
        rule_name: null,
        event_type: null,
        event_subtype: null,
        points: 80,
        old_score: 0,
        new_score: 80,
        old_category: 'frio',
        new_category: 'muito_quente',
        reason: 'manual_override',
        created_at: expect.any(String),
      },
    ]);
    const one = await client(t.app, agent.token).get(`${account.path}/lead_score/logs/${forCard.body.data[0].id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(forCard.body.data[0]);
    // 10 stays frio: every other card changed band.
    const changes = await admin().get(`${account.path}/lead_score/logs?category_changes_only=true&per_page=100`);
    expect(changes.body.meta.total).toBe(8);
    const theirs = await client(t.app, other.admin.token).get(`${other.path}/lead_score/logs`);
    expect((await admin().get(`${account.path}/lead_score/logs/${theirs.body.data[0].id}`)).status).toBe(404);
    expect((await admin().get(`${account.path}/lead_score/logs?pipeline_card_id=${scored.theirs}`)).body.data).toEqual(
      [],
    );
    expect((await admin().get(`${account.path}/lead_score/logs?per_page=0`)).status).toBe(422);
    // NooviChat's names: card_id for pipeline_card_id, from/to (ISO 8601, no offset = UTC) for since/until.
    const byCardId = await admin().get(`${account.path}/lead_score/logs?card_id=${scored['a4:80']}`);
    expect(byCardId.body.data).toEqual(forCard.body.data);
    expect((await admin().get(`${account.path}/lead_score/logs?card_id=${scored.theirs}`)).body.data).toEqual([]);
    const madeAt = forCard.body.data[0].created_at as string;
    const around = (ms: number) => new Date(Date.parse(madeAt) + ms).toISOString().replace('Z', '');
    const inRange = await admin().get(
      `${account.path}/lead_score/logs?card_id=${scored['a4:80']}&from=${around(-60_000)}&to=${around(60_000)}`,
    );
    expect(inRange.body.data).toEqual(forCard.body.data);
    const after = await admin().get(
      `${account.path}/lead_score/logs?card_id=${scored['a4:80']}&from=${around(60_000)}`,
    );
    expect(after.body.data).toEqual([]);
  });
});

describe('custom events', () => {
  it("reach one card, or a contact's open cards; bad or foreign ids change nothing", async () => {
    const fresh = await newAccount(t, 'Custom');
    const api = client(t.app, fresh.admin.token);
    await newRule(t, fresh, { event_type: 'custom_event', event_subtype: 'webinar', points: 12 });
    await newRule(t, fresh, {
      event_type: 'custom_event',
      event_subtype: 'webinar',
      points: 3,
      conditions: { 'properties.minutes': { operator: 'gte', value: 30 } },
    });
    const pipeline = await newPipeline(t, fresh);
    const contact = (await newContact(t, fresh)).contact;
    const one = await newCard(t, fresh, pipeline, { contact_id: contact.id });
    const two = await newCard(t, fresh, pipeline, { contact_id: contact.id });
    await scoring.dispatcher.drain();

    const byCard = await api.post(`${fresh.path}/lead_score/events`, {
      pipeline_card_id: one.id,
      event_subtype: 'webinar',
      properties: { minutes: 45 },
    });
    expect(byCard.status, JSON.stringify(byCard.body)).toBe(200);
    expect(byCard.body.data).toEqual({
      event_type: 'custom_event',
      event_subtype: 'webinar',
      pipeline_card_ids: [one.id],
      cards: [{ id: one.id, lead_score: 15, lead_score_category: 'frio' }],
    });
    const byContact = await client(t.app, (await newAgent(t, fresh)).token).post(`${fresh.path}/lead_score/events`, {
      contact_id: contact.id,
      event_subtype: 'webinar',
    });
    expect(byContact.body.data.pipeline_card_ids).toEqual([one.id, two.id]);
    expect((await cardOf(t, fresh, one.id)).lead_score).toBe(27);
    expect((await cardOf(t, fresh, two.id)).lead_score).toBe(12);

    const before = await rowsOf(t, 'lead_score_events');
    const bad = [
      [{ event_subtype: 'webinar' }, 422],
      [{ pipeline_card_id: one.id }, 422],
      [{ pipeline_card_id: scored.theirs, event_subtype: 'webinar' }, 404],
      [{ contact_id: 999999, event_subtype: 'webinar' }, 404],
    ] as const;
    for (const [body, status] of bad)
      expect((await api.post(`${fresh.path}/lead_score/events`, body)).status).toBe(status);
    expect(await rowsOf(t, 'lead_score_events')).toEqual(before);
  });
});

describe('bulk recalculation', () => {
  it('runs as batch jobs whose progress the endpoint shows, to completion', async () => {
    const fresh = await newAccount(t, 'Bulk');
    const api = client(t.app, fresh.admin.token);
    const rule = await newRule(t, fresh, { event_type: 'card_created', points: 5 });
    const pipeline = await newPipeline(t, fresh);
    const cards = [];
    for (let i = 0; i < 5; i++) cards.push(await newCard(t, fresh, pipeline));
    await scoring.dispatcher.drain();
    await api.patch(`${fresh.path}/pipeline_cards/${cards[0].id}`, { lead_score: 90 });
    await api.patch(`${fresh.path}/lead_score_rules/${rule.id}`, { points: 25 });

    let now = 0;
    const { runner } = scoringJobs(t, () => now, { bulkBatchSize: 2, bulkBatchGapMs: 1000 });
    const started = await api.post(`${fresh.path}/lead_score/reports/bulk_recalculate`);
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body.data).toMatchObject({ status: 'queued', processed: 0, total: 5 });
    now = Date.now(); // the job was queued at the app's time
    const progress = async () =>
      (await api.get(`${fresh.path}/lead_score/reports/bulk_recalculate/${started.body.data.job_id}`)).body.data;

    const seen: [string, number][] = [];
    for (let i = 0; i < 10; i++) {
      await runner.runDue();
      const p = await progress();
      seen.push([p.status, p.processed]);
      if (p.status === 'completed') break;
      now += 1000;
    }
    expect(seen).toEqual([
      ['running', 2],
      ['running', 4],
      ['completed', 5],
    ]);
    for (const card of cards)
      expect(await cardOf(t, fresh, card.id)).toMatchObject({ lead_score: 25, lead_score_overridden: false });
    expect(
      (
        await client(t.app, other.admin.token).get(
          `${other.path}/lead_score/reports/bulk_recalculate/${started.body.data.job_id}`,
        )
      ).status,
    ).toBe(404);
    expect(await countRows(t.db, 'lead_score_bulk_jobs')).toBe(1);
  });
});
