import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEvents } from '../../../../test/helpers/db.js';
import {
  newAccount,
  newAgent,
  newConversation,
  newInbox,
  newMessage,
  type TestAccount,
} from '../../../../test/helpers/factories.js';
import { call, client } from '../../../../test/helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';

/** PATCH {A}/conversations/:id/messages/:message_id: a bridge reports the delivery status of a message (Chatwoot). */
let t: ChatTestApp;
let account: TestAccount;

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
});
afterAll(async () => {
  await t.close();
});

const messageRow = (id: number) =>
  t.db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('PATCH a message', () => {
  it('sets the delivery status in an API inbox, keeps external_error with failed only, and records message_updated', async () => {
    const api = client(t.app, account.admin.token);
    const conversation = await newConversation(t, account);
    const message = await newMessage(t, account, conversation.id, { content: 'to WhatsApp' });
    const url = `${account.path}/conversations/${String(conversation.id)}/messages/${String(message.id)}`;
    const failed = await api.patch(url, { status: 'failed', external_error: 'number not on WhatsApp' });
    expect(failed.status, failed.text).toBe(200);
    expect(failed.body).toMatchObject({
      id: message.id,
      status: 'failed',
      content: 'to WhatsApp',
      content_attributes: { external_error: 'number not on WhatsApp' },
    });
    const delivered = await api.patch(url, { message: { status: 'delivered' } });
    expect(delivered.body.status).toBe('delivered');
    expect(delivered.body.content_attributes.external_error).toBeUndefined();
    expect((await api.patch(url, { status: 'read' })).body.status).toBe('read');
    // A read message does not go back to delivered; an empty body changes nothing.
    const events = (await outboxEvents(t.db, account.id, 'message_updated')).length;
    expect((await api.patch(url, { status: 'delivered' })).body.status).toBe('read');
    expect((await api.patch(url, {})).body.status).toBe('read');
    expect((await outboxEvents(t.db, account.id, 'message_updated')).length).toBe(events);
    const updates = await outboxEvents(t.db, account.id, 'message_updated');
    expect(updates.map((e) => e.payload.changed_attributes)).toEqual([
      [{ status: { previous_value: 'sent', current_value: 'failed' } }],
      [{ status: { previous_value: 'failed', current_value: 'delivered' } }],
      [{ status: { previous_value: 'delivered', current_value: 'read' } }],
    ]);
  });

  it('may be done by an agent bot of the inbox', async () => {
    const inbox = await newInbox(t, account);
    const bot = (
      await client(t.app, account.admin.token).post(`${account.path}/agent_bots`, {
        name: 'Bridge bot',
        outgoing_url: 'https://bridge.example.test/hook',
      })
    ).body;
    await client(t.app, account.admin.token).post(`${account.path}/inboxes/${inbox.id}/set_agent_bot`, {
      agent_bot: bot.id,
    });
    const conversation = await newConversation(t, account, { inboxId: inbox.id });
    const message = await newMessage(t, account, conversation.id);
    const res = await client(t.app, bot.access_token).patch(
      `${account.path}/conversations/${conversation.id}/messages/${message.id}`,
      { status: 'delivered' },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('delivered');
  });

  it('is refused outside API inboxes (403), for bad input (422), other accounts (404) and without a token (401), changing nothing', async () => {
    const api = client(t.app, account.admin.token);
    const widget = await newInbox(t, account, { type: 'web_widget', website_url: 'https://acme.test' });
    const inWidget = (await api.post(`${account.path}/contacts`, { name: 'W', inbox_id: widget.id })).body.payload;
    const widgetConversation = await newConversation(t, account, {
      inboxId: widget.id,
      contactSourceId: inWidget.contact_inbox.source_id,
    });
    const widgetMessage = await newMessage(t, account, widgetConversation.id);
    const widgetUrl = `${account.path}/conversations/${widgetConversation.id}/messages/${widgetMessage.id}`;
    const forbidden = await api.patch(widgetUrl, { status: 'read' });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({ code: 'forbidden', error: expect.stringContaining('API inboxes') });
    expect((await messageRow(widgetMessage.id)).status).toBe('sent');

    const conversation = await newConversation(t, account);
    const message = await newMessage(t, account, conversation.id);
    const url = `${account.path}/conversations/${conversation.id}/messages/${message.id}`;
    const before = await messageRow(message.id);
    for (const body of [{ status: 'seen' }, { status: 1 }, { status: 'failed', external_error: 5 }, [1]]) {
      const res = await api.patch(url, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe('validation_failed');
    }
    const other = await newAccount(t, 'Other');
    const theirs = await newConversation(t, other);
    const theirMessage = await newMessage(t, other, theirs.id);
    expect(
      (
        await api.patch(`${account.path}/conversations/${conversation.id}/messages/${theirMessage.id}`, {
          status: 'read',
        })
      ).status,
    ).toBe(404);
    expect((await client(t.app, other.admin.token).patch(url, { status: 'read' })).status).toBe(404);
    expect((await call(t.app, { method: 'PATCH', url, body: { status: 'read' } })).status).toBe(401);
    const outsider = await newAgent(t, account);
    expect((await client(t.app, outsider.token).patch(url, { status: 'read' })).status).toBe(404);
    expect(await messageRow(message.id)).toEqual(before);
  });

  it('takes the fields as multipart/form-data too (the Chatwoot SDK sends its update so), but no files', async () => {
    const conversation = await newConversation(t, account);
    const message = await newMessage(t, account, conversation.id, { content: 'by form' });
    const url = `${account.path}/conversations/${String(conversation.id)}/messages/${String(message.id)}`;
    const patchForm = async (form: FormData) => {
      const request = new Request('http://local/', { method: 'PATCH', body: form });
      const res = await t.app.inject({
        method: 'PATCH',
        url,
        payload: Buffer.from(await request.arrayBuffer()),
        headers: { 'content-type': request.headers.get('content-type')!, api_access_token: account.admin.token },
      });
      return { status: res.statusCode, body: res.json() };
    };
    const form = new FormData();
    form.append('status', 'delivered');
    const delivered = await patchForm(form);
    expect(delivered.status, JSON.stringify(delivered.body)).toBe(200);
    expect(delivered.body).toMatchObject({ id: message.id, status: 'delivered' });

    const withFile = new FormData();
    withFile.append('status', 'read');
    withFile.append('attachments[]', new Blob(['hello'], { type: 'text/plain' }), 'note.txt');
    const refused = await patchForm(withFile);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(refused.body.error).toEqual(expect.any(String));
    expect((await messageRow(message.id)).status).toBe('delivered');

    const bad = new FormData();
    bad.append('status', 'teleported');
    expect((await patchForm(bad)).status).toBe(422);
    expect((await messageRow(message.id)).status).toBe('delivered');
  });
});
