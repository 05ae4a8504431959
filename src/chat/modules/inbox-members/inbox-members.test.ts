import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { call, client } from '../../../../test/helpers/http.js';
import { addInboxMembers, newAccount, newAgent, newInbox } from '../../../../test/helpers/factories.js';

let t: ChatTestApp;
beforeAll(async () => {
  t = await buildChatTestApp();
});
afterAll(async () => {
  await t.close();
});

const memberIds = async (inboxId: number) =>
  (
    await t.db
      .selectFrom('inbox_members')
      .select('user_id')
      .where('inbox_id', '=', inboxId)
      .orderBy('user_id')
      .execute()
  ).map((r) => r.user_id);
const ids = (body: { payload: { id: number }[] }) => body.payload.map((a) => a.id);

describe('inbox members', () => {
  it('adds (idempotently), lists, replaces and removes agents', async () => {
    const account = await newAccount(t);
    const a = await newAgent(t, account, 'Ana');
    const b = await newAgent(t, account, 'Bruno');
    const inbox = await newInbox(t, account);
    const api = client(t.app, account.admin.token);

    const added = await api.post(`${account.path}/inbox_members`, { inbox_id: inbox.id, user_ids: [a.id, a.id] });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({
      payload: [
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
      ],
    });
    // POST returns every member, not only those just added.
    const again = await api.post(`${account.path}/inbox_members`, { inbox_id: inbox.id, user_ids: [b.id] });
    expect(ids(again.body)).toEqual([a.id, b.id]);

    const listed = await api.get(`${account.path}/inbox_members/${inbox.id}`);
    expect(listed.status).toBe(200);
    expect(
      listed.body.payload.map((x: { name: string; role: string; availability_status: string }) => [
        x.name,
        x.role,
        x.availability_status,
      ]),
    ).toEqual([
      ['Ana', 'agent', 'offline'],
      ['Bruno', 'agent', 'offline'],
    ]);

    // Chatwoot's document types inbox_id as a string on PATCH and DELETE.
    const replaced = await api.patch(`${account.path}/inbox_members`, {
      inbox_id: String(inbox.id),
      user_ids: [b.id, account.admin.id],
    });
    expect(replaced.status).toBe(200);
    expect(ids(replaced.body)).toEqual([account.admin.id, b.id]);
    expect(await memberIds(inbox.id)).toEqual([account.admin.id, b.id].sort((x, y) => x - y));

    const removed = await api.delete(`${account.path}/inbox_members`, { inbox_id: String(inbox.id), user_ids: [b.id] });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({});
    expect(await memberIds(inbox.id)).toEqual([account.admin.id]);
    expect((await api.patch(`${account.path}/inbox_members`, { inbox_id: inbox.id, user_ids: [] })).body).toEqual({
      payload: [],
    });
    expect(await memberIds(inbox.id)).toEqual([]);
  });

  it('decides which inboxes an agent sees', async () => {
    const account = await newAccount(t);
    const agent = await newAgent(t, account);
    const inbox = await newInbox(t, account, { type: 'api' }, 'Members only');
    const api = client(t.app, agent.token);
    expect((await api.get(`${account.path}/inboxes`)).body.payload).toEqual([]);
    expect((await api.get(`${account.path}/inboxes/${inbox.id}`)).status).toBe(404);
    expect((await api.get(`${account.path}/inbox_members/${inbox.id}`)).status).toBe(404);

    await addInboxMembers(t, account, inbox.id, [agent.id]);
    expect((await api.get(`${account.path}/inboxes`)).body.payload.map((i: { id: number }) => i.id)).toEqual([
      inbox.id,
    ]);
    expect((await api.get(`${account.path}/inboxes/${inbox.id}`)).status).toBe(200);
    expect(ids((await api.get(`${account.path}/inbox_members/${inbox.id}`)).body)).toEqual([agent.id]);

    await client(t.app, account.admin.token).delete(`${account.path}/inbox_members`, {
      inbox_id: inbox.id,
      user_ids: [agent.id],
    });
    expect((await api.get(`${account.path}/inboxes`)).body.payload).toEqual([]);
  });

  it('rejects users who are not agents of the account (422 naming them), changing nothing', async () => {
    const account = await newAccount(t);
    const other = await newAccount(t);
    const agent = await newAgent(t, account);
    const inbox = await newInbox(t, account);
    await addInboxMembers(t, account, inbox.id, [agent.id]);
    const api = client(t.app, account.admin.token);
    const url = `${account.path}/inbox_members`;
    for (const res of [
      await api.post(url, { inbox_id: inbox.id, user_ids: [account.admin.id, other.admin.id, 999999] }),
      await api.patch(url, { inbox_id: inbox.id, user_ids: [other.admin.id] }),
      await api.delete(url, { inbox_id: inbox.id, user_ids: [agent.id, other.admin.id] }),
    ]) {
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'unprocessable_entity', details: [{ field: 'user_ids' }] });
      expect(res.body.error).toContain(String(other.admin.id));
    }
    const named = await api.post(url, { inbox_id: inbox.id, user_ids: [account.admin.id, other.admin.id, 999999] });
    expect(named.body.details).toEqual([
      { field: 'user_ids', message: `are not agents of this account: ${other.admin.id}, 999999` },
    ]);
    expect(await memberIds(inbox.id)).toEqual([agent.id]);
    for (const body of [
      {},
      { inbox_id: inbox.id },
      { user_ids: [agent.id] },
      { inbox_id: 'abc', user_ids: [agent.id] },
      { inbox_id: 1.5, user_ids: [agent.id] },
      { inbox_id: inbox.id, user_ids: [] },
      { inbox_id: inbox.id, user_ids: { id: agent.id } },
      { inbox_id: inbox.id, user_ids: [`x${agent.id}`] },
      { inbox_id: inbox.id, user_ids: Array(1001).fill(agent.id) },
    ]) {
      const res = await api.post(url, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_failed', error: expect.any(String) });
    }
    expect(await memberIds(inbox.id)).toEqual([agent.id]);
  });

  it('answers 404 for an inbox of another account or an unknown inbox', async () => {
    const account = await newAccount(t);
    const other = await newAccount(t);
    const theirs = await newInbox(t, other);
    const api = client(t.app, account.admin.token);
    for (const inboxId of [theirs.id, 999999]) {
      for (const res of [
        await api.get(`${account.path}/inbox_members/${inboxId}`),
        await api.post(`${account.path}/inbox_members`, { inbox_id: inboxId, user_ids: [account.admin.id] }),
        await api.patch(`${account.path}/inbox_members`, { inbox_id: inboxId, user_ids: [account.admin.id] }),
        await api.delete(`${account.path}/inbox_members`, { inbox_id: inboxId, user_ids: [account.admin.id] }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ code: 'not_found', error: expect.any(String) });
      }
    }
    expect(await memberIds(theirs.id)).toEqual([]);
  });

  it('writes are for administrators only; every route needs a token', async () => {
    const account = await newAccount(t);
    const agent = await newAgent(t, account);
    const inbox = await newInbox(t, account);
    await addInboxMembers(t, account, inbox.id, [agent.id]);
    const api = client(t.app, agent.token);
    const body = { inbox_id: inbox.id, user_ids: [agent.id] };
    for (const res of [
      await api.post(`${account.path}/inbox_members`, body),
      await api.patch(`${account.path}/inbox_members`, { inbox_id: inbox.id, user_ids: [] }),
      await api.delete(`${account.path}/inbox_members`, body),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'forbidden', error: expect.any(String) });
    }
    expect((await call(t.app, { url: `${account.path}/inbox_members/${inbox.id}` })).status).toBe(401);
    expect((await call(t.app, { method: 'POST', url: `${account.path}/inbox_members`, body })).status).toBe(401);
    expect(await memberIds(inbox.id)).toEqual([agent.id]);
  });
});
