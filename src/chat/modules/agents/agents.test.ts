import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { call, client } from '../../../../test/helpers/http.js';
import {
  addInboxMembers,
  addMember,
  addTeamMembers,
  newAccount,
  newAgent,
  newInbox,
  newTeam,
  newUser,
} from '../../../../test/helpers/factories.js';
import { until } from '../../../../test/helpers/pipelines.js';

let t: ChatTestApp;
beforeAll(async () => {
  t = await buildChatTestApp();
});
afterAll(async () => {
  await t.close();
});

const count = async (table: 'users' | 'account_users' | 'team_members' | 'inbox_members') =>
  Number(
    (
      await t.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** PostgreSQL: the sessions waiting, directly or behind another waiter, on a lock `holder` has. */
async function blockedBy(holder: number): Promise<number[]> {
  const { rows } = await sql<{
    pid: number;
    blockers: number[];
  }>`select pid, pg_blocking_pids(pid) as blockers from pg_stat_activity where wait_event_type = 'Lock'`.execute(t.db);
  const blocked = new Set([holder]);
  for (let grew = true; grew;) {
    grew = false;
    for (const row of rows) {
      if (!blocked.has(row.pid) && row.blockers.some((b) => blocked.has(b))) {
        blocked.add(row.pid);
        grew = true;
      }
    }
  }
  blocked.delete(holder);
  return [...blocked];
}

const membership = (accountId: number, userId: number) =>
  t.db
    .selectFrom('account_users')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .executeTakeFirst();

const email = () => `agent-${Math.random().toString(36).slice(2)}@example.test`;

describe('GET {A}/agents', () => {
  it('lists the members with the full agent shape, to administrators and agents alike', async () => {
    const account = await newAccount(t);
    const agent = await newAgent(t, account, 'Bea Agent');
    for (const token of [account.admin.token, agent.token]) {
      const res = await client(t.app, token).get(`${account.path}/agents`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        {
          id: account.admin.id,
          account_id: account.id,
          availability_status: 'offline',
          auto_offline: true,
          confirmed: true,
          email: account.admin.email,
          provider: 'email',
          available_name: 'Admin',
          name: 'Admin',
          role: 'administrator',
          thumbnail: '',
          custom_role_id: null,
        },
        expect.objectContaining({
          id: agent.id,
          name: 'Bea Agent',
          email: agent.email,
          role: 'agent',
          account_id: account.id,
        }),
      ]);
    }
  });

  it('does not list members of other accounts; 401 without a token; 404 for a non-member', async () => {
    const account = await newAccount(t);
    const other = await newAccount(t);
    const res = await client(t.app, account.admin.token).get(`${account.path}/agents`);
    expect(res.body.map((a: { id: number }) => a.id)).toEqual([account.admin.id]);
    expect((await call(t.app, { url: `${account.path}/agents` })).status).toBe(401);
    const foreign = await client(t.app, other.admin.token).get(`${account.path}/agents`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ code: 'not_found', error: expect.any(String) });
  });
});

describe('POST {A}/agents', () => {
  it('creates the user and the membership and returns the agent', async () => {
    const account = await newAccount(t);
    const address = email();
    const res = await client(t.app, account.admin.token).post(`${account.path}/agents`, {
      name: 'Nina New',
      email: address.toUpperCase(),
      role: 'agent',
      availability_status: 'available',
      auto_offline: false,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      account_id: account.id,
      availability_status: 'online',
      auto_offline: false,
      confirmed: false,
      email: address,
      provider: 'email',
      available_name: 'Nina New',
      name: 'Nina New',
      role: 'agent',
      thumbnail: '',
      custom_role_id: null,
      invitation_email: 'not_sent_no_smtp',
    });
    expect(await membership(account.id, res.body.id)).toMatchObject({
      role: 'agent',
      availability: 'online',
      auto_offline: 0,
    });
    const token = await t.db
      .selectFrom('access_tokens')
      .select('token')
      .where('owner_type', '=', 'User')
      .where('owner_id', '=', res.body.id)
      .executeTakeFirst();
    expect(token?.token).toEqual(expect.any(String));
  });

  it('adds an existing user of another account without changing their name; accepts a wrapped body', async () => {
    const account = await newAccount(t);
    const existing = await newUser(t, 'Original Name');
    const users = await count('users');
    const res = await client(t.app, account.admin.token).post(`${account.path}/agents`, {
      agent: { name: 'Other Name', email: existing.email, role: 'administrator' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: existing.id,
      name: 'Original Name',
      role: 'administrator',
      availability_status: 'offline',
      auto_offline: true,
    });
    expect(await count('users')).toBe(users);
  });

  it('answers 409 when the user is already a member, changing nothing', async () => {
    const account = await newAccount(t);
    const agent = await newAgent(t, account);
    const before = await membership(account.id, agent.id);
    const res = await client(t.app, account.admin.token).post(`${account.path}/agents`, {
      name: 'X',
      email: agent.email,
      role: 'administrator',
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      code: 'conflict',
      error: expect.any(String),
      details: [{ field: 'email', message: expect.any(String) }],
    });
    expect(await membership(account.id, agent.id)).toEqual(before);
  });

  it('rejects bad input with 422, creating nothing', async () => {
    const account = await newAccount(t);
    const api = client(t.app, account.admin.token);
    const [users, members] = [await count('users'), await count('account_users')];
    const bodies = [
      {},
      { email: email(), role: 'agent' },
      { name: 'A', role: 'agent' },
      { name: 'A', email: email() },
      { name: 42, email: email(), role: 'agent' },
      { name: 'x'.repeat(256), email: email(), role: 'agent' },
      { name: 'A', email: 'not-an-email', role: 'agent' },
      { name: 'A', email: `${'x'.repeat(250)}@example.test`, role: 'agent' },
      { name: 'A', email: email(), role: 'owner' },
      { name: 'A', email: email(), role: 'agent', availability_status: 'away' },
      { name: 'A', email: email(), role: 'agent', auto_offline: 'yes' },
    ];
    for (const body of bodies) {
      const res = await api.post(`${account.path}/agents`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_failed', error: expect.any(String) });
      expect(res.body.details.length).toBeGreaterThan(0);
    }
    expect([await count('users'), await count('account_users')]).toEqual([users, members]);
  });

  it('is for administrators only (403 for an agent, 401 without a token)', async () => {
    const account = await newAccount(t);
    const agent = await newAgent(t, account);
    const body = { name: 'A', email: email(), role: 'agent' };
    const res = await client(t.app, agent.token).post(`${account.path}/agents`, body);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'forbidden', error: expect.any(String) });
    expect((await call(t.app, { method: 'POST', url: `${account.path}/agents`, body })).status).toBe(401);
    expect(
      await t.db.selectFrom('users').select('id').where('email', '=', body.email).executeTakeFirst(),
    ).toBeUndefined();
  });
});

describe('PATCH {A}/agents/:id', () => {
  it('changes the name (user) and role, availability and auto_offline (membership)', async () => {
    const account = await newAccount(t);
    const agent = await newAgent(t, account);
    const api = client(t.app, account.admin.token);
    const res = await api.patch(`${account.path}/agents/${agent.id}`, {
      name: 'Renamed',
      role: 'administrator',
      availability: 'busy',
      auto_offline: false,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: agent.id,
      account_id: account.id,
      availability_status: 'busy',
      auto_offline: false,
      confirmed: true,
      email: agent.email,
      provider: 'email',
      available_name: 'Renamed',
      name: 'Renamed',
      role: 'administrator',
      thumbnail: '',
      custom_role_id: null,
    });
    // Chatwoot clients send availability_status; "available" means online.
    const alias = await api.patch(`${account.path}/agents/${agent.id}`, {
      agent: { availability_status: 'available' },
    });
    expect(alias.body).toMatchObject({ availability_status: 'online', role: 'administrator', name: 'Renamed' });
    expect(await membership(account.id, agent.id)).toMatchObject({
      role: 'administrator',
      availability: 'online',
      auto_offline: 0,
    });
  });

  it('lets an administrator be demoted while another administrator remains', async () => {
    const account = await newAccount(t);
    const second = await newUser(t, 'Second');
    await addMember(t, account.id, second.id, 'administrator');
    const res = await client(t.app, second.token).patch(`${account.path}/agents/${second.id}`, { role: 'agent' });
    expect(res.status).toBe(200);
    expect(res.body.role).toBe('agent');
  });

  it('refuses to demote the last administrator (422), changing nothing', async () => {
    const account = await newAccount(t);
    const res = await client(t.app, account.admin.token).patch(`${account.path}/agents/${account.admin.id}`, {
      role: 'agent',
      name: 'Changed',
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'unprocessable_entity',
      error: expect.any(String),
      details: [{ field: 'role' }],
    });
    expect(await membership(account.id, account.admin.id)).toMatchObject({ role: 'administrator' });
    expect(
      (await t.db.selectFrom('users').select('name').where('id', '=', account.admin.id).executeTakeFirstOrThrow()).name,
    ).toBe('Admin');
  });

  it('keeps one administrator when two demote each other at the same time', async () => {
    const account = await newAccount(t);
    const second = await newUser(t, 'Second');
    await addMember(t, account.id, second.id, 'administrator');
    const demoteEachOther = () =>
      Promise.all([
        client(t.app, account.admin.token).patch(`${account.path}/agents/${second.id}`, { role: 'agent' }),
        client(t.app, second.token).patch(`${account.path}/agents/${account.admin.id}`, { role: 'agent' }),
      ]);
    if (t.dialect === 'postgres') {
      // Both requests must be past authorization and inside their transactions at once, or the
      // later one only finds its caller demoted (403). Hold the account's lock until both wait on it.
      let pending: ReturnType<typeof demoteEachOther> | undefined;
      await t.db.transaction().execute(async (trx) => {
        await sql`select id from accounts where id = ${account.id} for update`.execute(trx);
        const holder = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid;
        pending = demoteEachOther();
        expect(
          await until(
            () => blockedBy(holder),
            (pids) => pids.length === 2,
          ),
        ).toHaveLength(2);
      });
      expect((await pending!).map((r) => r.status).sort()).toEqual([200, 422]);
    } else {
      // One connection runs one transaction at a time: the later request either finds its caller
      // demoted already (403) or finds the last administrator (422).
      const [first, later] = (await demoteEachOther()).map((r) => r.status).sort();
      expect(first).toBe(200);
      expect([403, 422]).toContain(later);
    }
    const admins = await t.db
      .selectFrom('account_users')
      .select('user_id')
      .where('account_id', '=', account.id)
      .where('role', '=', 'administrator')
      .execute();
    expect(admins).toHaveLength(1);
  });

  it('rejects bad input with 422 and unknown or foreign ids with 404, changing nothing', async () => {
    const account = await newAccount(t);
    const other = await newAccount(t);
    const agent = await newAgent(t, account);
    const api = client(t.app, account.admin.token);
    const before = await membership(account.id, agent.id);
    for (const body of [
      { name: 42 },
      { name: ['x'] },
      { name: 'x'.repeat(256) },
      { role: 'owner' },
      { availability: 'away' },
      { auto_offline: 1 },
    ]) {
      const res = await api.patch(`${account.path}/agents/${agent.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_failed', details: expect.any(Array) });
    }
    expect(await membership(account.id, agent.id)).toEqual(before);
    for (const id of [other.admin.id, 999999]) {
      const res = await api.patch(`${account.path}/agents/${id}`, { name: 'Hijack' });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found', error: expect.any(String) });
    }
    expect(
      (await t.db.selectFrom('users').select('name').where('id', '=', other.admin.id).executeTakeFirstOrThrow()).name,
    ).toBe('Admin');
    expect((await api.patch(`${account.path}/agents/abc`, { name: 'x' })).status).toBe(404);
  });

  it('is for administrators only', async () => {
    const account = await newAccount(t);
    const agent = await newAgent(t, account);
    expect(
      (await client(t.app, agent.token).patch(`${account.path}/agents/${agent.id}`, { role: 'administrator' })).status,
    ).toBe(403);
    expect(
      (
        await call(t.app, {
          method: 'PATCH',
          url: `${account.path}/agents/${agent.id}`,
          body: { role: 'administrator' },
        })
      ).status,
    ).toBe(401);
    expect(await membership(account.id, agent.id)).toMatchObject({ role: 'agent' });
  });
});

describe('DELETE {A}/agents/:id', () => {
  it('removes the membership with its inbox and team memberships; the user stays', async () => {
    const account = await newAccount(t);
    const agent = await newAgent(t, account);
    const inbox = await newInbox(t, account);
    const team = await newTeam(t, account);
    await addInboxMembers(t, account, inbox.id, [agent.id]);
    await addTeamMembers(t, account, team.id, [agent.id]);
    const res = await client(t.app, account.admin.token).delete(`${account.path}/agents/${agent.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({});
    expect(await membership(account.id, agent.id)).toBeUndefined();
    expect(await t.db.selectFrom('inbox_members').select('id').where('user_id', '=', agent.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('team_members').select('id').where('user_id', '=', agent.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('users').select('id').where('id', '=', agent.id).executeTakeFirst()).toBeDefined();
    // The former agent's token no longer opens the account.
    expect((await client(t.app, agent.token).get(`${account.path}/agents`)).status).toBe(404);
  });

  it('refuses to remove the last administrator (422); unknown and foreign ids are 404', async () => {
    const account = await newAccount(t);
    const other = await newAccount(t);
    const api = client(t.app, account.admin.token);
    const members = await count('account_users');
    const res = await api.delete(`${account.path}/agents/${account.admin.id}`);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'unprocessable_entity', error: expect.any(String) });
    expect((await api.delete(`${account.path}/agents/${other.admin.id}`)).status).toBe(404);
    expect((await api.delete(`${account.path}/agents/999999`)).status).toBe(404);
    expect(await count('account_users')).toBe(members);
  });

  it('is for administrators only', async () => {
    const account = await newAccount(t);
    const agent = await newAgent(t, account);
    expect((await client(t.app, agent.token).delete(`${account.path}/agents/${account.admin.id}`)).status).toBe(403);
    expect((await call(t.app, { method: 'DELETE', url: `${account.path}/agents/${agent.id}` })).status).toBe(401);
    expect(await membership(account.id, agent.id)).toBeDefined();
  });
});
