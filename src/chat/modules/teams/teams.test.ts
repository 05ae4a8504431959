import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { call, client } from '../../../../test/helpers/http.js';
import {
  addTeamMembers,
  newAccount,
  newAgent,
  newInbox,
  newTeam,
  type TestAccount,
} from '../../../../test/helpers/factories.js';

let t: ChatTestApp;
beforeAll(async () => {
  t = await buildChatTestApp();
});
afterAll(async () => {
  await t.close();
});

const teamRow = (id: number) => t.db.selectFrom('teams').selectAll().where('id', '=', id).executeTakeFirst();
const memberIds = async (teamId: number) =>
  (
    await t.db.selectFrom('team_members').select('user_id').where('team_id', '=', teamId).orderBy('user_id').execute()
  ).map((r) => r.user_id);
const teamCount = async () =>
  Number(
    (
      await t.db
        .selectFrom('teams')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/**
 * A conversation assigned to a team. Seeded with SQL because no conversation endpoint exists yet;
 * replace with a factory once POST {A}/conversations lands.
 */
async function conversationInTeam(account: TestAccount, teamId: number) {
  const inbox = await newInbox(t, account);
  const now = Date.now();
  const contact = await t.db
    .insertInto('contacts')
    .values({
      account_id: account.id,
      name: 'C',
      email: null,
      phone_number: null,
      identifier: null,
      avatar_url: null,
      last_activity_at: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const display = await t.db
    .updateTable('accounts')
    .set((eb) => ({ last_conversation_display_id: eb('last_conversation_display_id', '+', 1) }))
    .where('id', '=', account.id)
    .returning('last_conversation_display_id')
    .executeTakeFirstOrThrow();
  return t.db
    .insertInto('conversations')
    .values({
      account_id: account.id,
      display_id: display.last_conversation_display_id,
      uuid: `u-${now}-${Math.random()}`,
      inbox_id: inbox.id,
      contact_id: contact.id,
      contact_inbox_id: null,
      assignee_id: null,
      team_id: teamId,
      priority: null,
      snoozed_until: null,
      last_activity_at: now,
      first_reply_created_at: null,
      waiting_since: null,
      agent_last_seen_at: null,
      assignee_last_seen_at: null,
      contact_last_seen_at: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

describe('teams CRUD', () => {
  it('creates, lists, shows, updates and deletes a team', async () => {
    const account = await newAccount(t);
    const api = client(t.app, account.admin.token);
    const created = await api.post(`${account.path}/teams`, {
      name: 'Sales',
      description: 'Closers',
      allow_auto_assign: false,
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'Sales',
      description: 'Closers',
      allow_auto_assign: false,
      account_id: account.id,
      is_member: false,
    });
    const id = created.body.id;

    const defaults = await api.post(`${account.path}/teams`, { team: { name: 'Support' } });
    expect(defaults.body).toMatchObject({ name: 'Support', description: null, allow_auto_assign: true });

    const list = await api.get(`${account.path}/teams`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([created.body, defaults.body]);

    const shown = await api.get(`${account.path}/teams/${id}`);
    expect(shown.body).toEqual(created.body);

    const patched = await api.patch(`${account.path}/teams/${id}`, {
      name: 'Sales EU',
      allow_auto_assign: true,
      description: null,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...created.body, name: 'Sales EU', allow_auto_assign: true, description: null });
    // Same name with another case on itself is fine.
    expect((await api.patch(`${account.path}/teams/${id}`, { name: 'SALES EU' })).body.name).toBe('SALES EU');

    const removed = await api.delete(`${account.path}/teams/${id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({});
    expect(await teamRow(id)).toBeUndefined();
    expect((await api.get(`${account.path}/teams/${id}`)).status).toBe(404);
  });

  it('tells each caller whether they are a member; agents can read', async () => {
    const account = await newAccount(t);
    const agent = await newAgent(t, account);
    const mine = await newTeam(t, account, 'Mine');
    const notMine = await newTeam(t, account, 'Not mine');
    await addTeamMembers(t, account, mine.id, [agent.id]);
    const res = await client(t.app, agent.token).get(`${account.path}/teams`);
    expect(res.status).toBe(200);
    expect(res.body.map((x: { id: number; is_member: boolean }) => [x.id, x.is_member])).toEqual([
      [mine.id, true],
      [notMine.id, false],
    ]);
    expect((await client(t.app, agent.token).get(`${account.path}/teams/${mine.id}`)).body.is_member).toBe(true);
    expect((await client(t.app, account.admin.token).get(`${account.path}/teams/${mine.id}`)).body.is_member).toBe(
      false,
    );
  });

  it('refuses a duplicate name in the account regardless of case (409), but allows it in another account', async () => {
    const account = await newAccount(t);
    const other = await newAccount(t);
    await newTeam(t, account, 'Billing');
    const second = await newTeam(t, account, 'Second');
    const api = client(t.app, account.admin.token);
    const before = await teamCount();
    for (const name of ['Billing', 'billing', '  BILLING  ']) {
      const res = await api.post(`${account.path}/teams`, { name });
      expect(res.status, name).toBe(409);
      expect(res.body).toMatchObject({
        code: 'conflict',
        error: expect.any(String),
        details: [{ field: 'name', message: expect.any(String) }],
      });
    }
    expect((await api.patch(`${account.path}/teams/${second.id}`, { name: 'BILLING' })).status).toBe(409);
    expect((await teamRow(second.id))?.name).toBe('Second');
    expect(await teamCount()).toBe(before);
    expect((await client(t.app, other.admin.token).post(`${other.path}/teams`, { name: 'Billing' })).status).toBe(200);
  });

  it('rejects bad input with 422, changing nothing', async () => {
    const account = await newAccount(t);
    const team = await newTeam(t, account, 'Stable');
    const api = client(t.app, account.admin.token);
    const before = await teamCount();
    for (const body of [
      {},
      { name: 42 },
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(256) },
      { name: 'A', description: 'x'.repeat(10001) },
      { name: 'A', allow_auto_assign: 'yes' },
    ]) {
      const res = await api.post(`${account.path}/teams`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({
        error: expect.any(String),
        code: expect.stringMatching(/validation_failed|unprocessable_entity/),
      });
      expect(res.body.details.length).toBeGreaterThan(0);
    }
    for (const body of [{ name: 42 }, { name: '   ' }, { description: 7 }, { allow_auto_assign: 0 }]) {
      expect((await api.patch(`${account.path}/teams/${team.id}`, body)).status, JSON.stringify(body)).toBe(422);
    }
    expect(await teamCount()).toBe(before);
    expect(await teamRow(team.id)).toMatchObject({ name: 'Stable', description: null, allow_auto_assign: 1 });
  });

  it('answers 404 for a team of another account or an unknown id, on every route', async () => {
    const account = await newAccount(t);
    const other = await newAccount(t);
    const foreign = await newTeam(t, other, 'Theirs');
    const api = client(t.app, account.admin.token);
    for (const id of [foreign.id, 999999]) {
      const url = `${account.path}/teams/${id}`;
      for (const res of [
        await api.get(url),
        await api.patch(url, { name: 'Stolen' }),
        await api.delete(url),
        await api.get(`${url}/team_members`),
        await api.post(`${url}/team_members`, { user_ids: [account.admin.id] }),
        await api.delete(`${url}/team_members`, { user_ids: [account.admin.id] }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ code: 'not_found', error: expect.any(String) });
      }
    }
    expect(await teamRow(foreign.id)).toMatchObject({ name: 'Theirs' });
  });

  it('writes are for administrators only; reads need a token', async () => {
    const account = await newAccount(t);
    const agent = await newAgent(t, account);
    const team = await newTeam(t, account, 'Locked');
    const api = client(t.app, agent.token);
    for (const res of [
      await api.post(`${account.path}/teams`, { name: 'Nope' }),
      await api.patch(`${account.path}/teams/${team.id}`, { name: 'Nope' }),
      await api.delete(`${account.path}/teams/${team.id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'forbidden', error: expect.any(String) });
    }
    expect((await call(t.app, { url: `${account.path}/teams` })).status).toBe(401);
    expect((await call(t.app, { method: 'POST', url: `${account.path}/teams`, body: { name: 'Nope' } })).status).toBe(
      401,
    );
    expect(await teamRow(team.id)).toMatchObject({ name: 'Locked' });
  });

  it('unassigns the conversations of a deleted team and drops its memberships', async () => {
    const account = await newAccount(t);
    const agent = await newAgent(t, account);
    const team = await newTeam(t, account, 'Doomed');
    const keep = await newTeam(t, account, 'Kept');
    await addTeamMembers(t, account, team.id, [agent.id]);
    const conv = await conversationInTeam(account, team.id);
    const kept = await conversationInTeam(account, keep.id);
    expect((await client(t.app, account.admin.token).delete(`${account.path}/teams/${team.id}`)).status).toBe(200);
    const teamOf = async (id: number) =>
      (await t.db.selectFrom('conversations').select('team_id').where('id', '=', id).executeTakeFirstOrThrow()).team_id;
    expect(await teamOf(conv.id)).toBeNull();
    expect(await teamOf(kept.id)).toBe(keep.id);
    expect(await memberIds(team.id)).toEqual([]);
  });
});

describe('team members', () => {
  it('adds (idempotently), lists, replaces and removes agents', async () => {
    const account = await newAccount(t);
    const a = await newAgent(t, account, 'Ana');
    const b = await newAgent(t, account, 'Bruno');
    const team = await newTeam(t, account);
    const url = `${account.path}/teams/${team.id}/team_members`;
    const api = client(t.app, account.admin.token);

    const added = await api.post(url, { user_ids: [a.id, a.id] });
    expect(added.status).toBe(200);
    expect(added.body).toEqual([
      {
        id: a.id,
        account_id: account.id,
        availability_status: 'offline',
        auto_offline: true,
        confirmed: true,
        email: a.email,
        provider: 'email',
        available_name: 'Ana',
        name: 'Ana',
        role: 'agent',
        thumbnail: '',
        custom_role_id: null,
      },
    ]);
    const again = await api.post(url, { user_ids: [a.id, b.id] });
    expect(again.body.map((x: { id: number }) => x.id)).toEqual([a.id, b.id]);
    expect(await memberIds(team.id)).toEqual([a.id, b.id].sort((x, y) => x - y));

    const listed = await client(t.app, a.token).get(url);
    expect(listed.status).toBe(200);
    expect(listed.body.map((x: { name: string }) => x.name)).toEqual(['Ana', 'Bruno']);

    const replaced = await api.patch(url, { user_ids: [b.id, account.admin.id] });
    expect(replaced.status).toBe(200);
    expect(replaced.body.map((x: { id: number }) => x.id)).toEqual([account.admin.id, b.id]);
    expect(await memberIds(team.id)).toEqual([account.admin.id, b.id].sort((x, y) => x - y));

    const removed = await api.delete(url, { user_ids: [b.id] });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({});
    expect(await memberIds(team.id)).toEqual([account.admin.id]);
    expect((await api.patch(url, { user_ids: [] })).body).toEqual([]);
    expect(await memberIds(team.id)).toEqual([]);
  });

  it('rejects users who are not agents of the account (422 naming them), changing nothing', async () => {
    const account = await newAccount(t);
    const other = await newAccount(t);
    const agent = await newAgent(t, account);
    const team = await newTeam(t, account);
    await addTeamMembers(t, account, team.id, [agent.id]);
    const url = `${account.path}/teams/${team.id}/team_members`;
    const api = client(t.app, account.admin.token);
    for (const res of [
      await api.post(url, { user_ids: [account.admin.id, other.admin.id, 999999] }),
      await api.patch(url, { user_ids: [other.admin.id] }),
      await api.delete(url, { user_ids: [agent.id, other.admin.id] }),
    ]) {
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'unprocessable_entity', details: [{ field: 'user_ids' }] });
      expect(res.body.error).toContain(String(other.admin.id));
    }
    expect(await memberIds(team.id)).toEqual([agent.id]);
    for (const body of [
      {},
      { user_ids: [] },
      { user_ids: 'all' },
      { user_ids: ['one'] },
      { user_ids: [0] },
      { user_ids: Array(1001).fill(agent.id) },
    ]) {
      const res = await api.post(url, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_failed' });
    }
    expect(await memberIds(team.id)).toEqual([agent.id]);
  });

  it('member writes are for administrators only', async () => {
    const account = await newAccount(t);
    const agent = await newAgent(t, account);
    const team = await newTeam(t, account);
    const url = `${account.path}/teams/${team.id}/team_members`;
    const api = client(t.app, agent.token);
    expect((await api.post(url, { user_ids: [agent.id] })).status).toBe(403);
    expect((await api.patch(url, { user_ids: [agent.id] })).status).toBe(403);
    expect((await api.delete(url, { user_ids: [agent.id] })).status).toBe(403);
    expect((await call(t.app, { url })).status).toBe(401);
    expect(await memberIds(team.id)).toEqual([]);
  });
});
