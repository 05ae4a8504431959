import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { newAccount, newAgent, newUser, type TestAccount, type TestUser } from '../../../test/helpers/factories.js';
import { countRows } from '../../../test/helpers/db.js';
import { call, client } from '../../../test/helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from '../../../test/helpers/test-app.js';
import { MAX_SESSIONS_PER_USER, SESSION_LIFETIME_MS } from './sessions.js';

/**
 * Sign-in as Chatwoot's dashboard and mobile app do it (devise_token_auth): POST /auth/sign_in
 * answers the devise-token headers, and those headers authenticate every route as api_access_token does.
 */
const PASSWORD = 'correct horse battery';
let t: ChatTestApp;
let account: TestAccount;

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
});
afterAll(async () => {
  await t.close();
});
afterEach(() => {
  vi.useRealTimers();
});

async function signIn(user: TestUser) {
  const res = await call(t.app, {
    method: 'POST',
    url: '/auth/sign_in',
    body: { email: user.email, password: PASSWORD },
  });
  expect(res.status, res.text).toBe(200);
  const h = res.headers as Record<string, string>;
  return { res, headers: { 'access-token': h['access-token'], client: h.client, uid: h.uid } };
}

describe('POST /auth/sign_in', () => {
  it('answers the devise-token headers and the user with its access_token', async () => {
    const before = Date.now();
    const { res } = await signIn(account.admin);
    const h = res.headers as Record<string, string>;
    expect(h['access-token']).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(h.client).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(h.uid).toBe(account.admin.email);
    expect(h['token-type']).toBe('Bearer');
    const expiry = Number(h.expiry) * 1000;
    expect(expiry).toBeGreaterThanOrEqual(Math.floor((before + SESSION_LIFETIME_MS) / 1000) * 1000);
    expect(expiry).toBeLessThanOrEqual(Date.now() + SESSION_LIFETIME_MS);
    expect(res.body.data).toMatchObject({
      id: account.admin.id,
      uid: account.admin.email,
      email: account.admin.email,
      provider: 'email',
      access_token: account.admin.token,
      pubsub_token: expect.any(String),
      account_id: account.id,
      accounts: [{ id: account.id, role: 'administrator' }],
    });
    // The session's token is its own, not the API token, and is stored only as a hash.
    expect(h['access-token']).not.toBe(account.admin.token);
    const rows = await t.db.selectFrom('user_sessions').selectAll().where('client', '=', h.client).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).not.toContain(h['access-token']);
  });

  it('opens no session for a refused sign-in', async () => {
    const before = await countRows(t.db, 'user_sessions');
    const res = await call(t.app, {
      method: 'POST',
      url: '/auth/sign_in',
      body: { email: account.admin.email, password: 'wrong password' },
    });
    expect(res.status).toBe(401);
    expect(res.headers['access-token']).toBeUndefined();
    expect(await countRows(t.db, 'user_sessions')).toBe(before);
  });
});

describe('devise-token headers on every route', () => {
  it('authenticate the profile and account routes, with the role of the membership', async () => {
    const { headers } = await signIn(account.admin);
    const profile = await call(t.app, { url: '/api/v1/profile', headers });
    expect(profile.status).toBe(200);
    expect(profile.body.id).toBe(account.admin.id);
    const inbox = await call(t.app, {
      method: 'POST',
      url: `${account.path}/inboxes`,
      headers,
      body: { name: 'From the app', channel: { type: 'api' } },
    });
    expect(inbox.status).toBe(200);
    expect((await call(t.app, { url: `${account.path}/conversations`, headers })).status).toBe(200);

    const agent = await newAgent(t, account);
    const agentHeaders = (await signIn(agent)).headers;
    expect((await call(t.app, { url: `${account.path}/agents`, headers: agentHeaders })).status).toBe(200);
    const refused = await call(t.app, { url: `${account.path}/webhooks`, headers: agentHeaders });
    expect(refused.status).toBe(403);
    // Another account does not exist for this user.
    const other = await newAccount(t, 'Other');
    expect((await call(t.app, { url: `${other.path}/conversations`, headers })).status).toBe(404);
  });

  it('answer 401 for a wrong token, another uid, an unknown client or a missing header', async () => {
    const { headers } = await signIn(account.admin);
    const someone = await newUser(t);
    const token = headers['access-token'];
    // One character changed (never to itself: a token ending in x stays wrong).
    const wrong = `${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}`;
    const variants: Record<string, string>[] = [
      { ...headers, 'access-token': wrong },
      { ...headers, uid: someone.email },
      { ...headers, client: 'unknown-client-id' },
      { client: headers.client, uid: headers.uid },
      { 'access-token': headers['access-token'], uid: headers.uid },
      { 'access-token': headers['access-token'], client: headers.client },
    ];
    for (const h of variants) {
      const res = await call(t.app, { url: `${account.path}/conversations`, headers: h });
      expect(res.status, JSON.stringify(Object.keys(h))).toBe(401);
      expect(res.body).toMatchObject({ code: 'unauthorized', error: expect.any(String) });
    }
    // The uid compares without regard to case, as e-mails do.
    const upper = { ...headers, uid: headers.uid.toUpperCase() };
    expect((await call(t.app, { url: '/api/v1/profile', headers: upper })).status).toBe(200);
    // An api_access_token, when sent, decides alone.
    const both = { ...headers, api_access_token: 'not-a-token-at-all' };
    expect((await call(t.app, { url: '/api/v1/profile', headers: both })).status).toBe(401);
    // A session is a user's, never a platform app's.
    expect((await call(t.app, { url: '/platform/api/v1/agent_bots', headers })).status).toBe(401);
  });

  it('lapse after 60 days', async () => {
    const { headers } = await signIn(account.admin);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + SESSION_LIFETIME_MS - 60_000);
    expect((await call(t.app, { url: '/api/v1/profile', headers })).status).toBe(200);
    vi.setSystemTime(Date.now() + 120_000);
    expect((await call(t.app, { url: '/api/v1/profile', headers })).status).toBe(401);
    // The API token does not lapse.
    expect((await client(t.app, account.admin.token).get('/api/v1/profile')).status).toBe(200);
  });
});

describe('ending sessions', () => {
  it('DELETE /auth/sign_out ends the session it is called with, and only that one', async () => {
    const user = await newUser(t);
    const phone = (await signIn(user)).headers;
    const tablet = (await signIn(user)).headers;
    const out = await call(t.app, { method: 'DELETE', url: '/auth/sign_out', headers: phone });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true });
    expect((await call(t.app, { url: '/api/v1/profile', headers: phone })).status).toBe(401);
    expect((await call(t.app, { url: '/api/v1/profile', headers: tablet })).status).toBe(200);
    // With the API token there is no session to end; the token keeps working.
    const api = await call(t.app, { method: 'DELETE', url: '/auth/sign_out', token: user.token });
    expect(api.status).toBe(200);
    expect((await call(t.app, { url: '/api/v1/profile', headers: tablet })).status).toBe(200);
    expect((await client(t.app, user.token).get('/api/v1/profile')).status).toBe(200);
    expect((await call(t.app, { method: 'DELETE', url: '/auth/sign_out' })).status).toBe(401);
  });

  it(`keeps at most ${MAX_SESSIONS_PER_USER} sessions per user, the oldest going first`, async () => {
    const user = await newUser(t);
    vi.useFakeTimers({ toFake: ['Date'] });
    const sessions = [];
    // Spread over minutes: sign-in is rate limited per e-mail.
    for (let i = 0; i <= MAX_SESSIONS_PER_USER; i++) {
      vi.setSystemTime(Date.now() + 61_000);
      sessions.push((await signIn(user)).headers);
    }
    const statuses = [];
    for (const headers of sessions) statuses.push((await call(t.app, { url: '/api/v1/profile', headers })).status);
    expect(statuses).toEqual([401, ...Array(MAX_SESSIONS_PER_USER).fill(200)]);
  });

  it('a new password ends every session, the API token stays', async () => {
    const user = await newUser(t);
    const { headers } = await signIn(user);
    const changed = await client(t.app, t.platformToken).patch(`/platform/api/v1/users/${user.id}`, {
      password: 'another long password',
    });
    expect(changed.status).toBe(200);
    expect((await call(t.app, { url: '/api/v1/profile', headers })).status).toBe(401);
    expect((await client(t.app, user.token).get('/api/v1/profile')).status).toBe(200);
  });
});
