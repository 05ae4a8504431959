import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  addInboxMembers,
  newAccount,
  newAgent,
  newConversation,
  newInbox,
  newMessage,
  newTeam,
  type TestAccount,
} from '../../../../test/helpers/factories.js';
import { client } from '../../../../test/helpers/http.js';
import { dispatcherOf } from '../../../../test/helpers/reports.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { reportsModule } from './reports.module.js';

/**
 * Reports over a known scenario: every step happens at a chosen time (only Date is faked), the
 * reporting listener runs through the dispatcher, and the figures are checked exactly.
 */
const T0 = Date.UTC(2026, 2, 2, 10, 0, 0); // Monday 2 March 2026, 10:00 UTC
const s = (ms: number) => Math.floor(ms / 1000);

let t: ChatTestApp;
let account: TestAccount;
let outsider: TestAccount;
let agent: { id: number; token: string };
let inboxI: { id: number };
let inboxJ: { id: number };
let team: { id: number };
let labelId: number;
let convA: { id: number };
let convB: { id: number };
const V2 = () => `/api/v2/accounts/${account.id}`;
const api = () => client(t.app, account.admin.token);
/** A GET with a query string. */
const get = (token: string, path: string, query: Record<string, string | number> = {}) => {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  return client(t.app, token).get(params.size > 0 ? `${path}?${params}` : path);
};
const at = (seconds: number) => vi.setSystemTime(T0 + seconds * 1000);

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  outsider = await newAccount(t, 'Outsider');
  agent = await newAgent(t, account, 'Ana Agent');
  inboxI = await newInbox(t, account, { type: 'api' }, 'I');
  inboxJ = await newInbox(t, account, { type: 'web_widget', website_url: 'https://j.example.test' }, 'J');
  await addInboxMembers(t, account, inboxI.id, [agent.id]);
  team = await newTeam(t, account);
  labelId = (await api().post(`${account.path}/labels`, { title: 'vip' })).body.id;
  const dispatcher = dispatcherOf(t, [reportsModule]);
  await dispatcher.drain();

  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    at(0);
    convA = await newConversation(t, account, { inboxId: inboxI.id, assigneeId: agent.id, teamId: team.id });
    await dispatcher.drain(); // created without labels
    expect((await api().post(`${account.path}/conversations/${convA.id}/labels`, { labels: ['vip'] })).status).toBe(
      200,
    );
    at(60);
    await newMessage(t, account, convA.id, { message_type: 'incoming' });
    at(180);
    await newMessage(t, account, convA.id, {}, agent.token); // first response: 180 s
    at(240);
    await newMessage(t, account, convA.id, { message_type: 'incoming' });
    at(300);
    await newMessage(t, account, convA.id, {}, agent.token); // reply after 60 s
    await newMessage(t, account, convA.id, { private: true }, agent.token); // a note: not counted
    at(600);
    await api().post(`${account.path}/conversations/${convA.id}/toggle_status`, { status: 'resolved' });
    at(1000);
    convB = await newConversation(t, account, { inboxId: inboxJ.id });
    at(1100);
    await newMessage(t, account, convB.id); // the administrator: first response 100 s
    at(1300);
    await api().post(`${account.path}/conversations/${convB.id}/toggle_status`, { status: 'resolved' });
    await dispatcher.drain();
  } finally {
    vi.useRealTimers();
  }
});
afterAll(async () => {
  await t.close();
});

const range = { since: s(T0) - 10, until: s(T0) + 2000 };
const none = {
  conversations_count: 0,
  incoming_messages_count: 0,
  outgoing_messages_count: 0,
  avg_first_response_time: 0,
  avg_resolution_time: 0,
  resolutions_count: 0,
};

describe('GET /api/v2/accounts/{id}/reports/summary', () => {
  it('counts and averages the scenario exactly, with the previous period', async () => {
    const res = await get(account.admin.token, `${V2()}/reports/summary`, { type: 'account', ...range });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      conversations_count: 2,
      incoming_messages_count: 2,
      outgoing_messages_count: 3,
      avg_first_response_time: 140,
      avg_resolution_time: 450,
      resolutions_count: 2,
      previous: none,
    });
    // The next period: this one becomes `previous`.
    const next = await get(account.admin.token, `${V2()}/reports/summary`, {
      type: 'account',
      since: range.until + 1,
      until: range.until + 1 + (range.until - range.since),
    });
    expect(next.body.previous.conversations_count).toBe(2);
    expect(next.body.conversations_count).toBe(0);
  });

  it('reads an empty id (id=, as the n8n node sends it) as not given, on the summary and the series', async () => {
    const query = { type: 'account', id: '', ...range };
    const summary = await get(account.admin.token, `${V2()}/reports/summary`, query);
    expect(summary.status, summary.text).toBe(200);
    expect(summary.body.conversations_count).toBe(2);
    const series = await get(account.admin.token, `${V2()}/reports`, { ...query, metric: 'conversations_count' });
    expect(series.status, series.text).toBe(200);
    expect(series.body.reduce((n: number, b: { value: number }) => n + b.value, 0)).toBe(2);
    // A type that needs an id still names it.
    const inbox = await get(account.admin.token, `${V2()}/reports/summary`, { ...query, type: 'inbox' });
    expect(inbox.status).toBe(422);
    expect(inbox.body.details[0].field).toBe('id');
  });

  it('adds the partial 15-minute buckets at the edges to the whole ones', async () => {
    // [T0+100 s, T0+1900 s): events before T0+900 s and after T0+1800 s come from the events themselves.
    const res = await get(account.admin.token, `${V2()}/reports/summary`, {
      type: 'account',
      since: s(T0) + 100,
      until: s(T0) + 1899,
    });
    expect(res.body).toMatchObject({
      conversations_count: 1,
      incoming_messages_count: 1,
      outgoing_messages_count: 3,
      avg_first_response_time: 140,
      avg_resolution_time: 450,
      resolutions_count: 2,
    });
    const inside = await get(account.admin.token, `${V2()}/reports/summary`, {
      type: 'account',
      since: s(T0) + 1050,
      until: s(T0) + 1250,
    });
    expect(inside.body).toMatchObject({
      conversations_count: 0,
      outgoing_messages_count: 1,
      avg_first_response_time: 100,
    });
  });

  it('narrows to an agent, an inbox, a team and a label, as they were at each event', async () => {
    const of = async (type: string, id: number) => {
      const res = await get(account.admin.token, `${V2()}/reports/summary`, { type, id, ...range });
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    const conversationA = {
      conversations_count: 1,
      incoming_messages_count: 2,
      outgoing_messages_count: 2,
      avg_first_response_time: 180,
      avg_resolution_time: 600,
      resolutions_count: 1,
      previous: none,
    };
    expect(await of('agent', agent.id)).toEqual(conversationA);
    expect(await of('inbox', inboxI.id)).toEqual(conversationA);
    expect(await of('team', team.id)).toEqual(conversationA);
    // The label came after the conversation was created.
    expect(await of('label', labelId)).toEqual({ ...conversationA, conversations_count: 0 });
    expect(await of('inbox', inboxJ.id)).toEqual({
      conversations_count: 1,
      incoming_messages_count: 0,
      outgoing_messages_count: 1,
      avg_first_response_time: 100,
      avg_resolution_time: 300,
      resolutions_count: 1,
      previous: none,
    });
  });

  it('answers 422 naming since and until when missing or inverted, and 422 without an id for a type', async () => {
    const missing = await get(account.admin.token, `${V2()}/reports/summary`, { type: 'account' });
    expect(missing.status).toBe(422);
    expect(missing.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['since', 'until']);
    const onlySince = await get(account.admin.token, `${V2()}/reports/summary`, { type: 'account', since: 10 });
    expect(onlySince.body.details.map((d: { field: string }) => d.field)).toEqual(['until']);
    const inverted = await get(account.admin.token, `${V2()}/reports/summary`, {
      type: 'account',
      since: 100,
      until: 50,
    });
    expect(inverted.status).toBe(422);
    expect(inverted.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['since', 'until']);
    const noId = await get(account.admin.token, `${V2()}/reports/summary`, { type: 'inbox', ...range });
    expect(noId.status).toBe(422);
    expect(noId.body.details[0].field).toBe('id');
    const badType = await get(account.admin.token, `${V2()}/reports/summary`, { type: 'planet', ...range });
    expect(badType.status).toBe(422);
  });

  it("answers 404 to another account's ids and to a non-member, 403 to an agent", async () => {
    const otherInbox = await newInbox(t, outsider);
    expect(
      (await get(account.admin.token, `${V2()}/reports/summary`, { type: 'inbox', id: otherInbox.id, ...range }))
        .status,
    ).toBe(404);
    const foreign = await get(outsider.admin.token, `${V2()}/reports/summary`, {
      type: 'account',
      ...range,
    });
    expect(foreign.status).toBe(404);
    const byAgent = await get(agent.token, `${V2()}/reports/summary`, { type: 'account', ...range });
    expect(byAgent.status).toBe(403);
    expect(byAgent.body.code).toBe('forbidden');
  });
});

describe('GET /api/v2/accounts/{id}/reports', () => {
  it('answers every metric as buckets, empty days included', async () => {
    const since = s(T0) - 2 * 86400;
    const until = s(T0) + 86400;
    const day0 = s(Date.UTC(2026, 1, 28));
    const expected: Record<string, number[]> = {
      conversations_count: [0, 0, 2, 0],
      incoming_messages_count: [0, 0, 2, 0],
      outgoing_messages_count: [0, 0, 3, 0],
      avg_first_response_time: [0, 0, 140, 0],
      avg_resolution_time: [0, 0, 450, 0],
      resolutions_count: [0, 0, 2, 0],
    };
    for (const [metric, values] of Object.entries(expected)) {
      const res = await get(account.admin.token, `${V2()}/reports`, { metric, type: 'account', since, until });
      expect(res.status, res.text).toBe(200);
      expect(
        res.body.map((b: { value: number }) => b.value),
        metric,
      ).toEqual(values);
      expect(res.body.map((b: { timestamp: number }) => b.timestamp)).toEqual(
        [0, 1, 2, 3].map((d) => day0 + d * 86400),
      );
    }
    const counted = await get(account.admin.token, `${V2()}/reports`, {
      metric: 'avg_first_response_time',
      type: 'account',
      since,
      until,
    });
    expect(counted.body[2]).toEqual({ value: 140, timestamp: day0 + 2 * 86400, count: 2 });
  });

  it('groups by the client’s day (timezone_offset), by week and by month', async () => {
    // At UTC-12, 10:00 UTC on 2 March is 22:00 on 1 March.
    const local = await get(account.admin.token, `${V2()}/reports`, {
      metric: 'conversations_count',
      type: 'account',
      since: s(T0) - 86400,
      until: s(T0) + 3600,
      timezone_offset: -12,
    });
    expect(local.status, local.text).toBe(200);
    expect(local.body).toEqual([
      { value: 0, timestamp: s(Date.UTC(2026, 1, 28, 12)), count: 0 },
      { value: 2, timestamp: s(Date.UTC(2026, 2, 1, 12)), count: 2 },
    ]);
    // An offset that is not a multiple of 15 minutes counts from the events themselves.
    const odd = await get(account.admin.token, `${V2()}/reports`, {
      metric: 'avg_first_response_time',
      type: 'account',
      since: s(T0) - 3600,
      until: s(T0) + 3600,
      timezone_offset: 0.1,
    });
    expect(odd.body).toEqual([{ value: 140, timestamp: s(Date.UTC(2026, 2, 2)) - 360, count: 2 }]);
    const weeks = await get(account.admin.token, `${V2()}/reports`, {
      metric: 'resolutions_count',
      type: 'agent',
      id: agent.id,
      group_by: 'week',
      since: s(T0) - 7 * 86400,
      until: s(T0) + 86400,
    });
    expect(weeks.body).toEqual([
      { value: 0, timestamp: s(Date.UTC(2026, 1, 23)), count: 0 },
      { value: 1, timestamp: s(Date.UTC(2026, 2, 2)), count: 1 },
    ]);
    const months = await get(account.admin.token, `${V2()}/reports`, {
      metric: 'outgoing_messages_count',
      type: 'inbox',
      id: inboxI.id,
      group_by: 'month',
      since: s(Date.UTC(2026, 1, 15)),
      until: s(Date.UTC(2026, 3, 2)),
    });
    expect(months.body).toEqual([
      { value: 0, timestamp: s(Date.UTC(2026, 1, 1)), count: 0 },
      { value: 2, timestamp: s(Date.UTC(2026, 2, 1)), count: 2 },
      { value: 0, timestamp: s(Date.UTC(2026, 3, 1)), count: 0 },
    ]);
  });

  it('refuses a missing metric, a missing range and an unknown group_by (422), an agent (403)', async () => {
    expect((await get(account.admin.token, `${V2()}/reports`, { type: 'account', ...range })).status).toBe(422);
    const missing = await get(account.admin.token, `${V2()}/reports`, {
      metric: 'conversations_count',
      type: 'account',
    });
    expect(missing.status).toBe(422);
    expect(missing.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['since', 'until']);
    const badGroup = await get(account.admin.token, `${V2()}/reports`, {
      metric: 'conversations_count',
      type: 'account',
      group_by: 'year',
      ...range,
    });
    expect(badGroup.status).toBe(422);
    const byAgent = await get(agent.token, `${V2()}/reports`, {
      metric: 'conversations_count',
      type: 'account',
      ...range,
    });
    expect(byAgent.status).toBe(403);
  });
});

describe('GET /api/v2/accounts/{id}/reports/conversations and summary_reports/channel', () => {
  it('counts the live queue for the account and per agent, inbox and team', async () => {
    const open = await newConversation(t, account, { inboxId: inboxI.id, assigneeId: agent.id });
    await newConversation(t, account, { inboxId: inboxJ.id, status: 'pending' });
    const accountWide = await get(account.admin.token, `${V2()}/reports/conversations`, { type: 'account', ...range });
    expect(accountWide.status, accountWide.text).toBe(200);
    expect(accountWide.body).toEqual({ open: 1, unattended: 1, unassigned: 0, pending: 1 });
    const agents = await get(account.admin.token, `${V2()}/reports/conversations`, {
      type: 'agent',
      id: agent.id,
      ...range,
    });
    expect(agents.body).toEqual([
      expect.objectContaining({ id: agent.id, name: 'Ana Agent', metric: { open: 1, unattended: 1, pending: 0 } }),
    ]);
    const inboxes = await get(account.admin.token, `${V2()}/reports/conversations`, { type: 'inbox', ...range });
    expect(inboxes.body).toEqual([
      { id: inboxI.id, name: 'I', metric: { open: 1, unattended: 1, unassigned: 0, pending: 0 } },
      { id: inboxJ.id, name: 'J', metric: { open: 0, unattended: 0, unassigned: 0, pending: 1 } },
    ]);
    const channels = await get(account.admin.token, `${V2()}/summary_reports/channel`);
    expect(channels.status, channels.text).toBe(200);
    expect(channels.body).toEqual({
      'Channel::Api': { open: 1, resolved: 1, pending: 0, snoozed: 0, total: 2 },
      'Channel::WebWidget': { open: 0, resolved: 1, pending: 1, snoozed: 0, total: 2 },
    });
    const inRange = await get(account.admin.token, `${V2()}/summary_reports/channel`, range);
    expect(inRange.body).toEqual({
      'Channel::Api': { open: 0, resolved: 1, pending: 0, snoozed: 0, total: 1 },
      'Channel::WebWidget': { open: 0, resolved: 1, pending: 0, snoozed: 0, total: 1 },
    });
    expect(open.id).toBeGreaterThan(0);
    expect((await get(account.admin.token, `${V2()}/reports/conversations`, { type: 'account' })).status).toBe(422);
    expect((await get(agent.token, `${V2()}/summary_reports/channel`)).status).toBe(403);
  });
});

describe('reporting events', () => {
  it("lists a conversation's events oldest first, in Chatwoot's shape", async () => {
    const res = await get(account.admin.token, `${account.path}/conversations/${convA.id}/reporting_events`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.map((e: { name: string; value: number | null }) => [e.name, e.value])).toEqual([
      ['conversation_created', null],
      ['incoming_message', null],
      ['outgoing_message', null],
      ['first_response', 180],
      ['incoming_message', null],
      ['outgoing_message', null],
      ['reply_time', 60],
      ['conversation_resolved', 600],
    ]);
    // The inbox does not use working hours: every hour counts.
    for (const e of res.body as { value: number | null; value_in_business_hours: number | null }[])
      expect(e.value_in_business_hours).toBe(e.value);
    const first = res.body.find((e: { name: string }) => e.name === 'first_response');
    expect(first).toMatchObject({
      account_id: account.id,
      conversation_id: convA.id,
      inbox_id: inboxI.id,
      user_id: agent.id,
      event_start_time: new Date(T0).toISOString(),
      event_end_time: new Date(T0 + 180_000).toISOString(),
    });
    expect((await get(outsider.admin.token, `${account.path}/conversations/${convA.id}/reporting_events`)).status).toBe(
      404,
    );
    expect((await get(account.admin.token, `${account.path}/conversations/999999/reporting_events`)).status).toBe(404);
    expect((await get(agent.token, `${account.path}/conversations/${convA.id}/reporting_events`)).status).toBe(403);
  });

  it("pages the account's events with filters", async () => {
    const res = await get(account.admin.token, `${account.path}/reporting_events`, { name: 'first_response' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.meta).toEqual({ count: 2, current_page: 1, total_pages: 1 });
    expect(res.body.payload.map((e: { value: number }) => e.value)).toEqual([100, 180]);
    const mine = await get(account.admin.token, `${account.path}/reporting_events`, {
      user_id: agent.id,
      name: 'reply_time',
    });
    expect(mine.body.payload.map((e: { value: number }) => e.value)).toEqual([60]);
    expect((await get(account.admin.token, `${account.path}/reporting_events`, { name: 'nothing' })).status).toBe(422);
  });
});

describe('value_in_business_hours', () => {
  it("counts only the inbox's working hours in its time zone, written with the event", async () => {
    const office = await newAccount(t, 'Office hours');
    const admin = client(t.app, office.admin.token);
    const inbox = await newInbox(t, office, { type: 'api' }, 'Office');
    const hours = await admin.patch(`${office.path}/inboxes/${inbox.id}`, {
      working_hours_enabled: true,
      timezone: 'America/Sao_Paulo', // UTC-3, no daylight saving
      working_hours: [1, 2, 3, 4, 5].map((day) => ({ day_of_week: day, open_hour: 9, close_hour: 17 })),
    });
    expect(hours.status, hours.text).toBe(200);
    const dispatcher = dispatcherOf(t, [reportsModule]);
    await dispatcher.drain();
    const FRIDAY_16H = Date.UTC(2026, 2, 6, 19, 0); // Friday 6 March 2026, 16:00 in São Paulo
    const MONDAY_10H = Date.UTC(2026, 2, 9, 13, 0); // Monday 9 March 2026, 10:00 in São Paulo
    let conversation: { id: number };
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(FRIDAY_16H);
      conversation = await newConversation(t, office, { inboxId: inbox.id });
      await newMessage(t, office, conversation.id, { message_type: 'incoming' });
      vi.setSystemTime(MONDAY_10H);
      await newMessage(t, office, conversation.id); // the first response
      vi.setSystemTime(MONDAY_10H + 10 * 60_000);
      await newMessage(t, office, conversation.id, { message_type: 'incoming' });
      vi.setSystemTime(MONDAY_10H + 15 * 60_000);
      await newMessage(t, office, conversation.id); // a reply after 5 minutes, all in working hours
      vi.setSystemTime(MONDAY_10H + 30 * 60_000);
      await admin.post(`${office.path}/conversations/${conversation.id}/toggle_status`, { status: 'resolved' });
      await dispatcher.drain();
    } finally {
      vi.useRealTimers();
    }
    const res = await get(office.admin.token, `${office.path}/conversations/${conversation.id}/reporting_events`);
    expect(res.status, res.text).toBe(200);
    const timed = res.body
      .filter((e: { value: number | null }) => e.value !== null)
      .map((e: { name: string; value: number; value_in_business_hours: number }) => [
        e.name,
        e.value,
        e.value_in_business_hours,
      ]);
    const wall = (MONDAY_10H - FRIDAY_16H) / 1000; // 66 hours
    expect(wall).toBe(66 * 3600);
    expect(timed).toEqual([
      ['first_response', wall, 7200], // Friday 16:00-17:00 and Monday 09:00-10:00
      ['reply_time', 300, 300],
      ['conversation_resolved', wall + 1800, 7200 + 1800],
    ]);
    // Counted events have neither.
    const created = res.body.find((e: { name: string }) => e.name === 'conversation_created');
    expect(created).toMatchObject({ value: null, value_in_business_hours: null });
    // The account's list shows the same row.
    const list = await get(office.admin.token, `${office.path}/reporting_events`, { name: 'first_response' });
    expect(list.body.payload).toEqual([expect.objectContaining({ value: wall, value_in_business_hours: 7200 })]);
  });
});
