import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_TTL_MS, signAccessToken } from '../src/finance/auth/access-token.js';
import type { FinanceDatabase } from '../src/finance/db/schema.js';
import {
  addFinanceMember,
  financeCall,
  newFinanceAccount,
  newFinanceBill,
  newFinanceContract,
  newFinanceInvoice,
  newFinanceNotifications,
  newFinanceTransaction,
  plantFinanceInvitation,
  type FinanceTestAccount,
  type FinanceTestUser,
} from './helpers/finance-factories.js';
import { buildFinanceTestApp, type FinanceTestApp } from './helpers/test-app.js';

/**
 * Every route of the finance service, taken from its own OpenAPI document, against the rules that
 * hold for all of them: 401 without a token or with an expired one; another account's id is a 404;
 * agents get 403 on administrator routes; a body of the wrong shape is a 422; every refusal uses the
 * envelope `{success: false, message, error: {code}}` and changes nothing in the database. A route
 * added without an entry in ROUTES fails the coverage test, so new routes are checked too.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Resource =
  | 'transactions'
  | 'bills'
  | 'invoices'
  | 'contracts'
  | 'webhooks'
  | 'notifications'
  | 'members'
  | 'invitations'
  | 'accounts';

interface RouteRule {
  /** Administrators only (agents 403). */
  admin?: boolean;
  /** No token needed. */
  public?: boolean;
  /** What the `{id}` / `{userId}` / `{accountId}` of the path names. */
  resource?: Resource;
  /** A valid body, so that only the id decides the answer (404). */
  validBody?: Record<string, unknown>;
}

const ROUTES: Record<string, RouteRule> = {
  'GET /api/auth/needs-setup': { public: true },
  'POST /api/auth/setup': { public: true },
  'POST /api/auth/register': { public: true },
  'POST /api/auth/login': { public: true },
  'POST /api/auth/refresh': { public: true },
  'POST /api/auth/forgot-password': { public: true },
  'POST /api/auth/reset-password': { public: true },
  'POST /api/auth/verify-email': { public: true },
  'POST /api/auth/verify-email/resend': {},
  'GET /api/auth/invitations/{token}': { public: true },
  'POST /api/auth/invitations/accept': { public: true },
  'GET /api/auth/me': {},
  'GET /api/auth/accounts': {},
  'POST /api/auth/switch-account': {},
  'PUT /api/auth/password': {},
  'GET /api/accounts/{accountId}': { resource: 'accounts' },
  'PUT /api/accounts/{accountId}': { admin: true, resource: 'accounts', validBody: { locale: 'pt-BR' } },
  'PATCH /api/accounts/{accountId}': { admin: true, resource: 'accounts', validBody: { locale: 'pt-BR' } },
  'GET /api/accounts/members': { admin: true },
  'POST /api/accounts/members': { admin: true },
  'PUT /api/accounts/members/{userId}': { admin: true, resource: 'members', validBody: { role: 'agent' } },
  'DELETE /api/accounts/members/{userId}': { admin: true, resource: 'members' },
  'GET /api/accounts/invitations': { admin: true },
  'POST /api/accounts/invitations/{id}/resend': { admin: true, resource: 'invitations' },
  'DELETE /api/accounts/invitations/{id}': { admin: true, resource: 'invitations' },
  'GET /api/email/smtp': { admin: true },
  'POST /api/email/smtp': { admin: true },
  'DELETE /api/email/smtp': { admin: true },
  'POST /api/email/smtp/test': { admin: true },
  'GET /api/transactions': {},
  'POST /api/transactions': {},
  'GET /api/transactions/{id}': { resource: 'transactions' },
  'PUT /api/transactions/{id}': { resource: 'transactions', validBody: { description: 'moved' } },
  'PATCH /api/transactions/{id}': { resource: 'transactions', validBody: { description: 'moved' } },
  'DELETE /api/transactions/{id}': { admin: true, resource: 'transactions' },
  'GET /api/bills': {},
  'POST /api/bills': {},
  'GET /api/bills/{id}': { resource: 'bills' },
  'PUT /api/bills/{id}': { resource: 'bills', validBody: { description: 'moved' } },
  'PATCH /api/bills/{id}': { resource: 'bills', validBody: { description: 'moved' } },
  'DELETE /api/bills/{id}': { admin: true, resource: 'bills' },
  'POST /api/bills/{id}/pay': { resource: 'bills' },
  'POST /api/bills/{id}/cancel': { resource: 'bills' },
  'GET /api/invoices': {},
  'POST /api/invoices': {},
  'GET /api/invoices/{id}': { resource: 'invoices' },
  'PUT /api/invoices/{id}': { resource: 'invoices', validBody: { description: 'moved' } },
  'PATCH /api/invoices/{id}': { resource: 'invoices', validBody: { description: 'moved' } },
  'DELETE /api/invoices/{id}': { admin: true, resource: 'invoices' },
  'POST /api/invoices/{id}/issue': { resource: 'invoices' },
  'POST /api/invoices/{id}/pay': { resource: 'invoices' },
  'POST /api/invoices/{id}/cancel': { resource: 'invoices' },
  'GET /api/contracts': {},
  'POST /api/contracts': {},
  'GET /api/contracts/{id}': { resource: 'contracts' },
  'PUT /api/contracts/{id}': { resource: 'contracts', validBody: { description: 'moved' } },
  'PATCH /api/contracts/{id}': { resource: 'contracts', validBody: { description: 'moved' } },
  'DELETE /api/contracts/{id}': { admin: true, resource: 'contracts' },
  'POST /api/contracts/{id}/cancel': { resource: 'contracts' },
  'GET /api/v1/webhooks': { admin: true },
  'POST /api/v1/webhooks': { admin: true },
  'GET /api/v1/webhooks/{id}': { admin: true, resource: 'webhooks' },
  'PATCH /api/v1/webhooks/{id}': { admin: true, resource: 'webhooks', validBody: { events: ['invoice.paid'] } },
  'DELETE /api/v1/webhooks/{id}': { admin: true, resource: 'webhooks' },
  'GET /api/v1/webhooks/{id}/deliveries': { admin: true, resource: 'webhooks' },
  'GET /api/notifications': {},
  'GET /api/notifications/unread-count': {},
  'POST /api/notifications/read-all': {},
  'DELETE /api/notifications/read': {},
  'GET /api/notifications/preferences': {},
  'PUT /api/notifications/preferences': {},
  'POST /api/notifications/run-daily-job': { admin: true },
  'POST /api/notifications/{id}/read': { resource: 'notifications' },
  'DELETE /api/notifications/{id}': { resource: 'notifications' },
  'GET /api/email/accountant': {},
  'POST /api/email/accountant': { admin: true },
  'DELETE /api/email/accountant': { admin: true },
  'POST /api/email/accountant/send': { admin: true },
};

interface Operation {
  key: string;
  method: Method;
  path: string;
  hasBody: boolean;
  bodySchema?: JsonSchema;
  queryNames: string[];
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
}

/** Every table that a request could change (rate-limit counters excepted: refused attempts count). */
const TABLES: (keyof FinanceDatabase)[] = [
  'users',
  'accounts',
  'memberships',
  'invitations',
  'refresh_tokens',
  'password_resets',
  'smtp_settings',
  'transactions',
  'bills',
  'invoices',
  'contracts',
  'webhooks',
  'webhook_deliveries',
  'notifications',
  'notification_preferences',
  'accountant_settings',
  'outbox_events',
  'outbox_retries',
  'outgoing_emails',
  'jobs',
];

let t: FinanceTestApp;
let operations: Operation[];
/** The account whose records the others try to reach, and the outsider. */
let owner: FinanceTestAccount;
let outsider: FinanceTestAccount;
let agent: FinanceTestUser;
let ids: Record<Resource, string>;

beforeAll(async () => {
  t = await buildFinanceTestApp();
  const doc = JSON.parse((await t.app.inject({ url: '/openapi.json' })).body) as {
    paths: Record<
      string,
      Record<
        string,
        {
          requestBody?: { content: Record<string, { schema: JsonSchema }> };
          parameters?: { in: string; name: string }[];
        }
      >
    >;
  };
  operations = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (path === '/health') continue;
    for (const [method, op] of Object.entries(ops)) {
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase() as Method,
        path,
        hasBody: op.requestBody !== undefined,
        bodySchema: op.requestBody?.content['application/json']?.schema,
        queryNames: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      });
    }
  }

  owner = await newFinanceAccount(t, { name: 'Owner Co' });
  outsider = await newFinanceAccount(t, { name: 'Outsider Co' });
  agent = await addFinanceMember(t, outsider, 'agent');
  const token = owner.admin.accessToken;
  const member = await addFinanceMember(t, owner, 'agent');
  const webhook = await financeCall(t.app, {
    method: 'POST',
    url: '/api/v1/webhooks',
    token,
    body: { url: 'https://hooks.example.com/f', events: ['invoice.paid'] },
  });
  expect(webhook.status).toBe(201);
  const [notification] = await newFinanceNotifications(t, owner.admin, [{ type: 'system' }]);
  await plantFinanceInvitation(t, owner, 'invitee@example.test', 'agent');
  const invitation = await t.db
    .selectFrom('invitations')
    .select('id')
    .where('account_id', '=', Number(owner.accountId))
    .executeTakeFirstOrThrow();
  ids = {
    transactions: (await newFinanceTransaction(t, token)).id,
    bills: (await newFinanceBill(t, token)).id,
    invoices: (await newFinanceInvoice(t, token, { status: 'issued' })).id,
    contracts: (await newFinanceContract(t, token)).id,
    webhooks: webhook.body.data.id,
    notifications: notification,
    members: member.id,
    invitations: String(invitation.id),
    accounts: String(owner.accountId),
  };
});

afterAll(async () => {
  await t.close();
});

/** Every row of every table, to prove a refused request changed nothing. */
async function dump(): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of TABLES) out[table] = await t.db.selectFrom(table).selectAll().execute();
  for (const rows of Object.values(out)) rows.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return out;
}

const url = (op: Operation, id = '1') => op.path.replace(/\{(id|userId|accountId)\}/, id);

function expectRefusal(res: { status: number; body: any }, status: number, what: string) {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status);
  expect(res.body, what).toMatchObject({
    success: false,
    message: expect.any(String),
    error: { code: expect.stringMatching(/^[a-z_]+$/) },
  });
  expect(res.body.message.length, what).toBeGreaterThan(0);
}

/** The JSON types a schema allows (through `type` and `anyOf`). */
function typesOf(schema: JsonSchema): Set<string> {
  const types = new Set<string>();
  const add = (type: string) => types.add(type === 'integer' ? 'number' : type);
  if (Array.isArray(schema.type)) schema.type.forEach(add);
  else if (schema.type) add(schema.type);
  for (const alternative of schema.anyOf ?? []) for (const type of typesOf(alternative)) types.add(type);
  return types;
}

/** A value of a JSON type the schema does not allow. */
function wrongValue(schema: JsonSchema): unknown {
  const allowed = typesOf(schema);
  const candidates: [string, unknown][] = [
    ['boolean', true],
    ['number', 12345],
    ['string', 'text'],
    ['array', [1, 2]],
    ['object', { a: 1 }],
  ];
  return candidates.find(([type]) => !allowed.has(type))![1];
}

describe('the finance routes', () => {
  it('are all listed here, and every listed route exists', () => {
    const documented = operations.map((op) => op.key).sort();
    expect(documented).toEqual(Object.keys(ROUTES).sort());
  });

  it('answer 401 with the envelope to a request without a token, an expired token or a forged one, and change nothing', async () => {
    const before = await dump();
    const claims = {
      userId: Number(owner.admin.id),
      accountId: Number(owner.accountId),
      role: 'admin' as const,
      tokenVersion: 0,
    };
    const { loadFinanceSecrets } = await import('../src/finance/app.js');
    const key = loadFinanceSecrets(t.config).jwtKey;
    const expired = await signAccessToken(key, claims, Date.now() - ACCESS_TOKEN_TTL_MS - 1000);
    const forged = await signAccessToken(new TextEncoder().encode('another-secret-0123456789-abcdefghij'), claims);
    let checked = 0;
    for (const op of operations.filter((o) => !ROUTES[o.key]?.public)) {
      for (const [label, token] of [
        ['no token', undefined],
        ['expired', expired],
        ['forged', forged],
      ] as const) {
        const res = await financeCall(t.app, {
          method: op.method,
          url: url(op, ids[ROUTES[op.key].resource ?? 'bills']),
          token,
          body: op.hasBody ? (ROUTES[op.key].validBody ?? {}) : undefined,
        });
        expectRefusal(res, 401, `${op.key} (${label})`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(150);
    expect(await dump()).toEqual(before);
  });

  it("answer 404 to another account's ids (the records stay as they were)", async () => {
    const before = await dump();
    const routes = operations.filter((op) => ROUTES[op.key]?.resource);
    expect(routes.length).toBeGreaterThan(25);
    for (const op of routes) {
      const rule = ROUTES[op.key];
      const res = await financeCall(t.app, {
        method: op.method,
        url: url(op, ids[rule.resource!]),
        token: outsider.admin.accessToken,
        body: op.hasBody ? (rule.validBody ?? {}) : undefined,
      });
      expectRefusal(res, 404, op.key);
    }
    expect(await dump()).toEqual(before);
    // The same ids answer the owner (so the 404s above are about the account, not the id).
    for (const resource of ['transactions', 'bills', 'invoices', 'contracts'] as const) {
      const res = await financeCall(t.app, {
        url: `/api/${resource}/${ids[resource]}`,
        token: owner.admin.accessToken,
      });
      expect(res.status).toBe(200);
    }
  });

  it('answer 403 to an agent on administrator routes, and change nothing', async () => {
    const before = await dump();
    const routes = operations.filter((op) => ROUTES[op.key]?.admin);
    expect(routes.length).toBeGreaterThan(15);
    for (const op of routes) {
      const rule = ROUTES[op.key];
      const res = await financeCall(t.app, {
        method: op.method,
        url: url(op, rule.resource === 'members' ? outsider.admin.id : '1'),
        token: agent.accessToken,
        body: op.hasBody ? (rule.validBody ?? {}) : undefined,
      });
      expectRefusal(res, 403, op.key);
    }
    expect(await dump()).toEqual(before);
  });

  it('answer 422 to a body of the wrong shape (empty, wrong types, not an object), and change nothing', async () => {
    const before = await dump();
    const routes = operations.filter((op) => op.hasBody);
    expect(routes.length).toBeGreaterThan(20);
    for (const op of routes) {
      const rule = ROUTES[op.key];
      const properties = op.bodySchema?.properties ?? {};
      const wrongTypes = Object.fromEntries(
        Object.entries(properties).map(([name, schema]) => [name, wrongValue(schema)]),
      );
      expect(Object.keys(wrongTypes).length, op.key).toBeGreaterThan(0);
      const token = rule.public ? undefined : owner.admin.accessToken;
      const target = url(op, ids[rule.resource ?? 'bills']);
      for (const [label, body] of [
        ['empty', {}],
        ['wrong types', wrongTypes],
        ['a list', [1, 2]],
      ] as const) {
        const res = await financeCall(t.app, { method: op.method, url: target, token, body });
        expectRefusal(res, 422, `${op.key} (${label})`);
      }
    }
    expect(await dump()).toEqual(before);
  });

  it('answer 422 to out-of-range paging and non-numeric ids, and change nothing', async () => {
    const before = await dump();
    const paged = operations.filter((op) => op.method === 'GET' && op.queryNames.includes('page'));
    expect(paged.length).toBeGreaterThan(6);
    for (const op of paged) {
      const target = url(op, ids[ROUTES[op.key].resource ?? 'bills']);
      for (const query of ['page=0', 'page=abc', 'limit=0', 'limit=100000']) {
        const res = await financeCall(t.app, { url: `${target}?${query}`, token: owner.admin.accessToken });
        expectRefusal(res, 422, `${op.key}?${query}`);
      }
    }
    for (const op of operations.filter((o) => ROUTES[o.key]?.resource)) {
      const rule = ROUTES[op.key];
      for (const id of ['abc', '-1', '99999999999999999999999']) {
        const res = await financeCall(t.app, {
          method: op.method,
          url: url(op, id),
          token: owner.admin.accessToken,
          body: op.hasBody ? (rule.validBody ?? {}) : undefined,
        });
        expect([404, 422], `${op.key} with id ${id}: ${res.status}`).toContain(res.status);
        expectRefusal(res, res.status, `${op.key} with id ${id}`);
      }
    }
    expect(await dump()).toEqual(before);
  });
});

describe('JSON bodies', () => {
  it('an empty body sent as application/json is no body: fine where none is needed, 422 where one is', async () => {
    const send = (method: Method, path: string) =>
      t.app.inject({
        method,
        url: path,
        headers: { authorization: `Bearer ${owner.admin.accessToken}`, 'content-type': 'application/json' },
        payload: '',
      });
    const readAll = await send('POST', '/api/notifications/read-all');
    expect(readAll.statusCode).toBe(200);
    const before = await dump();
    const create = await send('POST', '/api/transactions');
    expect(create.statusCode).toBe(422);
    expect(create.json()).toMatchObject({ success: false, error: { code: 'validation_failed' } });
    expect(await dump()).toEqual(before);
  });

  it('malformed JSON is a 400 with the envelope, and changes nothing', async () => {
    const before = await dump();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/transactions',
      headers: { authorization: `Bearer ${owner.admin.accessToken}`, 'content-type': 'application/json' },
      payload: '{"kind": "income", ',
    });
    expectRefusal({ status: res.statusCode, body: res.json() }, 400, 'malformed JSON');
    expect(await dump()).toEqual(before);
  });
});
