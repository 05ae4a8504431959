import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { call, client } from '../../../../test/helpers/http.js';
import { addInboxMembers, newAccount, newAgent, newContact, newInbox } from '../../../../test/helpers/factories.js';

let t: ChatTestApp;
beforeAll(async () => {
  t = await buildChatTestApp();
});
afterAll(async () => {
  await t.close();
});

const contactInboxCount = async (contactId: number) =>
  Number(
    (
      await t.db
        .selectFrom('contact_inboxes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('contact_id', '=', contactId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('POST {A}/contacts/:id/contact_inboxes', () => {
  it('adds the contact to an inbox, reusing its existing contact inbox, and show lists it', async () => {
    const account = await newAccount(t);
    const inbox = await newInbox(t, account, { type: 'api' }, 'API desk');
    const id = (await newContact(t, account)).contact.id;
    const api = client(t.app, account.admin.token);
    const url = `${account.path}/contacts/${id}/contact_inboxes`;

    const res = await api.post(url, { inbox_id: inbox.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      source_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      inbox: { id: inbox.id, name: 'API desk', channel_type: 'Channel::Api' },
    });
    const again = await api.post(url, { inbox_id: inbox.id });
    expect(again.body.source_id).toBe(res.body.source_id);
    expect(await contactInboxCount(id)).toBe(1);

    const explicit = await api.post(url, { inbox_id: inbox.id, source_id: 'crm-42' });
    expect(explicit.body).toEqual({
      source_id: 'crm-42',
      inbox: { id: inbox.id, name: 'API desk', channel_type: 'Channel::Api' },
    });
    expect(await contactInboxCount(id)).toBe(2);

    const shown = await api.get(`${account.path}/contacts/${id}`);
    expect(shown.body.payload.contact_inboxes.map((ci: { source_id: string }) => ci.source_id)).toEqual([
      res.body.source_id,
      'crm-42',
    ]);
  });

  it('refuses a source id used by another contact in that inbox (409)', async () => {
    const account = await newAccount(t);
    const inbox = await newInbox(t, account);
    const first = await newContact(t, account, { inbox_id: inbox.id, source_id: 'taken' });
    expect(first.contact_inbox?.source_id).toBe('taken');
    const id = (await newContact(t, account)).contact.id;
    const res = await client(t.app, account.admin.token).post(`${account.path}/contacts/${id}/contact_inboxes`, {
      inbox_id: inbox.id,
      source_id: 'taken',
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'conflict', details: [{ field: 'source_id' }] });
    expect(await contactInboxCount(id)).toBe(0);
  });

  it('rejects bad input (422) and unknown or foreign inboxes and contacts (404), creating nothing', async () => {
    const account = await newAccount(t);
    const other = await newAccount(t);
    const inbox = await newInbox(t, account);
    const otherInbox = await newInbox(t, other);
    const theirs = (await newContact(t, other)).contact.id;
    const id = (await newContact(t, account)).contact.id;
    const api = client(t.app, account.admin.token);
    const url = `${account.path}/contacts/${id}/contact_inboxes`;
    for (const body of [
      {},
      { inbox_id: 'x' },
      { inbox_id: 0 },
      { inbox_id: inbox.id, source_id: ['x'] },
      { inbox_id: inbox.id, source_id: 'x'.repeat(256) },
      { inbox_id: inbox.id, source_id: 7 },
    ]) {
      const res = await api.post(url, body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_failed' });
    }
    expect((await api.post(url, { inbox_id: otherInbox.id })).status).toBe(404);
    expect((await api.post(url, { inbox_id: 999999 })).status).toBe(404);
    expect((await api.post(`${account.path}/contacts/${theirs}/contact_inboxes`, { inbox_id: inbox.id })).status).toBe(
      404,
    );
    expect(await contactInboxCount(id)).toBe(0);
    expect(await contactInboxCount(theirs)).toBe(0);
    expect((await call(t.app, { method: 'POST', url, body: { inbox_id: inbox.id } })).status).toBe(401);
  });

  it('agents may use only inboxes they are members of', async () => {
    const account = await newAccount(t);
    const member = await newInbox(t, account);
    const notMember = await newInbox(t, account);
    const agent = await newAgent(t, account);
    await addInboxMembers(t, account, member.id, [agent.id]);
    const id = (await newContact(t, account)).contact.id;
    const api = client(t.app, agent.token);
    expect((await api.post(`${account.path}/contacts/${id}/contact_inboxes`, { inbox_id: notMember.id })).status).toBe(
      404,
    );
    const res = await api.post(`${account.path}/contacts/${id}/contact_inboxes`, { inbox_id: member.id });
    expect(res.status).toBe(200);
    expect(res.body.inbox.id).toBe(member.id);
    expect(await contactInboxCount(id)).toBe(1);
  });
});
