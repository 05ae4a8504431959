import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newAccount, newAgent, type TestAccount, type TestUser } from '../../../../test/helpers/factories.js';
import { call, client } from '../../../../test/helpers/http.js';
import { newCard, newPipeline, type TestPipeline } from '../../../../test/helpers/pipelines.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';

/**
 * Pipeline analytics over a known history: every move and closing happens at a chosen time (only
 * Date is faked), and every figure is checked exactly, worked out by hand below.
 *
 *   day 0  create c1 (Ana, 1000 BRL), c2 (Ana, 2000 BRL), c3 (Bia, 500 BRL), c4 (nobody, 300 BRL),
 *          c6 (Ana, 900 BRL) in Lead of Sales; c5 (Bia, 700 USD) in X of Other
 *   day 1  c1, c2, c3 -> Proposal      day 2  c1 -> Closing
 *   day 3  c6 won, day 4 c6 discarded (a discarded card counts nowhere)
 *   day 5  c1 won at 1200 (5 days after its creation)
 *   day 6  c2 lost "Price"             day 7  c3 lost "Price"; c5 won (7 days)
 *   day 8  c4 lost "Timing", day 9 c4 reopened (its loss no longer counts)
 *   The other account wins a deal on day 5 (never counted here).
 */
const T0 = Date.UTC(2031, 8, 1, 10, 0, 0); // Monday 1 September 2031, 10:00 UTC
const DAY = 86_400_000;
const at = (day: number, hours = 0) => vi.setSystemTime(T0 + day * DAY + hours * 3_600_000);
const iso = (day: number) => new Date(T0 + day * DAY).toISOString();

let t: ChatTestApp;
let account: TestAccount;
let other: TestAccount;
let ana: TestUser;
let bia: TestUser;
let sales: TestPipeline;
let second: TestPipeline;
let theirPipeline: TestPipeline;

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t, 'Analytics');
  other = await newAccount(t, 'Other');
  ana = await newAgent(t, account, 'Ana');
  bia = await newAgent(t, account, 'Bia');
  sales = await newPipeline(t, account, ['Lead', 'Proposal', 'Closing'], 'Sales');
  second = await newPipeline(t, account, ['X', 'Y'], 'Other');
  theirPipeline = await newPipeline(t, other);
  const api = client(t.app, account.admin.token);
  const ok = async (res: Promise<{ status: number; text: string }>) => {
    const r = await res;
    expect(r.status, r.text).toBe(200);
  };
  const move = (id: number, stage: string) =>
    ok(api.post(`${account.path}/pipeline_cards/${id}/move_to_stage`, { pipeline_stage: stage }));
  const deal = (id: number, action: string, body: Record<string, unknown> = {}) =>
    ok(api.post(`${account.path}/pipeline/cards/${id}/deal_status/${action}`, body));

  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    at(0);
    const card = (title: string, owner: TestUser | null, value: number, pipeline = sales, currency = 'BRL') =>
      newCard(t, account, pipeline, { title, owner_id: owner?.id ?? null, value, currency });
    const c1 = await card('c1', ana, 1000);
    const c2 = await card('c2', ana, 2000);
    const c3 = await card('c3', bia, 500);
    const c4 = await card('c4', null, 300);
    const c6 = await card('c6', ana, 900);
    const c5 = await card('c5', bia, 700, second, 'USD');
    at(1);
    for (const c of [c1, c2, c3]) await move(c.id, sales.stages[1].id);
    at(2);
    await move(c1.id, sales.stages[2].id);
    at(3);
    await deal(c6.id, 'mark_won');
    at(4);
    await ok(api.delete(`${account.path}/pipeline_cards/${c6.id}`));
    at(5);
    await deal(c1.id, 'mark_won', { won_value: 1200 });
    const theirs = await newCard(t, other, theirPipeline, { value: 5000 });
    await ok(client(t.app, other.admin.token).post(`${other.path}/pipeline/cards/${theirs.id}/deal_status/mark_won`));
    at(6);
    await deal(c2.id, 'mark_lost', { lost_reason: 'Price' });
    at(7);
    await deal(c3.id, 'mark_lost', { lost_reason: 'Price' });
    await deal(c5.id, 'mark_won');
    at(8);
    await deal(c4.id, 'mark_lost', { lost_reason: 'Timing' });
    at(9);
    await deal(c4.id, 'reopen');
  } finally {
    vi.useRealTimers();
  }
});
afterAll(async () => {
  await t.close();
});

/** The first ten days, as the n8n node sends them: ISO 8601 without an offset (UTC). */
const RANGE = `start_date=${iso(0).slice(0, 19)}&end_date=${iso(10).slice(0, 19)}`;
const get = async (path: string, query = RANGE, token = account.admin.token) => {
  const res = await client(t.app, token).get(`${account.path}/pipeline/${path}${query ? `?${query}` : ''}`);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
};
/** end_date names a second (it has seconds), and is included: the period ends when that second does. */
const period = { start_date: iso(0), end_date: new Date(T0 + 10 * DAY + 1000).toISOString() };

describe('GET {A}/pipeline/analytics/win_rate', () => {
  it('is won / (won + lost) of the deals closed in the period, still in that state, by pipeline and owner', async () => {
    expect(await get('analytics/win_rate')).toEqual({
      won_deals: 2,
      lost_deals: 2,
      closed_deals: 4,
      win_rate: 50,
      won_value: [
        { currency: 'BRL', value: 1200 },
        { currency: 'USD', value: 700 },
      ],
      lost_value: [{ currency: 'BRL', value: 2500 }],
      period,
    });
    expect(await get('analytics/win_rate', `${RANGE}&pipeline_id=${sales.id}`)).toMatchObject({
      won_deals: 1,
      lost_deals: 2,
      win_rate: 33.33,
    });
    expect(await get('analytics/win_rate', `${RANGE}&agent_ids=${bia.id}`)).toMatchObject({
      won_deals: 1,
      lost_deals: 1,
      win_rate: 50,
      won_value: [{ currency: 'USD', value: 700 }],
    });
    // Both spellings of a list of owners; a period before any closing has none.
    expect((await get('analytics/win_rate', `${RANGE}&agent_ids=${ana.id},${bia.id}`)).closed_deals).toBe(4);
    expect((await get('analytics/win_rate', `${RANGE}&agent_ids[]=${ana.id}&agent_ids[]=${bia.id}`)).closed_deals).toBe(
      4,
    );
    // end_date is included: up to day 5 (c1 won then, to the millisecond) counts one closing, a day less none.
    expect((await get('analytics/win_rate', `start_date=${iso(0)}&end_date=${iso(4)}`)).closed_deals).toBe(0);
    expect((await get('analytics/win_rate', `start_date=${iso(0)}&end_date=${iso(5)}`)).closed_deals).toBe(1);
    // end_date as a date includes that whole day (day 5, where c1 was won).
    expect((await get('analytics/win_rate', `start_date=2031-09-01&end_date=2031-09-06`)).won_deals).toBe(1);
  });
});

describe('GET {A}/pipeline/analytics/conversion_metrics', () => {
  it('gives per stage the cards that entered it in the period and the share that later entered the next', async () => {
    expect(await get('analytics/conversion_metrics')).toEqual({
      pipelines: [
        {
          id: sales.id,
          name: 'Sales',
          stages: [
            {
              id: sales.stages[0].id,
              name: 'Lead',
              position: 0,
              entered: 4,
              converted_to_next: 3,
              conversion_rate: 75,
            },
            {
              id: sales.stages[1].id,
              name: 'Proposal',
              position: 1,
              entered: 3,
              converted_to_next: 1,
              conversion_rate: 33.33,
            },
            {
              id: sales.stages[2].id,
              name: 'Closing',
              position: 2,
              entered: 1,
              converted_to_next: null,
              conversion_rate: null,
            },
          ],
        },
        {
          id: second.id,
          name: 'Other',
          stages: [
            { id: second.stages[0].id, name: 'X', position: 0, entered: 1, converted_to_next: 0, conversion_rate: 0 },
            {
              id: second.stages[1].id,
              name: 'Y',
              position: 1,
              entered: 0,
              converted_to_next: null,
              conversion_rate: null,
            },
          ],
        },
      ],
      period,
    });
    // Day 1 alone: the entries into Proposal that day (and their later moves, even after the period).
    const dayOne = await get(
      'analytics/conversion_metrics',
      `start_date=${iso(1)}&end_date=${iso(1.5)}&pipeline_id=${sales.id}`,
    );
    expect(dayOne.pipelines).toHaveLength(1);
    expect(dayOne.pipelines[0].stages.map((s: { entered: number }) => s.entered)).toEqual([0, 3, 0]);
    expect(dayOne.pipelines[0].stages[1]).toMatchObject({ converted_to_next: 1, conversion_rate: 33.33 });
  });
});

describe('GET {A}/pipeline/analytics/sales_velocity', () => {
  it('is (open deals x average won value x win rate) / average days to win, per currency', async () => {
    // Open now: c4 (reopened, 300 BRL). Won: c1 1200 BRL in 5 days, c5 700 USD in 7: 6 days on average.
    expect(await get('analytics/sales_velocity')).toEqual({
      open_deals: 1,
      won_deals: 2,
      win_rate: 50,
      average_days_to_win: 6,
      currencies: [
        { currency: 'BRL', open_deals: 1, won_deals: 1, average_won_value: 1200, velocity_per_day: 100 },
        { currency: 'USD', open_deals: 0, won_deals: 1, average_won_value: 700, velocity_per_day: 0 },
      ],
      period,
    });
  });
});

describe('GET {A}/pipeline/analytics/team_pipeline', () => {
  it('gives per owner and for the unassigned the open deals now, and what each won and lost in the period', async () => {
    const team = await get('analytics/team_pipeline');
    const byName = Object.fromEntries(
      team.members.map((m: { owner: { name: string } | null }) => [m.owner?.name ?? 'unassigned', m]),
    );
    expect(Object.keys(byName).sort()).toEqual(['Admin', 'Ana', 'Bia', 'unassigned']);
    expect(byName.Ana).toEqual({
      owner: { id: ana.id, name: 'Ana' },
      open_deals: 0,
      open_value: [],
      won_deals: 1,
      lost_deals: 1,
      won_value: [{ currency: 'BRL', value: 1200 }],
      win_rate: 50,
    });
    expect(byName.Bia).toMatchObject({ won_deals: 1, lost_deals: 1, won_value: [{ currency: 'USD', value: 700 }] });
    expect(byName.unassigned).toEqual({
      owner: null,
      open_deals: 1,
      open_value: [{ currency: 'BRL', value: 300 }],
      won_deals: 0,
      lost_deals: 0,
      won_value: [],
      win_rate: 0,
    });
    expect(team.members[0].owner).toBeNull(); // the most open deals first
    expect(team.totals).toEqual({ open_deals: 1, won_deals: 2, lost_deals: 2, win_rate: 50 });
    const onlyAna = await get('analytics/team_pipeline', `${RANGE}&agent_ids=${ana.id}`);
    expect(onlyAna.members.map((m: { owner: { id: number } }) => m.owner.id)).toEqual([ana.id]);
  });
});

describe('GET {A}/pipeline/deal_status/common_reasons and GET {A}/pipeline/analytics/dashboard', () => {
  it('counts the lost reasons of the period, most frequent first (a reopened deal’s reason no longer counts)', async () => {
    expect(await get('deal_status/common_reasons')).toEqual({
      reasons: [{ reason: 'Price', count: 2 }],
      total: 2,
      period,
    });
  });

  it('puts win rate, velocity, the score distribution and a summary per pipeline together', async () => {
    const dashboard = await get('analytics/dashboard');
    expect(dashboard.win_rate).toMatchObject({ won_deals: 2, lost_deals: 2, win_rate: 50 });
    expect(dashboard.sales_velocity).toMatchObject({ open_deals: 1, average_days_to_win: 6 });
    expect(dashboard.lead_distribution).toMatchObject({ total: 1, average_score: 0 });
    expect(dashboard.pipeline_summary).toEqual([
      {
        id: sales.id,
        name: 'Sales',
        open_deals: 1,
        open_value: [{ currency: 'BRL', value: 300 }],
        won_deals: 1,
        lost_deals: 2,
      },
      { id: second.id, name: 'Other', open_deals: 0, open_value: [], won_deals: 1, lost_deals: 0 },
    ]);
    expect(dashboard.period).toEqual(period);
  });

  it('covers the last 30 days without dates, for agents too', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      at(12);
      const res = await get('analytics/win_rate', '', ana.token);
      expect(res).toMatchObject({ won_deals: 2, lost_deals: 2, period: { start_date: iso(-18), end_date: iso(12) } });
      at(40); // day 5 to 7 are now more than 30 days back
      expect((await get('analytics/win_rate', '')).closed_deals).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("answers 404 for another account's pipeline, agent or path, and 422 for a bad period", async () => {
    const paths = [
      'analytics/dashboard',
      'analytics/win_rate',
      'analytics/conversion_metrics',
      'analytics/sales_velocity',
      'analytics/team_pipeline',
      'deal_status/common_reasons',
    ];
    for (const path of paths) {
      const url = `${account.path}/pipeline/${path}`;
      const api = client(t.app, account.admin.token);
      expect((await api.get(`${url}?pipeline_id=${theirPipeline.id}`)).status, path).toBe(404);
      expect((await api.get(`${url}?agent_ids=${other.admin.id}`)).status, path).toBe(404);
      expect((await client(t.app, other.admin.token).get(url)).status, path).toBe(404);
      expect((await call(t.app, { url })).status, path).toBe(401);
      const inverted = await api.get(`${url}?start_date=2031-09-10&end_date=2031-09-01`);
      expect(inverted.status, path).toBe(422);
      expect(inverted.body.details.map((d: { field: string }) => d.field)).toEqual(['start_date', 'end_date']);
      expect((await api.get(`${url}?agent_ids=ana`)).status, path).toBe(422);
    }
  });
});
