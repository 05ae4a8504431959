import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, newContact, newInbox, type TestAccount } from '../../../../test/helpers/factories.js';
import { outboxEvents } from '../../../../test/helpers/db.js';
import { client } from '../../../../test/helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { JobRunner } from '../../../core/jobs/jobs.js';
import { createLocalFileStore } from '../../../core/storage/file-store.js';
import type { ChatDeps } from '../../context.js';
import { chatDeclared, createChatServices } from '../../modules.js';
import { campaignsModule } from './campaigns.module.js';
import { CampaignSending, type CampaignSendingOptions } from './campaigns.sending.js';

/**
 * One-off campaigns sent by the job scheduler. Each "instance" is a job runner with its own
 * services on its own connection to the test database, driven by an injected clock (`runDue()`),
 * as a server process would run them; nothing here waits on time.
 */
const logger = pino({ level: 'silent' });
const HOUR = 3_600_000;

let t: ChatTestApp;
let account: TestAccount;
let inbox: { id: number };
let now = Date.now();
const clock = () => now;

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  inbox = await newInbox(t, account);
});
afterAll(async () => {
  await t.close();
});

/** A server instance's campaign jobs on `app`'s database connection (the module's own definitions, or with other batch options). */
function instance(app: ChatTestApp, options?: CampaignSendingOptions): JobRunner {
  const deps: ChatDeps = {
    db: app.db,
    dialect: app.dialect,
    config: app.config,
    fileStore: createLocalFileStore(app.config.dataDir),
  };
  const services = createChatServices(deps);
  const definitions = options
    ? new CampaignSending(deps, services, options).jobs()
    : campaignsModule.jobs!({ deps, services, logger, declared: chatDeclared });
  return new JobRunner({ db: app.db, dialect: app.dialect, logger, definitions, clock });
}

const api = () => client(t.app, account.admin.token);

/** Contacts of the account carrying `labels`, through the API. */
async function labelled(name: string, labels: string[], fields: Record<string, unknown> = {}) {
  const contact = (await newContact(t, account, { name, ...fields })).contact;
  const res = await api().post(`${account.path}/contacts/${contact.id}/labels`, { labels });
  expect(res.status, res.text).toBe(200);
  return contact;
}

async function campaign(body: Record<string, unknown>) {
  const res = await api().post(`${account.path}/campaigns`, {
    title: 'Campaign',
    campaign_type: 'one_off',
    inbox_id: inbox.id,
    ...body,
  });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: number };
}

const show = async (id: number) => (await api().get(`${account.path}/campaigns/${id}`)).body;

/** The conversations a campaign opened, each with its messages (internal rows). */
async function sentBy(campaignNumber: number) {
  const conversations = await t.db
    .selectFrom('conversations')
    .selectAll()
    .where('account_id', '=', account.id)
    .where('additional_attributes', 'like', `%"campaign_id":${campaignNumber}}%`)
    .orderBy('id')
    .execute();
  const messages = await t.db
    .selectFrom('messages')
    .selectAll()
    .where('conversation_id', 'in', conversations.map((c) => c.id).concat([0]))
    .orderBy('id')
    .execute();
  return { conversations, messages };
}

/**
 * Runs the instances' due jobs, moving the clock on by a batch interval while a batch is still to
 * come (a batch may stop early at its time budget), until the campaigns' sending is done.
 */
async function settle(...runners: JobRunner[]) {
  for (let i = 0; i < 200; i++) {
    await Promise.all(runners.map((r) => r.runDue()));
    const next = await t.db
      .selectFrom('jobs')
      .select('id')
      .where('name', '=', 'campaigns.send_batch')
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (!next) return;
    now += 1000;
  }
  throw new Error('campaign batches did not settle');
}

/** Every campaign job becomes due again, as when a worker died holding it and its lease ran out. */
async function replayJobs() {
  await t.db
    .updateTable('jobs')
    .set({ status: 'pending', run_at: now, attempts: 0, locked_until: null })
    .where('name', 'like', 'campaigns.%')
    .execute();
}

describe('one-off campaigns', () => {
  it('send at scheduled_at to exactly the labelled contacts, with the variables substituted, then complete', async () => {
    const ana = await labelled('Ana Lima', ['vip'], { email: 'ana@example.test', phone_number: '+5511999990001' });
    const bruno = await labelled('Bruno Costa', ['vip', 'newsletter'], { email: 'bruno@example.test' });
    const carla = await labelled('Carla Dias', ['newsletter']);
    await labelled('Davi Souza', ['other']);
    const at = Date.now() + HOUR;
    const { id } = await campaign({
      scheduled_at: new Date(at).toISOString(),
      audience: [
        { type: 'Label', id: 'vip' },
        { type: 'Label', id: 'newsletter' },
      ],
      message:
        'Hi {{contact.name}} <{{ contact.email }}> {{contact.phone_number}}, {{agent.name}} here.{{constructor.constructor}}{{__proto__}}{{unknown}}',
    });
    const runner = instance(t);
    now = at - 1;
    await runner.runDue();
    expect((await sentBy(id)).messages).toEqual([]);

    now = at;
    await settle(runner);
    const { conversations, messages } = await sentBy(id);
    expect(conversations.map((c) => c.contact_id).sort()).toEqual([ana.id, bruno.id, carla.id].sort());
    expect(conversations.every((c) => c.inbox_id === inbox.id && c.status === 'open')).toBe(true);
    expect(messages.map((m) => m.content).sort()).toEqual([
      'Hi Ana Lima <ana@example.test> +5511999990001, Admin here.',
      'Hi Bruno Costa <bruno@example.test> , Admin here.',
      'Hi Carla Dias <> , Admin here.',
    ]);
    expect(messages.every((m) => m.message_type === 1 && m.private === 0)).toBe(true);
    expect(messages.every((m) => m.sender_type === 'User' && m.sender_id === account.admin.id)).toBe(true);

    // Real messages: recorded like any other, for webhooks, bots, automation and realtime.
    const created = (await outboxEvents(t.db, account.id, 'message_created')).filter((e) =>
      messages.some((m) => String(m.id) === String(e.payload.id)),
    );
    expect(created).toHaveLength(3);
    expect(created[0].payload).toMatchObject({ event: 'message_created', message_type: 'outgoing' });

    expect(await show(id)).toMatchObject({ campaign_status: 'completed', sent: 3, failed: 0, audience_count: 3 });
    // Once completed, what it sent is fixed.
    const late = await api().patch(`${account.path}/campaigns/${id}`, { message: 'Another text' });
    expect(late.status).toBe(422);
  });

  it('survives a restart between scheduling and sending, and is sent once by two instances', async () => {
    await labelled('Eva', ['restart']);
    await labelled('Fabio', ['restart']);
    await labelled('Gil', ['restart']);
    const at = Date.now() + HOUR;
    const { id } = await campaign({
      scheduled_at: new Date(at).toISOString(),
      audience: [{ type: 'Label', id: 'restart' }],
      message: 'Hello {{contact.name}}',
    });
    // The instance that scheduled it is gone; two others start on the same database.
    const second = await buildChatTestApp({}, { sameDatabaseAs: t });
    const third = await buildChatTestApp({}, { sameDatabaseAs: t });
    try {
      const [a, b] = [instance(second), instance(third)];
      now = at + 1;
      await settle(a, b, a, b);
      expect((await sentBy(id)).messages.map((m) => m.content).sort()).toEqual([
        'Hello Eva',
        'Hello Fabio',
        'Hello Gil',
      ]);
      // A worker that died after sending: its jobs run again, on both instances; nothing is sent twice.
      await replayJobs();
      await settle(a, b);
      expect((await sentBy(id)).messages).toHaveLength(3);
      expect(await show(id)).toMatchObject({ campaign_status: 'completed', sent: 3, audience_count: 3 });
    } finally {
      await third.close();
      await second.close();
    }
  });

  it('goes in batches at a bounded rate, keeps its progress, pauses when disabled and resumes when enabled', async () => {
    for (const name of ['H1', 'H2', 'H3', 'H4', 'H5']) await labelled(name, ['batch']);
    const at = Date.now() + HOUR;
    const { id } = await campaign({
      scheduled_at: new Date(at).toISOString(),
      audience: [{ type: 'Label', id: 'batch' }],
      message: 'Hey {{contact.name}}',
    });
    // No time budget here, so that every batch takes exactly two.
    const runner = instance(t, { batchSize: 2, batchIntervalMs: 1000, maxBatchMs: 600_000 });
    now = at;
    await runner.runDue();
    expect(await show(id)).toMatchObject({ campaign_status: 'active', sent: 2, audience_count: 5 });
    // The next batch waits for its time.
    await runner.runDue();
    expect((await sentBy(id)).messages).toHaveLength(2);
    // A stale run of every job so far (a lease that ran out) sends nothing more.
    await t.db
      .updateTable('jobs')
      .set({ status: 'pending', attempts: 0, locked_until: null })
      .where('name', 'like', 'campaigns.%')
      .where('status', '=', 'done')
      .execute();
    await runner.runDue();
    expect((await sentBy(id)).messages).toHaveLength(2);

    // Disabled: the chain stops, the rest stays pending.
    expect((await api().patch(`${account.path}/campaigns/${id}`, { enabled: false })).status).toBe(200);
    now += 1000;
    await runner.runDue();
    now += 10_000;
    await runner.runDue();
    expect(await show(id)).toMatchObject({ campaign_status: 'active', sent: 2, enabled: false });

    expect((await api().patch(`${account.path}/campaigns/${id}`, { enabled: true })).status).toBe(200);
    await runner.runDue();
    expect((await show(id)).sent).toBe(4);
    now += 1000;
    await runner.runDue();
    const { messages } = await sentBy(id);
    expect(messages.map((m) => m.content).sort()).toEqual(['Hey H1', 'Hey H2', 'Hey H3', 'Hey H4', 'Hey H5']);
    expect(await show(id)).toMatchObject({ campaign_status: 'completed', sent: 5, failed: 0, audience_count: 5 });
  });

  it('never sends a disabled campaign; enabling it later sends it', async () => {
    await labelled('Ivo', ['dormant']);
    const at = Date.now() + HOUR;
    const { id } = await campaign({
      scheduled_at: new Date(at).toISOString(),
      enabled: false,
      audience: [{ type: 'Label', id: 'dormant' }],
      message: 'Wake up {{contact.name}}',
    });
    const runner = instance(t);
    now = at + 5 * HOUR;
    await runner.runDue();
    expect((await sentBy(id)).messages).toEqual([]);
    expect(await show(id)).toMatchObject({ campaign_status: 'active', sent: 0, enabled: false });

    expect((await api().patch(`${account.path}/campaigns/${id}`, { enabled: true })).status).toBe(200);
    await runner.runDue();
    expect((await sentBy(id)).messages.map((m) => m.content)).toEqual(['Wake up Ivo']);
  });

  it('moves the sending when rescheduled, and keeps an unscheduled one-off campaign unsent', async () => {
    await labelled('Jo', ['moved']);
    const at = Date.now() + HOUR;
    const { id } = await campaign({
      scheduled_at: new Date(at).toISOString(),
      audience: [{ type: 'Label', id: 'moved' }],
      message: 'Moved',
    });
    const later = at + 2 * HOUR;
    expect(
      (await api().patch(`${account.path}/campaigns/${id}`, { scheduled_at: new Date(later).toISOString() })).status,
    ).toBe(200);
    const runner = instance(t);
    now = at + 1;
    await runner.runDue();
    expect((await sentBy(id)).messages).toEqual([]);
    now = later;
    await runner.runDue();
    expect((await sentBy(id)).messages).toHaveLength(1);

    const draft = await campaign({ audience: [{ type: 'Label', id: 'moved' }], message: 'Draft' });
    now += 100 * HOUR;
    await runner.runDue();
    expect((await sentBy(draft.id)).messages).toEqual([]);
    expect(await show(draft.id)).toMatchObject({ scheduled_at: null, campaign_status: 'active', sent: 0 });
  });

  it('counts a contact the message cannot be sent to as failed, and sends to the others', async () => {
    await labelled('Kim', ['mailing'], { email: 'kim@example.test' });
    await labelled('Lia', ['mailing']);
    const at = Date.now() + HOUR;
    const { id } = await campaign({
      scheduled_at: new Date(at).toISOString(),
      audience: [{ type: 'Label', id: 'mailing' }],
      message: '{{contact.email}}',
    });
    now = at;
    await settle(instance(t));
    expect((await sentBy(id)).messages.map((m) => m.content)).toEqual(['kim@example.test']);
    expect(await show(id)).toMatchObject({ campaign_status: 'completed', sent: 1, failed: 1, audience_count: 2 });
  });
});
