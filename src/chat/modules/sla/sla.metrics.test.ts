import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  addInboxMembers,
  newAccount,
  newAgent,
  newContact,
  newConversation,
  newInbox,
  newMessage,
  type TestAccount,
} from '../../../../test/helpers/factories.js';
import { client } from '../../../../test/helpers/http.js';
import { dispatcherOf } from '../../../../test/helpers/reports.js';
import { enterprise, getWith } from '../../../../test/helpers/sla.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { slaModule } from './sla.module.js';

/**
 * Metrics and the CSV on a known scenario, every step at a chosen time (only Date is faked):
 * A replied after 30 s and resolved after 500 s (hit); B resolved after 1000 s without a reply
 * (missed: first response); C untouched (active), its contact named like a spreadsheet formula.
 */
const T = Date.UTC(2027, 5, 1, 12, 0, 0);
const iso = (offsetSeconds: number) => new Date(T + offsetSeconds * 1000).toISOString();

let t: ChatTestApp;
let account: TestAccount;
let ids: { a: number; b: number; c: number };
let policyId: number;

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  await enterprise(t, account);
  const agent = await newAgent(t, account);
  const inbox = await newInbox(t, account);
  await addInboxMembers(t, account, inbox.id, [agent.id]);
  const api = client(t.app, account.admin.token);
  policyId = (
    await api.post(`${account.path}/sla_policies`, {
      name: 'Metrics',
      first_response_time_threshold: 60,
      resolution_time_threshold: 7200,
    })
  ).body.id;
  const conversationOf = async (name: string) => {
    const source = `src-${name.length}-${Math.random()}`;
    await newContact(t, account, { name, inbox_id: inbox.id, source_id: source });
    const conversation = await newConversation(t, account, { inboxId: inbox.id, contactSourceId: source });
    const applied = await api.patch(`${account.path}/conversations/${conversation.id}`, { sla_policy_id: policyId });
    expect(applied.status, applied.text).toBe(200);
    return conversation.id;
  };
  const at = (seconds: number) => vi.setSystemTime(T + seconds * 1000);
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    at(0);
    const a = await conversationOf('Ann');
    at(10);
    const b = await conversationOf('Bob, "the builder"');
    at(20);
    const c = await conversationOf('=cmd()');
    at(30);
    await newMessage(t, account, a, {}, agent.token);
    at(500);
    await api.post(`${account.path}/conversations/${a}/toggle_status`, { status: 'resolved' });
    at(1010);
    await api.post(`${account.path}/conversations/${b}/toggle_status`, { status: 'resolved' });
    ids = { a, b, c };
  } finally {
    vi.useRealTimers();
  }
  await dispatcherOf(t, [slaModule]).drain();
});
afterAll(async () => {
  await t.close();
});

describe('GET {A}/applied_slas/metrics', () => {
  it('answers the spec’s shape with exact figures', async () => {
    const res = await getWith(t, account.admin.token, `${account.path}/applied_slas/metrics`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      data: {
        total_applied: 3,
        hit: 1,
        missed: 1,
        hit_rate: 66.67,
        avg_first_response_time: 30,
        avg_resolution_time: 750,
        breaches_by_type: { first_response: 1, next_response: 0, resolution: 0 },
      },
    });
    const missed = await getWith(t, account.admin.token, `${account.path}/applied_slas/metrics`, { status: 'missed' });
    expect(missed.body.data).toMatchObject({ total_applied: 1, missed: 1, hit_rate: 0, avg_resolution_time: 1000 });
    const later = await getWith(t, account.admin.token, `${account.path}/applied_slas/metrics`, {
      since: Math.floor(T / 1000) + 3600,
      until: Math.floor(T / 1000) + 7200,
    });
    expect(later.body.data).toEqual({
      total_applied: 0,
      hit: 0,
      missed: 0,
      hit_rate: 100,
      avg_first_response_time: 0,
      avg_resolution_time: 0,
      breaches_by_type: { first_response: 0, next_response: 0, resolution: 0 },
    });
  });

  it('lists the applied SLAs newest first with their breaches', async () => {
    const res = await getWith(t, account.admin.token, `${account.path}/applied_slas`);
    expect(res.body.payload.map((a: { conversation: { id: number } }) => a.conversation.id)).toEqual([
      ids.c,
      ids.b,
      ids.a,
    ]);
    expect(res.body.payload.map((a: { sla_status: string }) => a.sla_status)).toEqual(['active', 'missed', 'hit']);
    expect(res.body.payload[1].sla_events).toEqual([
      {
        id: expect.any(Number),
        event_type: 'first_response',
        due_at: Math.floor(T / 1000) + 70,
        created_at: Math.floor(T / 1000) + 1010,
      },
    ]);
    expect(res.body.payload[0].conversation.contact.name).toBe('=cmd()');
  });
});

describe('GET {A}/applied_slas/download', () => {
  it('is a formula-safe CSV with a header row, checked cell by cell', async () => {
    const res = await getWith(t, account.admin.token, `${account.path}/applied_slas/download`, {
      start_date: '2027-06-01',
      end_date: '2027-06-01',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.text.split('\r\n')).toEqual([
      'conversation_id,contact_name,sla_policy,status,applied_at,first_response_due_at,first_response_at,resolution_due_at,resolved_at,breaches',
      `${ids.c},'=cmd(),Metrics,active,${iso(20)},${iso(80)},,${iso(7220)},,`,
      `${ids.b},"Bob, ""the builder""",Metrics,missed,${iso(10)},${iso(70)},,${iso(7210)},${iso(1010)},first_response`,
      `${ids.a},Ann,Metrics,hit,${iso(0)},${iso(60)},${iso(30)},${iso(7200)},${iso(500)},`,
      '',
    ]);
  });

  it('narrows to the dates asked and refuses a bad date', async () => {
    const next = await getWith(t, account.admin.token, `${account.path}/applied_slas/download`, {
      start_date: '2027-06-02',
    });
    expect(next.status).toBe(200);
    expect(next.text.split('\r\n')).toHaveLength(2); // the header and the final line break
    for (const query of [
      { start_date: '2027-02-30' },
      { end_date: 'tomorrow' },
      { start_date: '2027-06-02', end_date: '2027-06-01' },
    ]) {
      const bad = await getWith(
        t,
        account.admin.token,
        `${account.path}/applied_slas/download`,
        query as Record<string, string>,
      );
      expect(bad.status, JSON.stringify(query)).toBe(422);
    }
    const outsider = await newAccount(t, 'Outsider');
    expect((await getWith(t, outsider.admin.token, `${account.path}/applied_slas/download`)).status).toBe(404);
  });
});
