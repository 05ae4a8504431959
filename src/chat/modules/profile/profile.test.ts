import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { call, client } from '../../../../test/helpers/http.js';
import { newAccount } from '../../../../test/helpers/factories.js';

let t: ChatTestApp;
beforeAll(async () => {
  t = await buildChatTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('GET /api and /health', () => {
  it('answers /api without authentication', async () => {
    const res = await call(t.app, { url: '/api' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: expect.any(String), queue_services: 'ok', data_services: 'ok' });
    expect(Number.isNaN(Date.parse(res.body.timestamp))).toBe(false);
  });

  it('answers /health', async () => {
    expect((await call(t.app, { url: '/health' })).body).toEqual({ status: 'ok' });
  });

  it('serves the OpenAPI document and the docs page', async () => {
    const doc = await call(t.app, { url: '/openapi.json' });
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(Object.keys(doc.body.paths)).toContain('/api/v1/accounts/{accountId}/inboxes');
    const page = await call(t.app, { url: '/docs/' });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html');
  });

  it('answers an unknown route with the JSON error body', async () => {
    const res = await call(t.app, { url: '/api/v1/nowhere' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found', error: expect.any(String) });
  });
});

describe('GET /api/v1/profile', () => {
  it('returns the user with tokens and accounts, with every header spelling', async () => {
    const account = await newAccount(t);
    const token = account.admin.token;
    const spellings: Record<string, string>[] = [
      { api_access_token: token },
      { 'Api-Access-Token': token },
      { authorization: `Bearer ${token}` },
    ];
    for (const headers of spellings) {
      const res = await call(t.app, { url: '/api/v1/profile', headers });
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(res.body).toMatchObject({
        id: account.admin.id,
        email: account.admin.email,
        access_token: token,
        pubsub_token: expect.any(String),
        accounts: [{ id: account.id, name: 'Acme', role: 'administrator' }],
      });
    }
  });

  it('tolerates a trailing slash', async () => {
    const account = await newAccount(t);
    expect((await client(t.app, account.admin.token).get('/api/v1/profile/')).status).toBe(200);
  });

  it('answers 401 without or with a bad token', async () => {
    expect((await call(t.app, { url: '/api/v1/profile' })).status).toBe(401);
    expect((await call(t.app, { url: '/api/v1/profile', headers: { authorization: 'Bearer nope' } })).body.code).toBe(
      'unauthorized',
    );
  });
});
