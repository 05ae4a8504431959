import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { client } from '../../../../test/helpers/http.js';
import { countRows } from '../../../../test/helpers/db.js';
import {
  addInboxMembers,
  newAccount,
  newAgent,
  newInbox,
  type TestAccount,
  type TestUser,
} from '../../../../test/helpers/factories.js';

/** The inboxes' identity-validation settings: the generated hmac_token (administrators only) and hmac_mandatory. */

let t: ChatTestApp;
let account: TestAccount;
let other: TestAccount;
let agent: TestUser;

/** 24 random bytes as base64url: 32 characters, 192 bits. */
const TOKEN = /^[A-Za-z0-9_-]{32}$/;

const admin = () => client(t.app, account.admin.token);
const stored = (id: number) =>
  t.db
    .selectFrom('inboxes')
    .select(['hmac_token', 'hmac_mandatory', 'channel', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  other = await newAccount(t, 'Other');
  agent = await newAgent(t, account);
});
afterAll(async () => {
  await t.close();
});

describe('hmac_token', () => {
  it('is generated for every new inbox, unique, and shown to administrators', async () => {
    const widget = await admin().post(`${account.path}/inboxes`, {
      name: 'Site',
      channel: { type: 'web_widget', website_url: 'https://acme.test' },
    });
    const api = await admin().post(`${account.path}/inboxes`, { name: 'API', channel: { type: 'api' } });
    for (const res of [widget, api]) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ hmac_token: expect.stringMatching(TOKEN), hmac_mandatory: false });
      expect((await stored(res.body.id)).hmac_token).toBe(res.body.hmac_token);
    }
    expect(widget.body.hmac_token).not.toBe(api.body.hmac_token);
    expect(widget.body.hmac_token).not.toBe(widget.body.website_token);

    const shown = await admin().get(`${account.path}/inboxes/${widget.body.id}`);
    expect(shown.body.hmac_token).toBe(widget.body.hmac_token);
    const listed = await admin().get(`${account.path}/inboxes`);
    expect(listed.body.payload.find((i: { id: number }) => i.id === widget.body.id).hmac_token).toBe(
      widget.body.hmac_token,
    );
  });

  it('is not shown to agents, who still see hmac_mandatory', async () => {
    const inbox = await newInbox(t, account, {
      type: 'web_widget',
      website_url: 'https://acme.test',
      hmac_mandatory: true,
    });
    await addInboxMembers(t, account, inbox.id, [agent.id]);
    const shown = await client(t.app, agent.token).get(`${account.path}/inboxes/${inbox.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).not.toHaveProperty('hmac_token');
    expect(shown.body.hmac_mandatory).toBe(true);
    expect(JSON.stringify(shown.body)).not.toContain((await stored(inbox.id)).hmac_token);
    const listed = await client(t.app, agent.token).get(`${account.path}/inboxes`);
    const mine = listed.body.payload.find((i: { id: number }) => i.id === inbox.id);
    expect(mine).toMatchObject({ hmac_mandatory: true });
    expect(mine).not.toHaveProperty('hmac_token');
  });

  it('cannot be chosen by the client (a channel hmac_token is ignored, not stored)', async () => {
    const res = await admin().post(`${account.path}/inboxes`, {
      name: 'Chosen',
      channel: { type: 'api', hmac_token: 'my-own-key' },
    });
    expect(res.status).toBe(200);
    expect(res.body.hmac_token).toMatch(TOKEN);
    const patched = await admin().patch(`${account.path}/inboxes/${res.body.id}`, {
      channel: { hmac_token: 'my-own-key' },
    });
    expect(patched.status).toBe(200);
    const row = await stored(res.body.id);
    expect(row.hmac_token).toBe(res.body.hmac_token);
    expect(JSON.parse(row.channel)).not.toHaveProperty('hmac_token');
  });
});

describe('hmac_mandatory', () => {
  it('is set at creation at the top level or inside channel (Chatwoot web-widget clients), kept out of the channel document', async () => {
    const top = await admin().post(`${account.path}/inboxes`, {
      name: 'Top',
      hmac_mandatory: true,
      channel: { type: 'api' },
    });
    const inChannel = await admin().post(`${account.path}/inboxes`, {
      inbox: {
        name: 'Nested',
        channel: { type: 'web_widget', website_url: 'https://acme.test', hmac_mandatory: true },
      },
    });
    for (const res of [top, inChannel]) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.hmac_mandatory).toBe(true);
      expect(res.body.channel).not.toHaveProperty('hmac_mandatory');
      const row = await stored(res.body.id);
      expect(row.hmac_mandatory).toBe(1);
      expect(JSON.parse(row.channel)).not.toHaveProperty('hmac_mandatory');
    }
  });

  it('is switched on and off by PATCH, both ways, and left alone when not sent', async () => {
    const inbox = await newInbox(t, account, { type: 'web_widget', website_url: 'https://acme.test' });
    const path = `${account.path}/inboxes/${inbox.id}`;
    const on = await admin().patch(path, { channel: { hmac_mandatory: true } });
    expect(on.status).toBe(200);
    expect(on.body.hmac_mandatory).toBe(true);
    expect((await stored(inbox.id)).hmac_mandatory).toBe(1);

    const renamed = await admin().patch(path, { name: 'Renamed' });
    expect(renamed.body).toMatchObject({ name: 'Renamed', hmac_mandatory: true });

    const off = await admin().patch(path, { inbox: { hmac_mandatory: false } });
    expect(off.status).toBe(200);
    expect(off.body.hmac_mandatory).toBe(false);
    expect((await stored(inbox.id)).hmac_mandatory).toBe(0);
  });

  it('rejects a non-boolean or contradictory value with 422, changing nothing', async () => {
    const inbox = await newInbox(t, account, { type: 'api' });
    const path = `${account.path}/inboxes/${inbox.id}`;
    const before = await stored(inbox.id);
    const inboxesBefore = await countRows(t.db, 'inboxes');
    for (const body of [
      { hmac_mandatory: 'yes' },
      { hmac_mandatory: 1 },
      { channel: { hmac_mandatory: 'on' } },
      { hmac_mandatory: true, channel: { hmac_mandatory: false } },
    ]) {
      const res = await admin().patch(path, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
      const created = await admin().post(`${account.path}/inboxes`, {
        name: 'Bad',
        ...body,
        channel: { type: 'api', ...(body.channel ?? {}) },
      });
      expect(created.status, JSON.stringify(body)).toBe(422);
    }
    expect(await stored(inbox.id)).toEqual(before);
    expect(await countRows(t.db, 'inboxes')).toBe(inboxesBefore);
  });

  it('is an administrator setting (agents 403, no token 401) of the own account (404 for another account)', async () => {
    const inbox = await newInbox(t, account, { type: 'api' });
    await addInboxMembers(t, account, inbox.id, [agent.id]);
    const path = `${account.path}/inboxes/${inbox.id}`;
    expect((await client(t.app, agent.token).patch(path, { hmac_mandatory: true })).status).toBe(403);
    expect((await client(t.app).patch(path, { hmac_mandatory: true })).status).toBe(401);
    const theirs = await newInbox(t, other, { type: 'api' });
    const res = await admin().patch(`${account.path}/inboxes/${theirs.id}`, { hmac_mandatory: true });
    expect(res.status).toBe(404);
    expect((await stored(inbox.id)).hmac_mandatory).toBe(0);
    expect((await stored(theirs.id)).hmac_mandatory).toBe(0);
  });
});
