import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Metrics } from '../src/core/http/metrics.js';
import { newAccount, newInbox, type TestAccount } from './helpers/factories.js';
import { buildChatTestApp, buildFinanceTestApp, type ChatTestApp, type FinanceTestApp } from './helpers/test-app.js';

/** What every service answers the same way: its home page, request ids, CORS, metrics. */

let chat: ChatTestApp;
let finance: FinanceTestApp;
let account: TestAccount;
let inboxIdentifier: string;
const metrics = new Metrics();

beforeAll(async () => {
  chat = await buildChatTestApp({ CORS_ORIGINS: 'https://dashboard.example.test', METRICS: 'on' }, { metrics });
  finance = await buildFinanceTestApp({ CORS_ORIGINS: 'https://books.example.test' });
  account = await newAccount(chat);
  inboxIdentifier = (await newInbox(chat, account)).inbox_identifier!;
});
afterAll(async () => {
  await chat.close();
  await finance.close();
});

describe('the home page', () => {
  it('names the service and links to its documentation, on both services', async () => {
    for (const [app, name] of [
      [chat.app, 'Ponte conversation service'],
      [finance.app, 'Ponte finance service'],
    ] as const) {
      const res = await app.inject({ url: '/' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain(`<h1>${name}</h1>`);
      expect(res.body).toContain('href="docs"');
    }
  });

  it('sends a browser on to the dashboard (conversation service); the finance service has none yet', async () => {
    const accept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    const res = await chat.app.inject({ url: '/', headers: { accept } });
    expect(res.statusCode).toBe(302);
    // Relative, so that it also works behind a path prefix.
    expect(res.headers.location).toBe('app/');
    expect(res.headers.vary).toContain('Accept');
    expect((await finance.app.inject({ url: '/', headers: { accept } })).statusCode).toBe(200);
    // The dashboard's paths are the app's, not the API's 404.
    const login = await chat.app.inject({ url: '/app/login', headers: { accept } });
    expect(login.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(login.statusCode, 'dist/web is built by npm run build (the browser tests build it when stale)').toBe(200);
    expect(login.headers['content-security-policy']).toContain("script-src 'self'");
  });
});

describe('request ids', () => {
  it('keeps a plain X-Request-Id the caller sends, makes one otherwise, and answers it', async () => {
    const given = await chat.app.inject({ url: '/api', headers: { 'x-request-id': 'trace-42.a' } });
    expect(given.headers['x-request-id']).toBe('trace-42.a');
    const made = await finance.app.inject({ url: '/health' });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const odd = await chat.app.inject({ url: '/api', headers: { 'x-request-id': 'bad id with spaces' } });
    expect(odd.headers['x-request-id']).not.toBe('bad id with spaces');
    // Refusals carry it too.
    expect((await chat.app.inject({ url: '/nope', headers: { 'x-request-id': 'r1' } })).headers['x-request-id']).toBe(
      'r1',
    );
  });
});

describe('CORS', () => {
  const preflight = (app: ChatTestApp['app'], url: string, origin: string) =>
    app.inject({
      method: 'OPTIONS',
      url,
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });

  it('lets any origin call the public widget interface', async () => {
    const res = await preflight(
      chat.app,
      `/public/api/v1/inboxes/${inboxIdentifier}/contacts`,
      'https://shop.customer.test',
    );
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://shop.customer.test');
    const real = await chat.app.inject({
      method: 'POST',
      url: `/public/api/v1/inboxes/${inboxIdentifier}/contacts`,
      headers: { origin: 'https://shop.customer.test' },
      payload: {},
    });
    expect(real.statusCode).toBe(200);
    expect(real.headers['access-control-allow-origin']).toBe('https://shop.customer.test');
  });

  it('lets only CORS_ORIGINS call the rest of the API, on both services', async () => {
    const listed = await preflight(chat.app, `${account.path}/contacts`, 'https://dashboard.example.test');
    expect(listed.headers['access-control-allow-origin']).toBe('https://dashboard.example.test');
    expect(String(listed.headers['access-control-allow-headers'])).toContain('api_access_token');
    const other = await preflight(chat.app, `${account.path}/contacts`, 'https://evil.example.test');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const books = await preflight(finance.app, '/api/transactions', 'https://books.example.test');
    expect(books.headers['access-control-allow-origin']).toBe('https://books.example.test');
    expect(
      (await preflight(finance.app, '/api/transactions', 'https://dashboard.example.test')).headers[
        'access-control-allow-origin'
      ],
    ).toBeUndefined();
  });
});

describe('metrics (METRICS=on)', () => {
  it('serves request latency per route and the depth of the queues in Prometheus format', async () => {
    await chat.app.inject({ url: `${account.path}/inboxes`, headers: { api_access_token: account.admin.token } });
    const res = await chat.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toMatch(
      /ponte_http_request_duration_seconds_count\{service="chat",method="GET",route="\/api\/v1\/accounts\/:accountId\/inboxes",status_code="200"\} [1-9]/,
    );
    expect(res.body).toMatch(/ponte_outbox_pending_events\{service="chat"\} \d+/);
    expect(res.body).toMatch(/ponte_jobs_due\{service="chat"\} \d+/);
    // Off unless enabled.
    expect((await finance.app.inject({ url: '/metrics' })).statusCode).toBe(404);
  });
});
