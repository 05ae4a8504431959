import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../test/helpers/test-app.js';
import { client } from '../../../test/helpers/http.js';
import { countRows, outboxEvents } from '../../../test/helpers/db.js';
import {
  newAccount,
  newContact,
  newInbox,
  newPublicContact,
  newPublicConversation,
  publicInboxPath,
  type TestAccount,
} from '../../../test/helpers/factories.js';

/** Contacts through the public interface: creation, identification of returning users, show, update, widget events. */

let t: ChatTestApp;
let account: TestAccount;
let other: TestAccount;
let apiInbox: { id: number; inbox_identifier: string };
let widgetInbox: { id: number; inbox_identifier: string };
let otherInbox: { id: number; inbox_identifier: string };
let emailIdentifier: string;

const pub = () => client(t.app);
const contactPath = (inboxIdentifier: string, sourceId: string) =>
  `${publicInboxPath(inboxIdentifier)}/contacts/${encodeURIComponent(sourceId)}`;
const counts = async () => ({
  contacts: await countRows(t.db, 'contacts'),
  contactInboxes: await countRows(t.db, 'contact_inboxes'),
  events: await countRows(t.db, 'outbox_events'),
});
/** 24 random bytes as base64url: 32 characters, 192 bits. */
const TOKEN = /^[A-Za-z0-9_-]{32}$/;

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  other = await newAccount(t, 'Other');
  apiInbox = (await newInbox(t, account, { type: 'api' }, 'API desk')) as typeof apiInbox;
  widgetInbox = (await newInbox(
    t,
    account,
    { type: 'web_widget', website_url: 'https://acme.test' },
    'Website',
  )) as typeof widgetInbox;
  otherInbox = (await newInbox(t, other, { type: 'api' })) as typeof otherInbox;
  const email = await newInbox(t, account, { type: 'email', email: 'help@acme.test' }, 'Mail');
  const row = await t.db
    .selectFrom('inboxes')
    .select('identifier')
    .where('id', '=', email.id)
    .executeTakeFirstOrThrow();
  emailIdentifier = row.identifier;
});
afterAll(async () => {
  await t.close();
});

describe('POST /public/api/v1/inboxes/:inbox_identifier/contacts', () => {
  it('creates a contact and its contact inbox with unguessable identifiers, and records contact_created', async () => {
    const before = await counts();
    const res = await pub().post(`${publicInboxPath(apiInbox.inbox_identifier)}/contacts`, {
      name: 'Vera Visitor',
      email: 'Vera@Example.test',
      phone_number: '+5511999990001',
      identifier: 'vera-1',
      custom_attributes: { plan: 'free' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      source_id: expect.stringMatching(TOKEN),
      pubsub_token: expect.stringMatching(TOKEN),
      name: 'Vera Visitor',
      email: 'vera@example.test',
      phone_number: '+5511999990001',
      hmac_verified: false,
    });
    expect(res.body.source_id).not.toBe(res.body.pubsub_token);
    const after = await counts();
    expect(after.contacts).toBe(before.contacts + 1);
    expect(after.contactInboxes).toBe(before.contactInboxes + 1);

    const [event] = (await outboxEvents(t.db, account.id, 'contact_created')).slice(-1);
    expect(event.payload).toMatchObject({
      event: 'contact_created',
      id: res.body.id,
      name: 'Vera Visitor',
      email: 'vera@example.test',
      identifier: 'vera-1',
      custom_attributes: { plan: 'free' },
      account: { id: account.id, name: 'Acme' },
    });

    // The team sees the contact in its inbox, under the new source id.
    const shown = await client(t.app, account.admin.token).get(`${account.path}/contacts/${res.body.id}`);
    expect(shown.body.payload.contact_inboxes).toEqual([
      { source_id: res.body.source_id, inbox: { id: apiInbox.id, name: 'API desk', channel_type: 'Channel::Api' } },
    ]);
  });

  it('works on web-widget inboxes, with an empty body too, and never hands out the same identifiers twice', async () => {
    const a = await pub().post(`${publicInboxPath(widgetInbox.inbox_identifier)}/contacts`, {});
    const b = await pub().post(`${publicInboxPath(widgetInbox.inbox_identifier)}/contacts`, {});
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ name: '', email: null, phone_number: null });
    expect(b.body.id).not.toBe(a.body.id);
    expect(new Set([a.body.source_id, b.body.source_id, a.body.pubsub_token, b.body.pubsub_token]).size).toBe(4);
  });

  it("without a verified identity, an existing contact's e-mail or identifier neither reveals nor reaches it: a new contact (security review: widget takeover)", async () => {
    const existing = await newContact(t, account, {
      name: 'Rita Returning',
      email: 'rita@example.test',
      identifier: 'rita-7',
      phone_number: '+5511999990077',
    });
    const before = await counts();
    const byEmail = await newPublicContact(t, apiInbox.inbox_identifier, {
      email: 'RITA@example.test',
      name: 'Mallory',
    });
    const byIdentifier = await newPublicContact(t, widgetInbox.inbox_identifier, { identifier: 'rita-7' });
    const both = await newPublicContact(t, apiInbox.inbox_identifier, {
      identifier: 'impostor',
      email: 'rita@example.test',
    });
    for (const c of [byEmail, byIdentifier, both]) {
      expect(c.id).not.toBe(existing.contact.id);
      expect(JSON.stringify(c)).not.toContain('Rita Returning');
      expect(JSON.stringify(c)).not.toContain('+5511999990077');
      expect(c.email).toBeNull();
    }
    expect(new Set([byEmail.id, byIdentifier.id, both.id]).size).toBe(3);
    const after = await counts();
    expect(after.contacts).toBe(before.contacts + 3);
    expect(after.contactInboxes).toBe(before.contactInboxes + 3);
    // What the visitor claimed is kept on its own contact, for agents to judge.
    const claimed = await client(t.app, account.admin.token).get(`${account.path}/contacts/${byEmail.id}`);
    expect(claimed.body.payload).toMatchObject({
      name: 'Mallory',
      email: null,
      additional_attributes: { claimed_email: 'rita@example.test' },
    });
    const claimedId = await client(t.app, account.admin.token).get(`${account.path}/contacts/${both.id}`);
    expect(claimedId.body.payload).toMatchObject({
      identifier: 'impostor',
      additional_attributes: { claimed_email: 'rita@example.test' },
    });
    // A PATCH by the visitor changes only its own contact: the real one keeps its name.
    const renamed = await pub().patch(contactPath(apiInbox.inbox_identifier, byEmail.source_id), {
      name: 'Renamed by attacker',
      email: 'rita@example.test',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: byEmail.id, name: 'Renamed by attacker', email: null });
    const real = await client(t.app, account.admin.token).get(`${account.path}/contacts/${existing.contact.id}`);
    expect(real.body.payload).toMatchObject({
      name: 'Rita Returning',
      email: 'rita@example.test',
      identifier: 'rita-7',
      phone_number: '+5511999990077',
    });
  });

  it('a visitor coming back without a verified identity gets a new contact each time (continuity needs HMAC)', async () => {
    const first = await newPublicContact(t, apiInbox.inbox_identifier, { identifier: 'multi-device' });
    const conversation = await newPublicConversation(t, apiInbox.inbox_identifier, first.source_id);
    const again = await newPublicContact(t, apiInbox.inbox_identifier, { identifier: 'multi-device' });
    expect(again.id).not.toBe(first.id);
    const list = await pub().get(`${contactPath(apiInbox.inbox_identifier, again.source_id)}/conversations`);
    expect(list.body).toEqual([]);
    expect(
      (await pub().get(`${contactPath(apiInbox.inbox_identifier, again.source_id)}/conversations/${conversation.id}`))
        .status,
    ).toBe(404);
  });

  it('rejects bad input with 422 and creates nothing', async () => {
    const before = await counts();
    for (const body of [
      { name: 42 },
      { email: 'not-an-email' },
      { phone_number: '12345' },
      { name: 'x'.repeat(256) },
      { identifier: ['x'] },
      { custom_attributes: 'plan' },
    ]) {
      const res = await pub().post(`${publicInboxPath(apiInbox.inbox_identifier)}/contacts`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_failed', error: expect.any(String) });
    }
    expect(await counts()).toEqual(before);
  });

  it('answers 404 for an unknown inbox identifier and for inboxes that are not API or web widget', async () => {
    const before = await counts();
    for (const identifier of ['no-such-inbox', emailIdentifier]) {
      const res = await pub().post(`${publicInboxPath(identifier)}/contacts`, { name: 'x' });
      expect(res.status, identifier).toBe(404);
      expect(res.body).toEqual({ error: 'Inbox not found', code: 'not_found' });
    }
    expect(await counts()).toEqual(before);
  });
});

describe('GET and PATCH /public/api/v1/inboxes/:inbox_identifier/contacts/:contact_identifier', () => {
  it('shows the contact in the public shape', async () => {
    const c = await newPublicContact(t, apiInbox.inbox_identifier, { name: 'Sam', email: 'sam@example.test' });
    const res = await pub().get(contactPath(apiInbox.inbox_identifier, c.source_id));
    expect(res.status).toBe(200);
    expect(res.body).toEqual(c);
  });

  it('updates the contact (custom attributes merge) and records contact_updated with the changes', async () => {
    const c = await newPublicContact(t, apiInbox.inbox_identifier, { name: 'Before', custom_attributes: { a: 1 } });
    const res = await pub().patch(contactPath(apiInbox.inbox_identifier, c.source_id), {
      name: 'After',
      phone_number: '+5511999990002',
      custom_attributes: { b: 2 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ ...c, name: 'After', phone_number: '+5511999990002' });
    const [event] = (await outboxEvents(t.db, account.id, 'contact_updated')).slice(-1);
    expect(event.payload).toMatchObject({
      event: 'contact_updated',
      id: c.id,
      name: 'After',
      custom_attributes: { a: 1, b: 2 },
    });
    expect(event.payload.changed_attributes).toEqual(
      expect.arrayContaining([
        { name: { previous_value: 'Before', current_value: 'After' } },
        { custom_attributes: { previous_value: { a: 1 }, current_value: { a: 1, b: 2 } } },
      ]),
    );
    // Wrapped in the resource key, as Rails clients send it.
    const wrapped = await pub().patch(contactPath(apiInbox.inbox_identifier, c.source_id), {
      contact: { name: 'Wrapped' },
    });
    expect(wrapped.body.name).toBe('Wrapped');
  });

  it('rejects bad input (422), changing nothing; a taken e-mail is only a claim on the own contact', async () => {
    const owner = await newPublicContact(t, apiInbox.inbox_identifier, { email: 'taken@example.test', name: 'Owner' });
    const c = await newPublicContact(t, apiInbox.inbox_identifier, { name: 'Unchanged' });
    const before = await counts();
    const path = contactPath(apiInbox.inbox_identifier, c.source_id);
    for (const body of [{ name: 7 }, { email: 'nope' }, { custom_attributes: [1] }]) {
      expect((await pub().patch(path, body)).status, JSON.stringify(body)).toBe(422);
    }
    expect(await counts()).toEqual(before);
    expect((await pub().get(path)).body).toEqual(c);
    const taken = await pub().patch(path, { email: 'taken@example.test' });
    expect(taken.status).toBe(200);
    expect(taken.body).toEqual(c);
    const row = await t.db
      .selectFrom('contacts')
      .select('additional_attributes')
      .where('id', '=', c.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.additional_attributes)).toEqual({ claimed_email: 'taken@example.test' });
    expect((await pub().get(contactPath(apiInbox.inbox_identifier, owner.source_id))).body).toEqual(owner);
  });

  it('answers 404 for an unknown contact identifier, another inbox, another account, or a non-public inbox', async () => {
    const c = await newPublicContact(t, apiInbox.inbox_identifier);
    const missing = await pub().get(contactPath(apiInbox.inbox_identifier, 'no-such-contact'));
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'Contact not found', code: 'not_found' });
    for (const inbox of [widgetInbox.inbox_identifier, otherInbox.inbox_identifier, emailIdentifier]) {
      expect((await pub().get(contactPath(inbox, c.source_id))).status, inbox).toBe(404);
      expect((await pub().patch(contactPath(inbox, c.source_id), { name: 'x' })).status, inbox).toBe(404);
    }
    expect((await pub().get(contactPath(apiInbox.inbox_identifier, c.source_id))).body.name).toBe(c.name);
  });
});

describe('POST /public/api/v1/inboxes/:inbox_identifier/contacts/:contact_identifier/events', () => {
  it('records webwidget_triggered with the contact, inbox, account, source_id and current conversation', async () => {
    const c = await newPublicContact(t, widgetInbox.inbox_identifier, { name: 'Wendy', email: 'wendy@example.test' });
    const path = `${contactPath(widgetInbox.inbox_identifier, c.source_id)}/events`;
    const first = await pub().post(path, {
      name: 'webwidget.triggered',
      event_info: { referer: 'https://acme.test/pricing' },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({});
    let [event] = (await outboxEvents(t.db, account.id, 'webwidget_triggered')).slice(-1);
    expect(event.payload).toEqual({
      event: 'webwidget_triggered',
      id: c.id,
      contact: expect.objectContaining({
        id: c.id,
        name: 'Wendy',
        email: 'wendy@example.test',
        type: 'contact',
        account: { id: account.id, name: 'Acme' },
      }),
      inbox: { id: widgetInbox.id, name: 'Website' },
      account: { id: account.id, name: 'Acme' },
      source_id: c.source_id,
      current_conversation: null,
      event_info: { referer: 'https://acme.test/pricing' },
    });

    await newPublicConversation(t, widgetInbox.inbox_identifier, c.source_id);
    const latest = await newPublicConversation(t, widgetInbox.inbox_identifier, c.source_id);
    expect((await pub().post(path, { name: 'webwidget.triggered' })).status).toBe(200);
    [event] = (await outboxEvents(t.db, account.id, 'webwidget_triggered')).slice(-1);
    expect(event.payload.current_conversation).toMatchObject({
      id: latest.id,
      inbox_id: widgetInbox.id,
      status: 'open',
      contact: { id: c.id },
    });
    expect(event.payload.event_info).toEqual({});
  });

  it('rejects a missing or unknown event name and bad event_info with 422, recording nothing; unknown contacts 404', async () => {
    const c = await newPublicContact(t, widgetInbox.inbox_identifier);
    const path = `${contactPath(widgetInbox.inbox_identifier, c.source_id)}/events`;
    const before = await counts();
    for (const body of [
      {},
      { name: 5 },
      { name: 'something.else' },
      { name: 'webwidget.triggered', event_info: 'x' },
    ]) {
      const res = await pub().post(path, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ code: expect.any(String), error: expect.any(String) });
    }
    expect(
      (
        await pub().post(`${contactPath(apiInbox.inbox_identifier, c.source_id)}/events`, {
          name: 'webwidget.triggered',
        })
      ).status,
    ).toBe(404);
    expect(await counts()).toEqual(before);
  });
});
