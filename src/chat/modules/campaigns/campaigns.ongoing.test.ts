import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newAccount,
  newAgent,
  newInbox,
  newPublicContact,
  publicInboxPath,
  type TestAccount,
} from '../../../../test/helpers/factories.js';
import { countRows, outboxEvents } from '../../../../test/helpers/db.js';
import { call, client } from '../../../../test/helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { OutboxDispatcher } from '../../../core/events/dispatcher.js';
import { createLocalFileStore } from '../../../core/storage/file-store.js';
import type { ChatDeps } from '../../context.js';
import type { ChatDatabase } from '../../db/schema.js';
import type { ChatEvents } from '../../events.js';
import { chatDeclared, createChatServices } from '../../modules.js';
import { campaignsModule } from './campaigns.module.js';

/** Ongoing campaigns: the widget's list on the public interface, and the widget's trigger. */
const logger = pino({ level: 'silent' });

let t: ChatTestApp;
let account: TestAccount;
let widget: { id: number; inbox_identifier: string | null };
let otherWidget: { id: number; inbox_identifier: string | null };
let apiInbox: { id: number; inbox_identifier: string | null };
let dispatcher: OutboxDispatcher<ChatDatabase, ChatEvents>;

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  widget = await newInbox(t, account, { type: 'web_widget', website_url: 'https://shop.example.test' }, 'Shop');
  otherWidget = await newInbox(t, account, { type: 'web_widget', website_url: 'https://blog.example.test' }, 'Blog');
  apiInbox = await newInbox(t, account);
  // The campaigns module's listeners, as the background runs them.
  const deps: ChatDeps = {
    db: t.db,
    dialect: t.dialect,
    config: t.config,
    fileStore: createLocalFileStore(t.config.dataDir),
  };
  const listeners = campaignsModule.listeners!({
    deps,
    services: createChatServices(deps),
    logger,
    declared: chatDeclared,
  });
  dispatcher = new OutboxDispatcher<ChatDatabase, ChatEvents>({ db: t.db, dialect: t.dialect, logger, listeners });
});
afterAll(async () => {
  await t.close();
});

async function ongoing(inboxId: number, body: Record<string, unknown> = {}) {
  const res = await client(t.app, account.admin.token).post(`${account.path}/campaigns`, {
    title: 'Pricing help',
    campaign_type: 'ongoing',
    inbox_id: inboxId,
    message: 'Hi {{contact.name}}, {{agent.name}} here: need help with pricing?',
    trigger_rules: { url: 'https://shop.example.test/pricing', time_on_page: 5 },
    ...body,
  });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: number };
}

const campaignsOf = (identifier: string) => call(t.app, { url: `${publicInboxPath(identifier)}/campaigns` });

function trigger(sourceId: string, body: Record<string, unknown>) {
  return call(t.app, {
    method: 'POST',
    url: `${publicInboxPath(widget.inbox_identifier!)}/contacts/${encodeURIComponent(sourceId)}/events`,
    body,
  });
}

/** The conversations of a contact, with their messages (the agents' view). */
async function conversationsOf(contactId: number) {
  const api = client(t.app, account.admin.token);
  const rows = await t.db
    .selectFrom('conversations')
    .select('display_id')
    .where('account_id', '=', account.id)
    .where('contact_id', '=', contactId)
    .orderBy('id')
    .execute();
  const out = [];
  for (const row of rows) {
    const messages = (await api.get(`${account.path}/conversations/${row.display_id}/messages`)).body.payload;
    out.push({ id: row.display_id, messages: messages as { content: string; message_type: number; sender: any }[] });
  }
  return out;
}

describe('ongoing campaigns', () => {
  it("are listed for the widget: the inbox's enabled ones, without the sender's e-mail", async () => {
    const agent = await newAgent(t, account, 'Paula Pricing');
    const active = await ongoing(widget.id, { sender_id: agent.id });
    await ongoing(widget.id, { title: 'Off', enabled: false });
    await ongoing(otherWidget.id, { title: 'Elsewhere' });
    const res = await campaignsOf(widget.inbox_identifier!);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual([
      {
        id: active.id,
        title: 'Pricing help',
        message: 'Hi {{contact.name}}, {{agent.name}} here: need help with pricing?',
        trigger_rules: { url: 'https://shop.example.test/pricing', time_on_page: 5 },
        trigger_only_during_business_hours: false,
        sender: { id: agent.id, name: 'Paula Pricing', available_name: 'Paula Pricing', thumbnail: '' },
      },
    ]);
    expect((await campaignsOf(apiInbox.inbox_identifier!)).body).toEqual([]);
    expect((await campaignsOf('no-such-inbox')).status).toBe(404);
  });

  it('start a conversation with the campaign message when the widget triggers them, once per contact', async () => {
    const campaign = await ongoing(widget.id);
    const disabled = await ongoing(widget.id, { title: 'Disabled', enabled: false });
    const elsewhere = await ongoing(otherWidget.id, { title: 'Other site' });
    const visitor = await newPublicContact(t, widget.inbox_identifier!, { name: 'Vera Visitor' });

    const res = await trigger(visitor.source_id, {
      name: 'campaign.triggered',
      event_info: { campaign_id: campaign.id },
    });
    expect(res.status, res.text).toBe(200);
    const [recorded] = await outboxEvents(t.db, account.id, 'webwidget_triggered');
    expect(recorded.payload).toMatchObject({ event: 'webwidget_triggered', event_info: { campaign_id: campaign.id } });
    await dispatcher.drain();

    const conversations = await conversationsOf(visitor.id);
    expect(conversations).toHaveLength(1);
    expect(conversations[0].messages).toMatchObject([
      {
        content: 'Hi Vera Visitor, Admin here: need help with pricing?',
        message_type: 1,
        sender: { id: account.admin.id, type: 'user' },
      },
    ]);
    // The visitor sees it in their own conversation list.
    const mine = await call(t.app, {
      url: `${publicInboxPath(widget.inbox_identifier!)}/contacts/${visitor.source_id}/conversations`,
    });
    expect(mine.body).toMatchObject([
      { id: conversations[0].id, messages: [{ content: expect.stringContaining('Vera') }] },
    ]);

    // The same trigger again (a reload), a disabled campaign, another inbox's campaign, a plain
    // widget event: no new conversation.
    for (const body of [
      { name: 'campaign.triggered', event_info: { campaign_id: campaign.id } },
      { name: 'campaign.triggered', event_info: { campaign_id: disabled.id } },
      { name: 'campaign.triggered', event_info: { campaign_id: elsewhere.id } },
      { name: 'campaign.triggered', event_info: { campaign_id: 999 } },
      { name: 'webwidget.triggered' },
    ]) {
      expect((await trigger(visitor.source_id, body)).status).toBe(200);
    }
    await dispatcher.drain();
    expect(await conversationsOf(visitor.id)).toHaveLength(1);

    const shown = await client(t.app, account.admin.token).get(`${account.path}/campaigns/${campaign.id}`);
    expect(shown.body).toMatchObject({ campaign_status: 'active', sent: 1, failed: 0, audience_count: 1 });

    // Another visitor gets their own.
    const second = await newPublicContact(t, widget.inbox_identifier!, { name: 'Walt' });
    await trigger(second.source_id, { name: 'campaign.triggered', event_info: { campaign_id: campaign.id } });
    await dispatcher.drain();
    expect((await conversationsOf(second.id))[0].messages[0].content).toBe(
      'Hi Walt, Admin here: need help with pricing?',
    );
  });

  it('refuse a campaign.triggered event without a campaign number (422, nothing recorded)', async () => {
    const visitor = await newPublicContact(t, widget.inbox_identifier!);
    const before = await countRows(t.db, 'outbox_events');
    for (const event_info of [undefined, {}, { campaign_id: 'abc' }, { campaign_id: 0 }, { campaign_id: 1.5 }]) {
      const res = await trigger(visitor.source_id, {
        name: 'campaign.triggered',
        ...(event_info ? { event_info } : {}),
      });
      expect(res.status, JSON.stringify(event_info)).toBe(422);
    }
    expect(await countRows(t.db, 'outbox_events')).toBe(before);
  });
});
