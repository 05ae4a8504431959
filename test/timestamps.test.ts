import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, newConversation, newInbox, type TestAccount } from './helpers/factories.js';
import { client } from './helpers/http.js';
import { newPipeline } from './helpers/pipelines.js';
import { enterprise } from './helpers/sla.js';
import { buildChatTestApp, type ChatTestApp } from './helpers/test-app.js';

/**
 * Every timestamp input reads the same forms (decisions/0028, core/time.ts parseTimestamp): ISO
 * 8601 with or without an offset (none is UTC, what n8n's date fields send), a date alone, or UNIX
 * seconds where the field always took them. Checked through the API on each kind of input, and on
 * the OpenAPI document: no timestamp parameter or body field is left with a reading of its own.
 */

let t: ChatTestApp;
let account: TestAccount;
let other: TestAccount;
let inboxId: number;

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  other = await newAccount(t, 'Other');
  inboxId = (await newInbox(t, account)).id;
  await enterprise(t, account);
});
afterAll(async () => {
  await t.close();
});

const api = () => client(t.app, account.admin.token);

describe('timestamp inputs', () => {
  it('campaign scheduled_at: without an offset is UTC, with one is converted, UNIX seconds still work', async () => {
    const make = async (scheduled_at: unknown) => {
      const res = await api().post(`${account.path}/campaigns`, {
        title: 'Sale',
        campaign_type: 'one_off',
        inbox_id: inboxId,
        message: 'Hi',
        scheduled_at,
        audience: [{ type: 'Label', id: 'vip' }],
      });
      expect(res.status, res.text).toBe(200);
      return res.body.scheduled_at as string;
    };
    expect(await make('2031-09-15T09:00:00')).toBe('2031-09-15T09:00:00.000Z');
    expect(await make('2031-09-15T09:00:00-03:00')).toBe('2031-09-15T12:00:00.000Z');
    expect(await make(Date.UTC(2031, 8, 15, 9) / 1000)).toBe('2031-09-15T09:00:00.000Z');
    expect(await make('2031-09-15')).toBe('2031-09-15T00:00:00.000Z');
    const bad = await api().post(`${account.path}/campaigns`, {
      title: 'Sale',
      campaign_type: 'one_off',
      inbox_id: inboxId,
      message: 'Hi',
      scheduled_at: '15/09/2031 09:00',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.details[0]).toEqual({ field: 'scheduled_at', message: expect.stringContaining('ISO 8601') });
  });

  it("card deadline: expected_close_date is the instant's UTC date, on create and on update", async () => {
    const pipeline = await newPipeline(t, account);
    const card = async (deadline: unknown) => {
      const res = await api().post(`${account.path}/pipeline_cards`, {
        title: 'Deal',
        pipeline_id: pipeline.id,
        pipeline_stage: pipeline.stages[0].id,
        deadline,
      });
      expect(res.status, res.text).toBe(200);
      return res.body.data as { id: number; expected_close_date: string | null };
    };
    expect((await card('2031-09-15T09:00:00')).expected_close_date).toBe('2031-09-15');
    // 23:30 in São Paulo is already the 16th in UTC.
    const late = await card('2031-09-15T23:30:00-03:00');
    expect(late.expected_close_date).toBe('2031-09-16');
    expect((await card('2031-09-15')).expected_close_date).toBe('2031-09-15');
    const updated = await api().patch(`${account.path}/pipeline_cards/${late.id}`, { deadline: '2031-10-01T08:00:00' });
    expect(updated.body.data.expected_close_date).toBe('2031-10-01');
    // expected_close_date, when given, wins; a deadline that names no time is a 422 and changes nothing.
    const both = await api().patch(`${account.path}/pipeline_cards/${late.id}`, {
      deadline: '2031-12-01',
      expected_close_date: '2031-11-30',
    });
    expect(both.body.data.expected_close_date).toBe('2031-11-30');
    const bad = await api().patch(`${account.path}/pipeline_cards/${late.id}`, { deadline: '2031-02-30' });
    expect(bad.status).toBe(422);
    expect((await api().get(`${account.path}/pipeline_cards/${late.id}`)).body.data.expected_close_date).toBe(
      '2031-11-30',
    );
  });

  it('snoozed_until: ISO 8601 as well as UNIX seconds', async () => {
    const conversation = await newConversation(t, account, { inboxId });
    const res = await api().post(`${account.path}/conversations/${conversation.id}/toggle_status`, {
      status: 'snoozed',
      snoozed_until: '2031-09-15T09:00:00',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.payload.snoozed_until).toBe(Date.UTC(2031, 8, 15, 9) / 1000);
  });

  it('report, SLA and lead-score ranges: ISO 8601 and UNIX seconds name the same range', async () => {
    const v2 = `/api/v2/accounts/${account.id}/reports/summary?type=account`;
    const seconds = await api().get(`${v2}&since=${Date.UTC(2031, 8, 1) / 1000}&until=${Date.UTC(2031, 8, 30) / 1000}`);
    const iso = await api().get(`${v2}&since=2031-09-01T00:00:00&until=2031-09-30T00:00:00Z`);
    expect(iso.status, iso.text).toBe(200);
    expect(iso.body).toEqual(seconds.body);
    const inverted = await api().get(`${v2}&since=2031-09-30&until=2031-09-01`);
    expect(inverted.status).toBe(422);
    for (const path of ['applied_slas', 'applied_slas/metrics', 'lead_score/logs'])
      expect((await api().get(`${account.path}/${path}?since=2031-09-01&until=2031-09-30T12:00`)).status, path).toBe(
        200,
      );
    const csv = await api().get(`${account.path}/applied_slas/download?start_date=2031-09-01&end_date=2031-09-30`);
    expect(csv.status).toBe(200);
    // Another account's ranges are another account's: its token gets a 404 here.
    expect((await client(t.app, other.admin.token).get(`${account.path}/applied_slas?since=2031-09-01`)).status).toBe(
      404,
    );
  });
});

describe('the OpenAPI document', () => {
  it('types every timestamp input with the one reading (format timestamp), parameters and body fields alike', async () => {
    const doc = JSON.parse((await t.app.inject({ url: '/openapi.json' })).body);
    const timestampName = /^(since|until|from|to|start_date|end_date|deadline|scheduled_at|snoozed_until)$/;
    const formats = (schema: Record<string, any> | undefined): string[] =>
      !schema ? [] : [schema.format, ...(schema.anyOf ?? schema.oneOf ?? []).flatMap(formats)].filter(Boolean);
    const found: string[] = [];
    const offenders: string[] = [];
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<Record<string, any>>(item)) {
        const fields: [string, Record<string, any>][] = [
          ...(op.parameters ?? []).map((p: Record<string, any>): [string, Record<string, any>] => [p.name, p.schema]),
          ...Object.entries<Record<string, any>>(
            op.requestBody?.content?.['application/json']?.schema?.properties ?? {},
          ),
        ];
        for (const [name, schema] of fields) {
          if (!timestampName.test(name)) continue;
          found.push(`${method} ${path} ${name}`);
          if (!formats(schema).includes('timestamp')) offenders.push(`${method.toUpperCase()} ${path} ${name}`);
        }
      }
    }
    expect(found.length).toBeGreaterThan(15);
    expect(offenders).toEqual([]);
  });
});
