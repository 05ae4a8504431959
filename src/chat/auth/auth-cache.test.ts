import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, newAccount, newInbox, newUser, type TestAccount } from '../../../test/helpers/factories.js';
import { call, client } from '../../../test/helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from '../../../test/helpers/test-app.js';
import { withOtherProcess } from '../../../test/helpers/other-process.js';
import { ensurePlatformApp } from '../platform/platform.bootstrap.js';
import { sha256Hex } from '../../core/security/tokens.js';

/**
 * Authentication is cached per instance (auth.cache.ts); these check that every change of what it
 * resolves — made through this instance, another instance, or straight in the database as the CLI
 * does — takes effect at the next request, and that a rolled-back change does not.
 */
let t: ChatTestApp;
let account: TestAccount;

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
});
afterAll(async () => {
  await t.close();
});

const adminOnly = () => `${account.path}/webhooks`;
const anyMember = () => `${account.path}/conversations`;

async function authEpoch(): Promise<number> {
  const { rows } = await sql<{ value: number }>`select value from auth_epoch where id = 1`.execute(t.db);
  return Number(rows[0].value);
}

/** An administrator of the account other than its first, whose answers are cached by one call each. */
async function cachedAdministrator(app = t.app) {
  const user = await newUser(t, 'Second admin');
  await addMember(t, account.id, user.id, 'administrator');
  const api = client(app, user.token);
  expect((await api.get(adminOnly())).status).toBe(200);
  expect((await api.get(adminOnly())).status).toBe(200);
  return { user, api };
}

describe('changes through the API take effect at the next request', () => {
  it('a role change, then removing the membership', async () => {
    const { user, api } = await cachedAdministrator();
    const admin = client(t.app, account.admin.token);
    expect((await admin.patch(`${account.path}/agents/${user.id}`, { role: 'agent' })).status).toBe(200);
    expect((await api.get(adminOnly())).status).toBe(403);
    expect((await api.get(anyMember())).status).toBe(200);

    expect((await admin.delete(`${account.path}/agents/${user.id}`)).status).toBe(200);
    expect((await api.get(anyMember())).status).toBe(404);
    // Still a user with a token, only no longer a member.
    expect((await api.get('/api/v1/profile')).status).toBe(200);
  });

  it('a new membership, a deleted user, a renamed user', async () => {
    const user = await newUser(t, 'Before');
    const api = client(t.app, user.token);
    expect((await api.get(anyMember())).status).toBe(404);
    await addMember(t, account.id, user.id, 'agent');
    expect((await api.get(anyMember())).status).toBe(200);

    const platform = client(t.app, t.platformToken);
    expect((await api.get('/api/v1/profile')).body.name).toBe('Before');
    expect((await platform.patch(`/platform/api/v1/users/${user.id}`, { name: 'After' })).status).toBe(200);
    expect((await api.get('/api/v1/profile')).body.name).toBe('After');

    expect((await platform.delete(`/platform/api/v1/users/${user.id}`)).status).toBe(200);
    expect((await api.get('/api/v1/profile')).status).toBe(401);
    expect((await api.get(anyMember())).status).toBe(401);
  });

  it('a deleted account bot, a disconnected global bot', async () => {
    const admin = client(t.app, account.admin.token);
    const body = { name: 'Cached bot', outgoing_url: 'https://bot.example.test/hook' };
    const bot = (await admin.post(`${account.path}/agent_bots`, body)).body;
    const botApi = client(t.app, bot.access_token);
    // 403: authenticated and allowed in the account, but not on this route.
    expect((await botApi.get(`${account.path}/inboxes`)).status).toBe(403);
    expect((await admin.delete(`${account.path}/agent_bots/${bot.id}`)).status).toBe(200);
    expect((await botApi.get(`${account.path}/inboxes`)).status).toBe(401);

    const global = (await client(t.app, t.platformToken).post('/platform/api/v1/agent_bots', body)).body;
    const globalApi = client(t.app, global.access_token);
    const inbox = await newInbox(t, account);
    const connect = (agentBot: number | null) =>
      admin.post(`${account.path}/inboxes/${inbox.id}/set_agent_bot`, { agent_bot: agentBot });
    expect((await globalApi.get(`${account.path}/inboxes`)).status).toBe(404);
    expect((await connect(global.id)).status).toBe(200);
    expect((await globalApi.get(`${account.path}/inboxes`)).status).toBe(403);
    expect((await connect(null)).status).toBe(200);
    expect((await globalApi.get(`${account.path}/inboxes`)).status).toBe(404);
  });

  it('an availability change does not empty the cache (it changes often)', async () => {
    const { user, api } = await cachedAdministrator();
    const before = await authEpoch();
    const res = await client(t.app, account.admin.token).patch(`${account.path}/agents/${user.id}`, {
      availability: 'busy',
    });
    expect(res.status).toBe(200);
    expect(await authEpoch()).toBe(before);
    expect((await api.get(adminOnly())).status).toBe(200);
  });

  it('a refused role change leaves the role as it was', async () => {
    const owner = await newAccount(t, 'Single admin');
    const api = client(t.app, owner.admin.token);
    expect((await api.get(`${owner.path}/webhooks`)).status).toBe(200);
    const refused = await api.patch(`${owner.path}/agents/${owner.admin.id}`, { role: 'agent' });
    expect(refused.status).toBe(422);
    expect((await api.get(`${owner.path}/webhooks`)).status).toBe(200);
  });
});

describe('changes made straight in the database (as the CLI does) take effect at the next request', () => {
  it('a rotated user token, a deleted one, a deleted platform app token', async () => {
    const user = await newUser(t);
    await addMember(t, account.id, user.id, 'agent');
    expect((await client(t.app, user.token).get(anyMember())).status).toBe(200);
    const rotated = `rotated-${user.token}`;
    await withOtherProcess(t.database, (other) =>
      other.exec(`update access_tokens set token = '${rotated}' where owner_type = 'User' and owner_id = ${user.id}`),
    );
    expect((await client(t.app, user.token).get(anyMember())).status).toBe(401);
    expect((await client(t.app, rotated).get(anyMember())).status).toBe(200);
    await withOtherProcess(t.database, (other) =>
      other.exec(`delete from access_tokens where owner_type = 'User' and owner_id = ${user.id}`),
    );
    expect((await client(t.app, rotated).get('/api/v1/profile')).status).toBe(401);

    const appToken = 'cached-platform-app-token-0123456789';
    await ensurePlatformApp(t.db, appToken);
    expect((await client(t.app, appToken).get('/platform/api/v1/agent_bots')).status).toBe(200);
    await withOtherProcess(t.database, (other) =>
      other.exec(`delete from access_tokens where owner_type = 'PlatformApp' and token = '${sha256Hex(appToken)}'`),
    );
    expect((await client(t.app, appToken).get('/platform/api/v1/agent_bots')).status).toBe(401);
  });

  it('a role changed in a transaction that rolls back changes nothing; committed, it applies', async () => {
    const { user, api } = await cachedAdministrator();
    const demote = `update account_users set role = 'agent' where account_id = ${account.id} and user_id = ${user.id}`;
    const before = await authEpoch();
    await withOtherProcess(t.database, async (other) => {
      await other.exec('begin');
      await other.exec(demote);
      // The open transaction is invisible to the app; what the app caches meanwhile is still right.
      expect((await api.get(adminOnly())).status).toBe(200);
      await other.exec('rollback');
    });
    expect(await authEpoch()).toBe(before);
    expect((await api.get(adminOnly())).status).toBe(200);

    await withOtherProcess(t.database, async (other) => {
      await other.exec('begin');
      await other.exec(demote);
      await other.exec('commit');
    });
    expect(await authEpoch()).toBeGreaterThan(before);
    expect((await api.get(adminOnly())).status).toBe(403);
  });
});

describe('across instances', () => {
  it('a change made through one instance is seen by the other at its next request', async () => {
    const b = await buildChatTestApp({}, { sameDatabaseAs: t });
    try {
      const { user, api: onB } = await cachedAdministrator(b.app);
      const onA = client(t.app, account.admin.token);
      expect((await onA.patch(`${account.path}/agents/${user.id}`, { role: 'agent' })).status).toBe(200);
      expect((await onB.get(adminOnly())).status).toBe(403);
      expect((await onB.get(anyMember())).status).toBe(200);
      expect((await onA.delete(`${account.path}/agents/${user.id}`)).status).toBe(200);
      expect((await onB.get(anyMember())).status).toBe(404);
      expect((await client(t.app, t.platformToken).delete(`/platform/api/v1/users/${user.id}`)).status).toBe(200);
      expect((await call(b.app, { url: '/api/v1/profile', token: user.token })).status).toBe(401);
    } finally {
      await b.close();
    }
  });
});
