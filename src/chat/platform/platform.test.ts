import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../test/helpers/test-app.js';
import { call, client } from '../../../test/helpers/http.js';
import { newAccount, newUser } from '../../../test/helpers/factories.js';
import { sha256Hex } from '../../core/security/tokens.js';

let t: ChatTestApp;
beforeAll(async () => {
  t = await buildChatTestApp();
});
afterAll(async () => {
  await t.close();
});

const P = '/platform/api/v1';

describe('platform accounts', () => {
  it('creates, shows, updates and deletes an account', async () => {
    const api = client(t.app, t.platformToken);
    const created = await api.post(`${P}/accounts`, {
      name: 'Globex',
      locale: 'pt_BR',
      domain: 'globex.test',
      support_email: 'help@globex.test',
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      name: 'Globex',
      locale: 'pt_BR',
      domain: 'globex.test',
      support_email: 'help@globex.test',
      status: 'active',
    });
    expect(typeof created.body.id).toBe('number');
    expect(new Date(created.body.created_at).toISOString()).toBe(created.body.created_at);

    const shown = await api.get(`${P}/accounts/${created.body.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({
      id: created.body.id,
      name: 'Globex',
      locale: 'pt_BR',
      domain: 'globex.test',
      status: 'active',
    });

    const patched = await api.patch(`${P}/accounts/${created.body.id}`, {
      auto_resolve_duration: 60,
      name: 'Globex 2',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Globex 2', auto_resolve_duration: 60 });

    expect((await api.delete(`${P}/accounts/${created.body.id}`)).status).toBe(200);
    expect((await api.get(`${P}/accounts/${created.body.id}`)).status).toBe(404);
  });

  it('accepts a body wrapped in the resource key', async () => {
    const res = await client(t.app, t.platformToken).post(`${P}/accounts`, { account: { name: 'Wrapped' } });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Wrapped');
  });

  it('rejects bad input with 422 and the error body, creating nothing', async () => {
    const api = client(t.app, t.platformToken);
    const before = await t.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    for (const body of [
      {},
      { name: '' },
      { name: 42 },
      { name: 'x'.repeat(300) },
      { name: 'ok', locale: 'not a locale' },
      { name: 'ok', support_email: 'nope' },
    ]) {
      const res = await api.post(`${P}/accounts`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_failed', error: expect.any(String) });
      expect(res.body.details.length).toBeGreaterThan(0);
    }
    const after = await t.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('answers 400 to malformed JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${P}/accounts`,
      headers: { api_access_token: t.platformToken, 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'malformed_body' });
  });

  it('takes an empty JSON body as no body (422 naming the missing field, not 400), and refuses __proto__ keys', async () => {
    const send = (payload: string) =>
      t.app.inject({
        method: 'POST',
        url: `${P}/accounts`,
        headers: { api_access_token: t.platformToken, 'content-type': 'application/json' },
        payload,
      });
    const empty = await send('');
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toMatchObject({ code: 'validation_failed' });
    const poisoned = await send('{"name": "x", "__proto__": {"admin": true}}');
    expect(poisoned.statusCode).toBe(400);
    expect(poisoned.json()).toMatchObject({ code: 'malformed_body' });
  });

  it('keeps only the SHA-256 of a platform token; the hash itself is no token', async () => {
    const rows = await t.db
      .selectFrom('access_tokens')
      .select('token')
      .where('owner_type', '=', 'PlatformApp')
      .execute();
    expect(rows.map((r) => r.token)).toContain(sha256Hex(t.platformToken));
    expect(rows.map((r) => r.token)).not.toContain(t.platformToken);
    const api = client(t.app, t.platformToken);
    expect((await api.post(`${P}/accounts`, { name: 'By the token' })).status).toBe(200);
    const byHash = await client(t.app, sha256Hex(t.platformToken)).post(`${P}/accounts`, { name: 'By the hash' });
    expect(byHash.status).toBe(401);
  });

  it('requires a platform token (401), and a user token is not one', async () => {
    expect((await call(t.app, { method: 'POST', url: `${P}/accounts`, body: { name: 'x' } })).status).toBe(401);
    const user = await newUser(t);
    expect((await client(t.app, user.token).post(`${P}/accounts`, { name: 'x' })).status).toBe(401);
    expect((await client(t.app, 'not-a-token').post(`${P}/accounts`, { name: 'x' })).status).toBe(401);
  });

  it('an app manages only what it created', async () => {
    const account = await newAccount(t);
    // A second platform app: registered through the bootstrap path with another token.
    const { ensurePlatformApp } = await import('./platform.bootstrap.js');
    const otherToken = 'other-platform-app-token-123456';
    await ensurePlatformApp(t.db, otherToken);
    const other = client(t.app, otherToken);
    const refused = await other.get(`${P}/accounts/${account.id}`);
    expect(refused.status).toBe(404);
    // The 404 says why, in the same words whether the account exists or not.
    expect(refused.body).toEqual({
      code: 'not_found',
      error:
        "Account not found for this platform app: an app manages only the accounts it created (those made with cli.js belong to the installation's first platform app)",
    });
    expect((await other.get(`${P}/accounts/99999999`)).body).toEqual(refused.body);
    expect((await other.get(`${P}/users/${account.admin.id}`)).body.error).toMatch(
      /^User not found for this platform app/,
    );
    expect((await other.patch(`${P}/accounts/${account.id}`, { name: 'stolen' })).status).toBe(404);
    expect((await other.delete(`${P}/accounts/${account.id}`)).status).toBe(404);
    expect((await other.get(`${P}/users/${account.admin.id}`)).status).toBe(404);
    expect((await other.get(`${P}/accounts/${account.id}/account_users`)).status).toBe(404);
    expect((await client(t.app, t.platformToken).get(`${P}/accounts/${account.id}`)).body.name).toBe('Acme');
  });

  it('PATCH writes only the editable fields: id, created_at and unknown keys are ignored (security review: mass assignment)', async () => {
    const api = client(t.app, t.platformToken);
    const account = await newAccount(t);
    const before = await t.db.selectFrom('accounts').selectAll().where('id', '=', account.id).executeTakeFirstOrThrow();
    for (const body of [
      { id: 999999 },
      { created_at: 'not-a-time' },
      { created_at: 0 },
      { nonexistent_column: 1 },
      { id: 'x', last_conversation_display_id: 77 },
    ]) {
      const res = await api.patch(`${P}/accounts/${account.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.body.id).toBe(account.id);
    }
    const after = await t.db.selectFrom('accounts').selectAll().where('id', '=', account.id).executeTakeFirstOrThrow();
    expect({ ...after, updated_at: before.updated_at }).toEqual(before);
    expect((await api.get(`${P}/accounts/${account.id}`)).status).toBe(200);
    const renamed = await api.patch(`${P}/accounts/${account.id}`, { name: 'Renamed', id: 1, created_at: 1 });
    expect(renamed.body).toMatchObject({
      id: account.id,
      name: 'Renamed',
      created_at: new Date(Number(before.created_at)).toISOString(),
    });
  });
});

describe('platform users and account users', () => {
  it('creates a user with an access token; the same e-mail from the same app returns the same user', async () => {
    const api = client(t.app, t.platformToken);
    const res = await api.post(`${P}/users`, {
      name: 'Ana',
      email: 'Ana@Example.test',
      password: 'secret1',
      custom_attributes: { plan: 'x' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Ana',
      email: 'ana@example.test',
      custom_attributes: { plan: 'x' },
      accounts: [],
    });
    expect(res.body.access_token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const again = await api.post(`${P}/users`, { name: 'Other', email: 'ana@example.test', password: 'secret1' });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(res.body.id);
    expect(again.body.name).toBe('Ana');

    const shown = await api.get(`${P}/users/${res.body.id}`);
    expect(shown.body.access_token).toBe(res.body.access_token);
    const patched = await api.patch(`${P}/users/${res.body.id}`, { name: 'Ana Maria' });
    expect(patched.body.name).toBe('Ana Maria');
  });

  it("never hands another app's user (or any user it did not create) to an app: 409, no token (security review)", async () => {
    const { ensurePlatformApp } = await import('./platform.bootstrap.js');
    const otherToken = 'third-platform-app-token-abcdef';
    await ensurePlatformApp(t.db, otherToken);
    const mine = client(t.app, t.platformToken);
    const other = client(t.app, otherToken);
    const victim = await mine.post(`${P}/users`, { name: 'Victim', email: 'victim@example.test', password: 'secret1' });
    expect(victim.status).toBe(200);
    const grantsBefore = await t.db.selectFrom('platform_app_permissibles').selectAll().execute();
    const stolen = await other.post(`${P}/users`, { name: 'X', email: 'VICTIM@example.test', password: 'attacker1' });
    expect(stolen.status).toBe(409);
    expect(stolen.body).toMatchObject({ code: 'conflict', details: [{ field: 'email' }] });
    expect(JSON.stringify(stolen.body)).not.toContain(victim.body.access_token);
    expect(await t.db.selectFrom('platform_app_permissibles').selectAll().execute()).toEqual(grantsBefore);
    // Nor can it manage the user afterwards: password change, SSO link, delete are 404.
    expect((await other.patch(`${P}/users/${victim.body.id}`, { password: 'attacker1' })).status).toBe(404);
    expect((await other.get(`${P}/users/${victim.body.id}/login`)).status).toBe(404);
    expect((await other.delete(`${P}/users/${victim.body.id}`)).status).toBe(404);
    // A user an account administrator created (an agent) is not any app's to take either.
    const account = await newAccount(t);
    const agent = await client(t.app, account.admin.token).post(`${account.path}/agents`, {
      name: 'Agent A',
      email: 'agent-a@example.test',
      role: 'agent',
    });
    expect(agent.status).toBe(200);
    expect(
      (await mine.post(`${P}/users`, { name: 'A', email: 'agent-a@example.test', password: 'secret1' })).status,
    ).toBe(409);
  });

  it('refuses a short password and a duplicate e-mail on update', async () => {
    const api = client(t.app, t.platformToken);
    expect((await api.post(`${P}/users`, { name: 'B', email: 'b@example.test', password: '12345' })).status).toBe(422);
    const a = await newUser(t);
    const b = await newUser(t);
    const res = await api.patch(`${P}/users/${b.id}`, { email: a.email });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('conflict');
  });

  it('links users to accounts and removes them', async () => {
    const api = client(t.app, t.platformToken);
    const account = await newAccount(t);
    const user = await newUser(t);
    const added = await api.post(`${P}/accounts/${account.id}/account_users`, { user_id: user.id, role: 'agent' });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ account_id: account.id, user_id: user.id, role: 'agent' });
    const list = await api.get(`${P}/accounts/${account.id}/account_users`);
    expect(list.body.data.map((m: { user_id: number }) => m.user_id).sort()).toEqual(
      [account.admin.id, user.id].sort(),
    );
    expect((await client(t.app, user.token).get(`${account.path}/inboxes`)).status).toBe(200);

    const removed = await api.delete(`${P}/accounts/${account.id}/account_users`, { user_id: user.id });
    expect(removed.status).toBe(200);
    expect((await client(t.app, user.token).get(`${account.path}/inboxes`)).status).toBe(404);
    expect((await api.delete(`${P}/accounts/${account.id}/account_users`, { user_id: user.id })).status).toBe(404);
    expect(
      (await api.post(`${P}/accounts/${account.id}/account_users`, { user_id: user.id, role: 'owner' })).status,
    ).toBe(422);
  });

  it('deletes a user and their token stops working', async () => {
    const api = client(t.app, t.platformToken);
    const user = await newUser(t);
    expect((await client(t.app, user.token).get('/api/v1/profile')).status).toBe(200);
    expect((await api.delete(`${P}/users/${user.id}`)).status).toBe(200);
    expect((await client(t.app, user.token).get('/api/v1/profile')).status).toBe(401);
    expect((await api.get(`${P}/users/${user.id}`)).status).toBe(404);
  });

  it('issues a single-use SSO link that signs the user in once', async () => {
    const api = client(t.app, t.platformToken);
    const user = await newUser(t);
    const link = await api.get(`${P}/users/${user.id}/login`);
    expect(link.status).toBe(200);
    const url = new URL(link.body.url);
    expect(url.origin).toBe('http://chat.test');
    const token = url.searchParams.get('sso_auth_token')!;
    const email = url.searchParams.get('email')!;
    const first = await call(t.app, { method: 'POST', url: '/auth/sign_in', body: { email, sso_auth_token: token } });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ id: user.id, access_token: user.token });
    const second = await call(t.app, { method: 'POST', url: '/auth/sign_in', body: { email, sso_auth_token: token } });
    expect(second.status).toBe(401);
  });

  it('signs in with e-mail and password', async () => {
    const user = await newUser(t);
    const ok = await call(t.app, {
      method: 'POST',
      url: '/auth/sign_in',
      body: { email: user.email, password: 'correct horse battery' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.access_token).toBe(user.token);
    const bad = await call(t.app, {
      method: 'POST',
      url: '/auth/sign_in',
      body: { email: user.email, password: 'wrong' },
    });
    expect(bad.status).toBe(401);
  });

  it('rate limits sign-in: 10 attempts a minute per e-mail (any address), 30 per client address, with Retry-After', async () => {
    const user = await newUser(t);
    const signIn = (email: string, password: string, remoteAddress: string) =>
      t.app.inject({ method: 'POST', url: '/auth/sign_in', payload: { email, password }, remoteAddress });
    for (let i = 0; i < 10; i++)
      expect((await signIn(user.email, 'wrong password', `192.0.2.${i + 1}`)).statusCode).toBe(401);
    // The 11th attempt for that e-mail is refused, even with the right password from a fresh address.
    const limited = await signIn(user.email.toUpperCase(), 'correct horse battery', '192.0.2.99');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'rate_limited', error: expect.any(String) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(120);
    // Another user is not affected; one client address trying many e-mails is stopped after 30.
    const other = await newUser(t);
    expect((await signIn(other.email, 'correct horse battery', '192.0.2.99')).statusCode).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push((await signIn(`nobody-${i}@example.test`, 'whatever-password', '198.51.100.7')).statusCode);
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
