import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newAccount,
  newAgent,
  newContact,
  newInbox,
  type TestAccount,
  type TestUser,
} from '../../../../test/helpers/factories.js';
import { call, client } from '../../../../test/helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';

let t: ChatTestApp;
let account: TestAccount;
let other: TestAccount;
let agent: TestUser;
let apiInbox: { id: number };
let widget: { id: number };
let otherInbox: { id: number };

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  other = await newAccount(t, 'Other');
  agent = await newAgent(t, account, 'Agnes Agent');
  apiInbox = await newInbox(t, account);
  widget = await newInbox(t, account, { type: 'web_widget', website_url: 'https://shop.example.test' }, 'Site');
  otherInbox = await newInbox(t, other);
});
afterAll(async () => {
  await t.close();
});

const path = (a: TestAccount, id?: number) => `${a.path}/campaigns${id === undefined ? '' : `/${id}`}`;
const HOUR = 3_600_000;

const oneOff = (overrides: Record<string, unknown> = {}) => ({
  title: 'Spring sale',
  campaign_type: 'one_off',
  inbox_id: apiInbox.id,
  message: 'Hi {{contact.name}}, 20% off this week!',
  scheduled_at: new Date(Date.now() + HOUR).toISOString(),
  audience: [{ type: 'Label', id: 'vip' }],
  ...overrides,
});

async function create(a: TestAccount, body: Record<string, unknown>) {
  const res = await client(t.app, a.admin.token).post(path(a), body);
  expect(res.status, res.text).toBe(200);
  return res.body as Record<string, any> & { id: number };
}

const snapshot = async () => ({
  campaigns: await t.db.selectFrom('campaigns').selectAll().orderBy('id').execute(),
  jobs: await t.db.selectFrom('jobs').selectAll().where('name', 'like', 'campaigns.%').orderBy('id').execute(),
});

describe('{A}/campaigns', () => {
  it("creates a one-off campaign in Chatwoot's shape, numbered per account, with its start job queued", async () => {
    const scheduledAt = new Date(Date.now() + HOUR);
    scheduledAt.setMilliseconds(0);
    const res = await client(t.app, account.admin.token).post(path(account), {
      campaign: oneOff({ scheduled_at: scheduledAt.toISOString(), description: 'For our best customers' }),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      id: 1,
      title: 'Spring sale',
      description: 'For our best customers',
      account_id: account.id,
      inbox_id: apiInbox.id,
      inbox: { id: apiInbox.id, name: 'Support', channel_type: 'Channel::Api' },
      sender: expect.objectContaining({ id: account.admin.id, name: 'Admin', role: 'administrator' }),
      message: 'Hi {{contact.name}}, 20% off this week!',
      campaign_type: 'one_off',
      campaign_status: 'active',
      enabled: true,
      scheduled_at: scheduledAt.toISOString(),
      audience: [{ type: 'Label', id: 'vip', title: 'vip' }],
      trigger_rules: {},
      trigger_only_during_business_hours: false,
      created_at: expect.stringMatching(/^\d{4}-/),
      updated_at: expect.stringMatching(/^\d{4}-/),
    });
    const row = await t.db
      .selectFrom('campaigns')
      .selectAll()
      .where('account_id', '=', account.id)
      .executeTakeFirstOrThrow();
    const job = await t.db
      .selectFrom('jobs')
      .selectAll()
      .where('dedupe_key', '=', `campaign:${row.id}`)
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ name: 'campaigns.start', status: 'pending', run_at: scheduledAt.getTime() });

    // Numbers are per account: the other account starts at 1 too, and numbers are never reused.
    expect((await create(other, oneOff({ inbox_id: otherInbox.id }))).id).toBe(1);
    const second = await create(account, oneOff({ scheduled_at: Math.floor(scheduledAt.getTime() / 1000) }));
    expect(second).toMatchObject({ id: 2, scheduled_at: scheduledAt.toISOString() });
    expect((await client(t.app, account.admin.token).delete(path(account, 2))).status).toBe(200);
    expect((await create(account, oneOff())).id).toBe(3);
  });

  it('lists as {data}, shows with send metrics, updates and deletes', async () => {
    const api = client(t.app, account.admin.token);
    for (const labels of [['vip'], ['vip', 'newsletter'], ['newsletter']]) {
      const contact = await newContact(t, account);
      await api.post(`${account.path}/contacts/${contact.contact.id}/labels`, { labels });
    }
    const campaign = await create(account, oneOff({ audience: [{ type: 'label', id: 'VIP' }] }));
    const listed = await api.get(path(account));
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((c: { id: number }) => c.id)).toContain(campaign.id);
    expect(listed.body.data.every((c: Record<string, unknown>) => !('sent' in c))).toBe(true);

    const shown = await api.get(path(account, campaign.id));
    expect(shown.status).toBe(200);
    // Not sent yet: the audience is who carries the labels now.
    expect(shown.body).toMatchObject({
      ...campaign,
      updated_at: expect.any(String),
      sent: 0,
      failed: 0,
      audience_count: 2,
    });

    const later = new Date(Date.now() + 5 * HOUR);
    later.setMilliseconds(0);
    const patched = await api.patch(path(account, campaign.id), {
      title: 'Summer sale',
      message: 'New text',
      enabled: false,
      scheduled_at: later.toISOString(),
      audience: [{ type: 'Label', id: 'newsletter' }],
      sender_id: agent.id,
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      id: campaign.id,
      title: 'Summer sale',
      message: 'New text',
      enabled: false,
      scheduled_at: later.toISOString(),
      audience: [{ type: 'Label', id: 'newsletter' }],
      sender: { id: agent.id, name: 'Agnes Agent' },
    });
    expect((await api.get(path(account, campaign.id))).body.audience_count).toBe(2);

    expect((await api.delete(path(account, campaign.id))).status).toBe(200);
    expect((await api.get(path(account, campaign.id))).status).toBe(404);
    expect((await api.delete(path(account, campaign.id))).status).toBe(404);
  });

  it("names the audience by the label catalogue's ids as Chatwoot clients do", async () => {
    const api = client(t.app, account.admin.token);
    const label = await api.post(`${account.path}/labels`, { title: 'Gold' });
    expect(label.status, label.text).toBe(200);
    const campaign = await create(account, oneOff({ audience: [{ type: 'Label', id: label.body.id }] }));
    expect(campaign.audience).toEqual([{ type: 'Label', id: label.body.id, title: 'gold' }]);
    // Another account's label, or none: not found, nothing written.
    const theirs = await client(t.app, other.admin.token).post(`${other.path}/labels`, { title: 'theirs' });
    const before = await snapshot();
    for (const id of [theirs.body.id, 999999]) {
      const res = await api.post(path(account), oneOff({ audience: [{ type: 'Label', id }] }));
      expect(res.status, res.text).toBe(404);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('creates an ongoing campaign for a web widget inbox only, with its trigger rules', async () => {
    const created = await create(account, {
      title: 'Help on pricing',
      campaign_type: 'ongoing',
      inbox_id: widget.id,
      message: 'Questions about {{agent.name}}?',
      trigger_rules: { url: 'https://shop.example.test/pricing*', time_on_page: 10 },
      trigger_only_during_business_hours: true,
    });
    expect(created).toMatchObject({
      campaign_type: 'ongoing',
      inbox: { id: widget.id, channel_type: 'Channel::WebWidget' },
      trigger_rules: { url: 'https://shop.example.test/pricing*', time_on_page: 10 },
      trigger_only_during_business_hours: true,
      scheduled_at: null,
    });
    const res = await client(t.app, account.admin.token).post(path(account), {
      title: 'Wrong inbox',
      campaign_type: 'ongoing',
      inbox_id: apiInbox.id,
      message: 'x',
    });
    expect(res.status).toBe(422);
    expect(res.body.details).toEqual([{ field: 'inbox_id', message: expect.any(String) }]);
  });

  it('refuses bad input with 422 and changes nothing', async () => {
    const api = client(t.app, account.admin.token);
    const existing = await create(account, oneOff());
    const before = await snapshot();
    const bad: Record<string, unknown>[] = [
      {},
      oneOff({ title: '   ' }),
      oneOff({ message: '' }),
      oneOff({ campaign_type: 'weekly' }),
      oneOff({ inbox_id: 'abc' }),
      oneOff({ scheduled_at: 'next tuesday' }),
      oneOff({ scheduled_at: true }),
      oneOff({ audience: [{ type: 'Team', id: 'vip' }] }),
      oneOff({ audience: [{ type: 'Label', id: 'has,comma' }] }),
      oneOff({ audience: 'vip,gold' }),
      oneOff({ sender_id: 999999 }),
      oneOff({ trigger_rules: { time_on_page: -1 } }),
    ];
    for (const body of bad) {
      const res = await api.post(path(account), body);
      expect(res.status, `${JSON.stringify(body)}: ${res.text}`).toBe(422);
      expect(res.body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    }
    for (const body of [{ title: ' ' }, { enabled: 'maybe' }, { scheduled_at: 'soon' }, [1, 2]]) {
      const res = await api.patch(path(account, existing.id), body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("answers 404 to another account's campaigns and inboxes, 403 to agents, 401 without a token", async () => {
    const mine = await create(account, oneOff());
    const theirs = await create(other, oneOff({ inbox_id: otherInbox.id, title: 'Theirs' }));
    const api = client(t.app, account.admin.token);
    // Both accounts have a campaign 1: give theirs a number only they have.
    const onlyTheirs = theirs.id + 100;
    await t.db
      .updateTable('campaigns')
      .set({ display_id: onlyTheirs })
      .where('account_id', '=', other.id)
      .where('display_id', '=', theirs.id)
      .execute();
    const before = await snapshot();
    expect((await api.get(path(account, onlyTheirs))).status).toBe(404);
    expect((await api.patch(path(account, onlyTheirs), { title: 'Mine now' })).status).toBe(404);
    expect((await api.delete(path(account, onlyTheirs))).status).toBe(404);
    expect((await api.post(path(account), oneOff({ inbox_id: otherInbox.id }))).status).toBe(404);
    expect((await api.get(path(other))).status).toBe(404);
    expect(await snapshot()).toEqual(before);

    const asAgent = client(t.app, agent.token);
    for (const res of [
      await asAgent.get(path(account)),
      await asAgent.get(path(account, mine.id)),
      await asAgent.post(path(account), oneOff()),
      await asAgent.patch(path(account, mine.id), { title: 'x' }),
      await asAgent.delete(path(account, mine.id)),
    ]) {
      expect(res.status, res.text).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    for (const [method, url] of [
      ['GET', path(account)],
      ['POST', path(account)],
      ['GET', path(account, mine.id)],
      ['PATCH', path(account, mine.id)],
      ['DELETE', path(account, mine.id)],
    ] as const) {
      expect(
        (await call(t.app, { method, url, body: method === 'GET' || method === 'DELETE' ? undefined : oneOff() }))
          .status,
      ).toBe(401);
    }
    expect(await snapshot()).toEqual(before);
  });
});
