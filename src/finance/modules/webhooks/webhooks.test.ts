import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFinanceTestApp, type FinanceTestApp } from '../../../../test/helpers/test-app.js';
import {
  addFinanceMember,
  countFinanceRows,
  financeCall,
  financeClient,
  financePatch,
  newFinanceAccount,
  type FinanceTestAccount,
} from '../../../../test/helpers/finance-factories.js';

let t: FinanceTestApp;
let acme: FinanceTestAccount;
let other: FinanceTestAccount;
beforeAll(async () => {
  // 127.0.0.1 is allowed as in the delivery tests; other private addresses stay refused.
  t = await buildFinanceTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  acme = await newFinanceAccount(t);
  other = await newFinanceAccount(t);
});
afterAll(async () => {
  await t.close();
});

const P = '/api/v1/webhooks';
const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const ALL = [
  'transaction.created',
  'transaction.updated',
  'invoice.created',
  'invoice.paid',
  'invoice.overdue',
  'contract.created',
  'contract.cancelled',
];

async function register(account: FinanceTestAccount, body: unknown) {
  const res = await financeClient(t.app, account.admin.accessToken).post(P, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

describe('POST /api/v1/webhooks', () => {
  it('registers a webhook and shows its secret only in this answer', async () => {
    const res = await financeClient(t.app, acme.admin.accessToken).post(P, {
      url: 'https://hooks.example.com/finance',
      events: ['invoice.paid', 'invoice.created', 'invoice.paid'],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      message: 'Webhook registered: keep the secret, it is not shown again',
      data: {
        id: expect.stringMatching(/^\d+$/),
        url: 'https://hooks.example.com/finance',
        events: ['invoice.paid', 'invoice.created'],
        secret: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/),
        createdAt: iso,
        updatedAt: iso,
      },
    });
    const { secret, ...shown } = res.body.data;
    const get = await financeClient(t.app, acme.admin.accessToken).get(`${P}/${res.body.data.id}`);
    expect(get.body).toEqual({ success: true, data: shown });
    expect(JSON.stringify(get.body)).not.toContain(secret);
    const all = await register(acme, { url: 'http://127.0.0.1:9/all', events: ALL });
    expect(all.events).toEqual(ALL);
  });

  it('refuses unknown events (naming each), bad URLs and bad shapes with 422, creating nothing', async () => {
    const before = await countFinanceRows(t.db, 'webhooks');
    const unknown = await financeClient(t.app, acme.admin.accessToken).post(P, {
      url: 'https://x.example.com',
      events: ['invoice.paid', 'bill.paid', 'message_created'],
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({
      success: false,
      message: expect.stringMatching(/^Unknown webhook events: bill\.paid, message_created/),
      error: {
        code: 'unprocessable_entity',
        details: [
          { field: 'events', message: 'bill.paid is not a webhook event' },
          { field: 'events', message: 'message_created is not a webhook event' },
        ],
      },
    });
    const cases: [unknown, string][] = [
      [{ url: 'ftp://files.example.com/x', events: ['invoice.paid'] }, 'url'],
      [{ url: 'not a url', events: ['invoice.paid'] }, 'url'],
      [{ url: 'http://10.0.0.5/hook', events: ['invoice.paid'] }, 'url'],
      [{ url: 'http://169.254.169.254/latest', events: ['invoice.paid'] }, 'url'],
      [{ url: 'http://localhost:8080/', events: ['invoice.paid'] }, 'url'],
      [{ url: `https://x.example.com/${'a'.repeat(2048)}`, events: ['invoice.paid'] }, 'url'],
      [{ events: ['invoice.paid'] }, 'url'],
      [{ url: 'https://x.example.com' }, 'events'],
      [{ url: 'https://x.example.com', events: [] }, 'events'],
      [{ url: 'https://x.example.com', events: 'invoice.paid' }, 'events'],
      [{ url: 42, events: ['invoice.paid'] }, 'url'],
    ];
    for (const [body, field] of cases) {
      const res = await financeClient(t.app, acme.admin.accessToken).post(P, body);
      expect(res.status, JSON.stringify(body).slice(0, 100)).toBe(422);
      expect(res.body.success).toBe(false);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect(await countFinanceRows(t.db, 'webhooks')).toBe(before);
  });
});

describe('GET, PATCH and DELETE /api/v1/webhooks', () => {
  it("lists only the account's webhooks, paginated, without secrets", async () => {
    const account = await newFinanceAccount(t);
    const a = await register(account, { url: 'https://a.example.com', events: ['invoice.paid'] });
    const b = await register(account, { url: 'https://b.example.com', events: ['contract.created'] });
    await register(other, { url: 'https://other.example.com', events: ['invoice.paid'] });
    const strip = ({ secret: _secret, ...w }: { secret: string }) => w;
    const res = await financeClient(t.app, account.admin.accessToken).get(P);
    expect(res.body).toEqual({ success: true, data: { items: [strip(a), strip(b)], total: 2, page: 1, limit: 20 } });
    const page2 = await financeClient(t.app, account.admin.accessToken).get(`${P}?limit=1&page=2`);
    expect(page2.body.data).toEqual({ items: [strip(b)], total: 2, page: 2, limit: 1 });
    expect((await financeClient(t.app, account.admin.accessToken).get(`${P}?limit=101`)).status).toBe(422);
  });

  it('updates url and events (validated the same way); the secret stays', async () => {
    const hook = await register(acme, { url: 'https://a.example.com', events: ['invoice.paid'] });
    const res = await financePatch(t.app, acme.admin.accessToken, `${P}/${hook.id}`, {
      events: ['contract.cancelled', 'invoice.overdue'],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: 'Webhook updated',
      data: {
        id: hook.id,
        url: hook.url,
        events: ['contract.cancelled', 'invoice.overdue'],
        createdAt: hook.createdAt,
        updatedAt: iso,
      },
    });
    const stored = await t.db
      .selectFrom('webhooks')
      .selectAll()
      .where('id', '=', Number(hook.id))
      .executeTakeFirstOrThrow();
    expect(stored.secret).toBe(hook.secret);
    for (const body of [{}, { events: ['nope'] }, { url: 'http://192.168.1.1/' }]) {
      expect(
        (await financePatch(t.app, acme.admin.accessToken, `${P}/${hook.id}`, body)).status,
        JSON.stringify(body),
      ).toBe(422);
    }
    expect(
      await t.db.selectFrom('webhooks').selectAll().where('id', '=', Number(hook.id)).executeTakeFirstOrThrow(),
    ).toEqual(stored);
  });

  it('deletes a webhook; its deliveries log is then 404', async () => {
    const hook = await register(acme, { url: 'https://a.example.com', events: ['invoice.paid'] });
    const deliveries = await financeClient(t.app, acme.admin.accessToken).get(`${P}/${hook.id}/deliveries`);
    expect(deliveries.body).toEqual({ success: true, data: { items: [], page: 1, limit: 20 } });
    const res = await financeClient(t.app, acme.admin.accessToken).delete(`${P}/${hook.id}`);
    expect(res.body).toEqual({ success: true, data: null, message: 'Webhook deleted' });
    expect((await financeClient(t.app, acme.admin.accessToken).get(`${P}/${hook.id}`)).status).toBe(404);
    expect((await financeClient(t.app, acme.admin.accessToken).get(`${P}/${hook.id}/deliveries`)).status).toBe(404);
    expect((await financeClient(t.app, acme.admin.accessToken).delete(`${P}/${hook.id}`)).status).toBe(404);
  });
});

describe('access', () => {
  it('is for administrators: agents get 403 on every route, changing nothing', async () => {
    const agent = await addFinanceMember(t, acme, 'agent');
    const hook = await register(acme, { url: 'https://a.example.com', events: ['invoice.paid'] });
    const before = await countFinanceRows(t.db, 'webhooks');
    const calls = [
      ['GET', P],
      ['POST', P, { url: 'https://b.example.com', events: ['invoice.paid'] }],
      ['GET', `${P}/${hook.id}`],
      ['PATCH', `${P}/${hook.id}`, { events: ['invoice.created'] }],
      ['DELETE', `${P}/${hook.id}`],
      ['GET', `${P}/${hook.id}/deliveries`],
    ] as const;
    for (const [method, url, body] of calls) {
      const res = await financeCall(t.app, { method, url, token: agent.accessToken, body });
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body).toMatchObject({ success: false, error: { code: 'forbidden' } });
    }
    expect(await countFinanceRows(t.db, 'webhooks')).toBe(before);
  });

  it("answers 404 for another account's webhook on every route, and 401 without a token", async () => {
    const theirs = await register(other, { url: 'https://theirs.example.com', events: ['invoice.paid'] });
    const url = `${P}/${theirs.id}`;
    for (const [method, path, body] of [
      ['GET', url],
      ['PATCH', url, { events: ['invoice.created'] }],
      ['DELETE', url],
      ['GET', `${url}/deliveries`],
    ] as const) {
      const res = await financeCall(t.app, { method, url: path, token: acme.admin.accessToken, body });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'not_found' } });
    }
    const stored = await t.db
      .selectFrom('webhooks')
      .selectAll()
      .where('id', '=', Number(theirs.id))
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.subscriptions)).toEqual(['invoice.paid']);
    for (const [method, path] of [
      ['GET', P],
      ['POST', P],
      ['GET', url],
      ['PATCH', url],
      ['DELETE', url],
      ['GET', `${url}/deliveries`],
    ] as const) {
      expect((await financeCall(t.app, { method, url: path })).status, `${method} ${path}`).toBe(401);
    }
  });
});
