import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../test/helpers/test-app.js';
import { client } from '../../../test/helpers/http.js';
import { countRows } from '../../../test/helpers/db.js';
import {
  newAccount,
  newContact,
  newInbox,
  newPublicContact,
  publicInboxPath,
  type TestAccount,
} from '../../../test/helpers/factories.js';

/** Identity validation of the public interface: identifier_hash = hex HMAC-SHA256(inbox hmac_token, identifier). */

interface HmacInbox {
  id: number;
  inbox_identifier: string;
  hmac_token: string;
}

let t: ChatTestApp;
let account: TestAccount;
let other: TestAccount;
let widget: HmacInbox; // hmac optional
let mandatory: HmacInbox; // web widget with hmac_mandatory
let otherInbox: HmacInbox; // another account's

const HMAC_FAILED = { error: 'HMAC failed: Invalid Identifier Hash Provided', code: 'hmac_failed' };

/** What the customer's backend computes (the documented formula, independent of the implementation). */
const sign = (key: string, identifier: string) => createHmac('sha256', key).update(identifier).digest('hex');

const pub = () => client(t.app);
const contactsPath = (inbox: HmacInbox) => `${publicInboxPath(inbox.inbox_identifier)}/contacts`;
const contactPath = (inbox: HmacInbox, sourceId: string) => `${contactsPath(inbox)}/${encodeURIComponent(sourceId)}`;
const counts = async () => ({
  contacts: await countRows(t.db, 'contacts'),
  contactInboxes: await countRows(t.db, 'contact_inboxes'),
  events: await countRows(t.db, 'outbox_events'),
});
const contactInboxRow = (sourceId: string) =>
  t.db
    .selectFrom('contact_inboxes')
    .select(['contact_id', 'hmac_verified'])
    .where('source_id', '=', sourceId)
    .executeTakeFirstOrThrow();
const contactRow = (id: number) =>
  t.db
    .selectFrom('contacts')
    .select(['name', 'email', 'identifier', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

async function hmacInbox(
  owner: TestAccount,
  channel: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<HmacInbox> {
  const res = await client(t.app, owner.admin.token).post(`${owner.path}/inboxes`, { name: 'Site', channel, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as HmacInbox;
}

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  other = await newAccount(t, 'Other');
  widget = await hmacInbox(account, { type: 'web_widget', website_url: 'https://acme.test' });
  mandatory = await hmacInbox(account, { type: 'web_widget', website_url: 'https://acme.test', hmac_mandatory: true });
  otherInbox = await hmacInbox(other, { type: 'api' });
});
afterAll(async () => {
  await t.close();
});

describe('POST /public/api/v1/inboxes/:inbox_identifier/contacts with identifier_hash', () => {
  it('a valid hash identifies the contact and marks the contact inbox hmac_verified', async () => {
    const before = await counts();
    const res = await pub().post(contactsPath(widget), {
      name: 'Vera',
      identifier: 'vera-1',
      identifier_hash: sign(widget.hmac_token, 'vera-1'),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      source_id: expect.any(String),
      pubsub_token: expect.any(String),
      name: 'Vera',
      email: null,
      phone_number: null,
      hmac_verified: true,
    });
    expect(await contactInboxRow(res.body.source_id)).toEqual({ contact_id: res.body.id, hmac_verified: 1 });
    expect((await contactRow(res.body.id)).identifier).toBe('vera-1');
    const after = await counts();
    expect(after.contacts).toBe(before.contacts + 1);
    expect(after.contactInboxes).toBe(before.contactInboxes + 1);

    const shown = await pub().get(contactPath(widget, res.body.source_id));
    expect(shown.body).toMatchObject({ id: res.body.id, hmac_verified: true });

    // Agents see it on the conversation (meta.hmac_verified), as Chatwoot shows a verified badge.
    const started = await pub().post(`${contactPath(widget, res.body.source_id)}/conversations`, {});
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const seen = await client(t.app, account.admin.token).get(`${account.path}/conversations/${started.body.id}`);
    expect(seen.body.meta.hmac_verified).toBe(true);
    const unverified = await newPublicContact(t, widget.inbox_identifier, { name: 'Nobody' });
    const plain = await pub().post(`${contactPath(widget, unverified.source_id)}/conversations`, {});
    expect(
      (await client(t.app, account.admin.token).get(`${account.path}/conversations/${plain.body.id}`)).body.meta
        .hmac_verified,
    ).toBe(false);
  });

  it('a returning contact (created by the team) is attached, verified, with a valid hash', async () => {
    const existing = await newContact(t, account, { name: 'Rita', identifier: 'rita-7', email: 'rita@example.test' });
    const res = await pub().post(contactsPath(mandatory), {
      identifier: 'rita-7',
      email: 'rita@example.test',
      identifier_hash: sign(mandatory.hmac_token, 'rita-7'),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: existing.contact.id, name: 'Rita', hmac_verified: true });
    expect((await contactInboxRow(res.body.source_id)).hmac_verified).toBe(1);
  });

  it('a hash that does not match answers 401 hmac_failed and writes nothing', async () => {
    const cases = [
      { identifier: 'mallory', identifier_hash: 'f'.repeat(64) },
      { identifier: 'mallory', identifier_hash: sign(widget.hmac_token, 'someone-else') },
      { identifier: 'mallory', identifier_hash: sign(otherInbox.hmac_token, 'mallory') }, // another inbox's key
      { identifier: 'mallory', identifier_hash: sign(widget.hmac_token, 'mallory').slice(0, 63) }, // length checked first
      { identifier: 'mallory', identifier_hash: 'not hex at all' },
      { name: 'No identifier', identifier_hash: sign(widget.hmac_token, '') },
      { email: 'mallory@example.test', identifier_hash: sign(widget.hmac_token, 'mallory') },
    ];
    for (const inbox of [widget, mandatory]) {
      for (const body of cases) {
        const before = await counts();
        const res = await pub().post(contactsPath(inbox), body);
        expect(res.status, JSON.stringify(body)).toBe(401);
        expect(res.body).toEqual(HMAC_FAILED);
        expect(await counts()).toEqual(before);
      }
    }
  });

  it('a hash of a known identifier with a wrong key does not attach to that contact', async () => {
    const victim = await newContact(t, account, {
      name: 'Victim',
      identifier: 'victim-1',
      email: 'victim@example.test',
    });
    const before = await counts();
    const res = await pub().post(contactsPath(widget), {
      identifier: 'victim-1',
      identifier_hash: sign('guessed-key', 'victim-1'),
    });
    expect(res.status).toBe(401);
    expect(await counts()).toEqual(before);
    const inboxes = await t.db
      .selectFrom('contact_inboxes')
      .select('id')
      .where('contact_id', '=', victim.contact.id)
      .execute();
    expect(inboxes).toEqual([]);
  });

  it('on an hmac_mandatory inbox, an identifier or e-mail without a hash answers 401 and writes nothing', async () => {
    await newContact(t, account, { name: 'Known', identifier: 'known-1', email: 'known@example.test' });
    for (const body of [
      { identifier: 'known-1' },
      { email: 'known@example.test' },
      { identifier: 'brand-new', name: 'New' },
      { identifier: 'known-1', identifier_hash: null },
      { identifier: 'known-1', identifier_hash: '' },
    ]) {
      const before = await counts();
      const res = await pub().post(contactsPath(mandatory), body);
      expect(res.status, JSON.stringify(body)).toBe(401);
      expect(res.body).toEqual(HMAC_FAILED);
      expect(await counts()).toEqual(before);
    }
  });

  it('on an hmac_mandatory inbox, an anonymous visitor (no identifier, no e-mail) is still welcome, unverified', async () => {
    for (const body of [
      {},
      { name: 'Anon', phone_number: '+5511999990009', custom_attributes: { page: '/pricing' } },
      { identifier: null, email: null },
    ]) {
      const before = await counts();
      const res = await pub().post(contactsPath(mandatory), body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.body.hmac_verified).toBe(false);
      expect((await contactInboxRow(res.body.source_id)).hmac_verified).toBe(0);
      expect((await counts()).contacts).toBe(before.contacts + 1);
    }
  });

  it('without hmac_mandatory, no hash (or a blank one) never reaches the known contact: a new one, unverified', async () => {
    const known = await newContact(t, account, { name: 'Plain', identifier: 'plain-1' });
    for (const hash of [undefined, null, '']) {
      const res = await pub().post(contactsPath(widget), { identifier: 'plain-1', identifier_hash: hash });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ hmac_verified: false, name: '' });
      expect(res.body.id).not.toBe(known.contact.id);
      expect((await contactInboxRow(res.body.source_id)).hmac_verified).toBe(0);
    }
  });

  it('a verified identifier never claims a contact found only by its (unsigned) e-mail: 409, nothing written', async () => {
    await newContact(t, account, { name: 'Email only', email: 'lonely@example.test' });
    const before = await counts();
    const res = await pub().post(contactsPath(mandatory), {
      identifier: 'attacker-1',
      email: 'lonely@example.test',
      identifier_hash: sign(mandatory.hmac_token, 'attacker-1'),
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'conflict' });
    expect(await counts()).toEqual(before);
  });

  it('rejects an oversized or non-string hash with 422, writing nothing', async () => {
    const before = await counts();
    for (const identifier_hash of ['a'.repeat(129), 42, ['x']]) {
      const res = await pub().post(contactsPath(widget), { identifier: 'x-1', identifier_hash });
      expect(res.status, JSON.stringify(identifier_hash)).toBe(422);
      expect(res.body).toMatchObject({ code: 'validation_failed', error: expect.any(String) });
    }
    expect(await counts()).toEqual(before);
  });

  it("answers 404 for an unknown inbox identifier or a non-public inbox's, even with a valid-looking hash", async () => {
    const email = await newInbox(t, account, { type: 'email', email: 'help@acme.test' }, 'Mail');
    const row = await t.db
      .selectFrom('inboxes')
      .select(['identifier', 'hmac_token'])
      .where('id', '=', email.id)
      .executeTakeFirstOrThrow();
    const before = await counts();
    for (const inboxIdentifier of ['no-such-inbox', row.identifier]) {
      const res = await pub().post(`${publicInboxPath(inboxIdentifier)}/contacts`, {
        identifier: 'x',
        identifier_hash: sign(row.hmac_token ?? '', 'x'),
      });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found' });
    }
    expect(await counts()).toEqual(before);
  });
});

describe('PATCH /public/api/v1/inboxes/:inbox_identifier/contacts/:contact_identifier with identifier_hash', () => {
  it('on an hmac_mandatory inbox: anonymous edits pass, identification needs a valid hash, and then is verified', async () => {
    const anon = await newPublicContact(t, mandatory.inbox_identifier, { name: 'Anon' });
    const path = contactPath(mandatory, anon.source_id);

    const renamed = await pub().patch(path, { name: 'Still anon', custom_attributes: { plan: 'free' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Still anon', hmac_verified: false });

    for (const body of [
      { identifier: 'logged-in-1' },
      { email: 'logged@example.test' },
      { identifier: 'logged-in-1', identifier_hash: sign(mandatory.hmac_token, 'someone-else') },
      { name: 'Changed', identifier_hash: sign(mandatory.hmac_token, 'logged-in-1') }, // the contact has no identifier yet
    ]) {
      const before = { ...(await counts()), contact: await contactRow(anon.id) };
      const res = await pub().patch(path, body);
      expect(res.status, JSON.stringify(body)).toBe(401);
      expect(res.body).toEqual(HMAC_FAILED);
      expect({ ...(await counts()), contact: await contactRow(anon.id) }).toEqual(before);
      expect((await contactInboxRow(anon.source_id)).hmac_verified).toBe(0);
    }

    const identified = await pub().patch(path, {
      identifier: 'logged-in-1',
      email: 'logged@example.test',
      identifier_hash: sign(mandatory.hmac_token, 'logged-in-1'),
    });
    expect(identified.status, JSON.stringify(identified.body)).toBe(200);
    expect(identified.body).toMatchObject({ id: anon.id, email: 'logged@example.test', hmac_verified: true });
    expect(await contactInboxRow(anon.source_id)).toEqual({ contact_id: anon.id, hmac_verified: 1 });
    expect((await contactRow(anon.id)).identifier).toBe('logged-in-1');

    // Later edits of the e-mail sign the contact's own identifier.
    const noHash = await pub().patch(path, { email: 'new@example.test' });
    expect(noHash.status).toBe(401);
    const signed = await pub().patch(path, {
      email: 'new@example.test',
      identifier_hash: sign(mandatory.hmac_token, 'logged-in-1'),
    });
    expect(signed.status).toBe(200);
    expect(signed.body).toMatchObject({ email: 'new@example.test', hmac_verified: true });
  });

  it('without hmac_mandatory: a valid hash verifies; an identifier changed without one unmarks the contact inbox', async () => {
    const visitor = await newPublicContact(t, widget.inbox_identifier, { identifier: 'switch-1' });
    const path = contactPath(widget, visitor.source_id);
    const verified = await pub().patch(path, { identifier_hash: sign(widget.hmac_token, 'switch-1') });
    expect(verified.status).toBe(200);
    expect(verified.body.hmac_verified).toBe(true);
    expect((await contactInboxRow(visitor.source_id)).hmac_verified).toBe(1);

    const renamed = await pub().patch(path, { name: 'Renamed' });
    expect(renamed.body.hmac_verified).toBe(true);

    const switched = await pub().patch(path, { identifier: 'switch-2' });
    expect(switched.status).toBe(200);
    expect(switched.body.hmac_verified).toBe(false);
    expect((await contactInboxRow(visitor.source_id)).hmac_verified).toBe(0);
  });

  it("answers 404 for another inbox's or another account's contact identifier, whatever the hash", async () => {
    const theirs = await newPublicContact(t, otherInbox.inbox_identifier, { identifier: 'theirs-1' });
    const mine = await newPublicContact(t, widget.inbox_identifier, { identifier: 'mine-1' });
    for (const path of [contactPath(widget, theirs.source_id), contactPath(mandatory, mine.source_id)]) {
      const res = await pub().patch(path, { name: 'Hijack', identifier_hash: sign(widget.hmac_token, 'theirs-1') });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found' });
    }
    expect((await contactRow(theirs.id)).name).not.toBe('Hijack');
    expect((await contactRow(mine.id)).name).not.toBe('Hijack');
  });
});
