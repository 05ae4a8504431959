import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addTeamMembers,
  newAccount,
  newAgent,
  newContact,
  newConversation,
  newInbox,
  newTeam,
  type TestAccount,
} from '../../../../test/helpers/factories.js';
import { call, client } from '../../../../test/helpers/http.js';
import { depsOf } from '../../../../test/helpers/lead-scoring.js';
import { TestReceiver } from '../../../../test/helpers/receiver.js';
import { DeliveryWorker } from '../../../core/webhooks/worker.js';
import { DestinationGuard } from '../../../core/webhooks/destination-guard.js';
import { verifyStandardSignature } from '../../../core/webhooks/signer.js';
import { createChatServices } from '../../modules.js';
import { AUTOMATION_SUBSCRIBER } from './automation-actions.js';
import { allRowCounts, newAutomation } from '../../../../test/helpers/pipeline-automations.js';
import { newCard, newPipeline, rowsOf, type TestPipeline } from '../../../../test/helpers/pipelines.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';

/** The endpoints of `{A}/pipeline/automations`: shapes, validation, tenancy and roles. */
let t: ChatTestApp;
let acme: TestAccount;
let other: TestAccount;
let agent: { id: number; token: string };
let pipeline: TestPipeline;
let theirPipeline: TestPipeline;

beforeAll(async () => {
  t = await buildChatTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  acme = await newAccount(t, 'Acme');
  other = await newAccount(t, 'Other');
  agent = await newAgent(t, acme);
  pipeline = await newPipeline(t, acme);
  theirPipeline = await newPipeline(t, other);
});
afterAll(async () => {
  await t.close();
});

const path = (account: TestAccount, rest = '') => `${account.path}/pipeline/automations${rest}`;

const moveBody = (to: string) => ({
  name: 'Qualify',
  trigger: 'stage_change',
  conditions: { to_stage: to },
  actions: [{ type: 'add_note', content: 'Moved {{card.title}} to {{stage.name}}' }],
});

/** The automation tables and everything a refusal could touch. */
async function state() {
  return {
    automations: await rowsOf(t, 'pipeline_automations'),
    runs: await rowsOf(t, 'automation_runs'),
    audit: await rowsOf(t, 'pipeline_automation_audit_logs'),
    cards: await rowsOf(t, 'pipeline_cards'),
    timeline: await rowsOf(t, 'pipeline_card_timeline'),
    outbox: await rowsOf(t, 'outbox_events'),
    emails: await rowsOf(t, 'outgoing_emails'),
    deliveries: await rowsOf(t, 'webhook_deliveries'),
  };
}

describe('CRUD', () => {
  it('creates, lists, shows, changes and deletes an automation in the documented shape', async () => {
    const api = client(t.app, acme.admin.token);
    const created = await api.post(path(acme), { ...moveBody(pipeline.stages[1].id), pipeline_id: pipeline.id });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const a = created.body.data;
    expect(a).toMatchObject({
      id: expect.any(Number),
      name: 'Qualify',
      description: null,
      pipeline_id: pipeline.id,
      trigger: 'stage_change',
      trigger_config: {},
      conditions: { to_stage: pipeline.stages[1].id },
      actions: [{ type: 'add_note', content: 'Moved {{card.title}} to {{stage.name}}' }],
      is_active: true,
      executions_count: 0,
      last_executed_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    const list = await client(t.app, agent.token).get(path(acme));
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: { id: number }) => x.id)).toContain(a.id);
    expect((await client(t.app, other.admin.token).get(path(other))).body.data).toEqual([]);

    // The signing secret is shown once, in the response that created it.
    const { webhook_secret: secret, ...shape } = a;
    expect(secret).toEqual(expect.stringMatching(/^.{32,}$/));
    const shown = await client(t.app, agent.token).get(path(acme, `/${a.id}`));
    expect(shown.body.data).toEqual(shape);

    // Another trigger starts from its own settings.
    const retriggered = await api.patch(path(acme, `/${a.id}`), {
      trigger: 'time_in_stage',
      trigger_config: { days: 2 },
    });
    expect(retriggered.body.data).toMatchObject({ trigger: 'time_in_stage', trigger_config: { days: 2 } });
    const back = await api.patch(path(acme, `/${a.id}`), { trigger: 'stage_change' });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.data).toMatchObject({ trigger: 'stage_change', trigger_config: {} });
    const changed = await api.patch(path(acme, `/${a.id}`), { name: 'Renamed', is_active: false });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toMatchObject({ name: 'Renamed', is_active: false });

    const deleted = await api.delete(path(acme, `/${a.id}`));
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: a.id, deleted: true });
    expect((await api.get(path(acme, `/${a.id}`))).status).toBe(404);

    // The audit log outlives the automation.
    const audit = await api.get(path(acme, `/${a.id}/audit_logs`));
    expect(audit.status).toBe(200);
    expect(audit.body.data.map((l: { action: string }) => l.action)).toEqual([
      'deleted',
      'updated',
      'deactivated',
      'updated',
      'updated',
      'created',
    ]);
    expect(audit.body.data[0]).toMatchObject({
      id: expect.any(Number),
      user: { id: acme.admin.id, name: expect.any(String) },
      changes: expect.any(Object),
      created_at: expect.any(String),
    });
    expect(audit.body.data[1].changes).toEqual({ name: { from: 'Qualify', to: 'Renamed' } });
    expect(audit.body.data[4].changes).toEqual({
      trigger: { from: 'stage_change', to: 'time_in_stage' },
      trigger_config: { from: {}, to: { days: 2 } },
    });
  });

  it('refuses an invalid automation with 422 listing every error, and writes nothing', async () => {
    const api = client(t.app, acme.admin.token);
    const before = await state();
    const counts = await allRowCounts(t);
    const res = await api.post(path(acme), {
      name: ' ',
      trigger: 'score_threshold',
      trigger_config: { threshold: 150 },
      conditions: { nope: 1, value: { operator: 'between', value: 1 } },
      actions: [
        { type: 'move_to_stage', to: 'no_such_stage' },
        { type: 'assign_owner', owner_id: other.admin.id },
        { type: 'add_note', content: 'Hi {{contact.email}}' },
        { type: 'explode' },
      ],
    });
    expect(res.status).toBe(422);
    const fields = res.body.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual([
      'name',
      'trigger_config.threshold',
      'trigger_config.direction',
      'conditions.nope',
      'conditions.value.operator',
      'actions.0.to',
      'actions.1.owner_id',
      'actions.2.content',
      'actions.3.type',
    ]);
    for (const body of [
      { name: 'x', trigger: 'whenever', actions: [{ type: 'add_note', content: 'x' }] },
      { name: 'x', trigger: 'card_created', actions: [] },
      { name: 'x', trigger: 'time_in_stage', actions: [{ type: 'mark_won' }] },
      {
        name: 'x',
        trigger: 'card_created',
        actions: [{ type: 'send_email', to: ['not-an-address'], subject: 's', body: 'b' }],
      },
    ]) {
      const r = await api.post(path(acme), body);
      expect(r.status, JSON.stringify(body)).toBe(422);
    }
    // Missing fields are refused at the schema.
    expect((await api.post(path(acme), { name: 'x', trigger: 'card_created' })).status).toBe(422);
    expect(await state()).toEqual(before);
    expect(await allRowCounts(t)).toEqual(counts);
  });

  it('refuses an invalid update with the same errors, keeping the automation as it was', async () => {
    const api = client(t.app, acme.admin.token);
    const a = await newAutomation(t, acme, moveBody(pipeline.stages[1].id));
    const before = await state();
    const bad = { actions: [{ type: 'move_to_stage', to: theirPipeline.stages[0].id }] };
    const res = await api.patch(path(acme, `/${a.id}`), bad);
    expect(res.status).toBe(422);
    const validated = await api.post(path(acme, `/${a.id}/validate`), bad);
    expect(validated.status).toBe(200);
    expect(validated.body.data.valid).toBe(false);
    expect(res.body.details).toEqual(
      validated.body.data.errors.map((e: { path: string; message: string }) => ({ field: e.path, message: e.message })),
    );
    expect(await state()).toEqual(before);
  });

  it("404s another account's pipeline in a body, and another account's automation everywhere", async () => {
    const api = client(t.app, acme.admin.token);
    const before = await state();
    const res = await api.post(path(acme), { ...moveBody(pipeline.stages[1].id), pipeline_id: theirPipeline.id });
    expect(res.status).toBe(404);
    expect(await state()).toEqual(before);
    const theirs = await newAutomation(t, other, moveBody(theirPipeline.stages[1].id));
    const card = await newCard(t, acme, pipeline);
    const mark = await state();
    for (const [method, rest, body] of [
      ['GET', '', undefined],
      ['PATCH', '', { name: 'x' }],
      ['DELETE', '', undefined],
      ['POST', '/duplicate', undefined],
      ['POST', '/execute', { card_id: card.id }],
      ['POST', '/dry_run', { card_id: card.id }],
      ['POST', '/validate', undefined],
      ['GET', '/executions', undefined],
      ['GET', '/stats', undefined],
      ['GET', '/audit_logs', undefined],
    ] as const) {
      const r = await call(t.app, {
        method,
        url: path(acme, `/${theirs.id}${rest}`),
        token: acme.admin.token,
        body: body ?? (method === 'POST' ? {} : undefined),
      });
      expect(r.status, `${method} ${rest}`).toBe(404);
    }
    expect(await state()).toEqual(mark);
  });

  it('lets agents read but not write (403, nothing changed)', async () => {
    const a = await newAutomation(t, acme, moveBody(pipeline.stages[1].id));
    const card = await newCard(t, acme, pipeline);
    const api = client(t.app, agent.token);
    for (const rest of ['', `/${a.id}`, `/${a.id}/executions`, `/${a.id}/stats`, `/${a.id}/audit_logs`, '/dashboard'])
      expect((await api.get(path(acme, rest))).status, rest).toBe(200);
    const before = await state();
    for (const [method, rest, body] of [
      ['POST', '', moveBody(pipeline.stages[1].id)],
      ['PATCH', `/${a.id}`, { name: 'x' }],
      ['DELETE', `/${a.id}`, undefined],
      ['POST', `/${a.id}/duplicate`, undefined],
      ['POST', `/${a.id}/execute`, { card_id: card.id }],
      ['POST', `/${a.id}/dry_run`, { card_id: card.id }],
      ['POST', `/${a.id}/validate`, undefined],
    ] as const) {
      const r = await call(t.app, {
        method,
        url: path(acme, rest),
        token: agent.token,
        body: body ?? (method === 'POST' ? {} : undefined),
      });
      expect(r.status, `${method} ${rest}`).toBe(403);
    }
    expect(await state()).toEqual(before);
  });
});

describe('validate, duplicate, execute, dry_run', () => {
  it('validates the stored configuration, with warnings', async () => {
    const api = client(t.app, acme.admin.token);
    const a = await newAutomation(t, acme, {
      trigger: 'card_created',
      conditions: { to_stage: pipeline.stages[1].id },
      actions: [{ type: 'mark_won' }],
    });
    const res = await api.post(path(acme, `/${a.id}/validate`));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      valid: true,
      errors: [],
      warnings: [{ path: 'conditions', message: expect.stringContaining('stage_change') }],
    });
  });

  it('validates and dry-runs with no body and no content type at all (NooviChat), as with {}', async () => {
    const a = await newAutomation(t, acme, moveBody(pipeline.stages[1].id));
    const bare = (rest: string) =>
      t.app.inject({ method: 'POST', url: path(acme, rest), headers: { api_access_token: acme.admin.token } });
    const validated = await bare(`/${a.id}/validate`);
    expect(validated.statusCode, validated.body).toBe(200);
    expect(JSON.parse(validated.body).data).toEqual({ valid: true, errors: [], warnings: [] });
    // dry_run without a body is the same as {}: it names the missing card.
    const dry = await bare(`/${a.id}/dry_run`);
    expect(dry.statusCode).toBe(422);
    expect(JSON.parse(dry.body).details[0].field).toBe('card_id');
  });

  it('validates a configuration that is not saved, with the answer {id}/validate gives, and stores nothing', async () => {
    const api = client(t.app, acme.admin.token);
    const before = await state();
    const good = await api.post(path(acme, '/validate'), moveBody(pipeline.stages[1].id));
    expect(good.status, good.text).toBe(200);
    expect(good.body.data).toEqual({ valid: true, errors: [], warnings: [] });
    const bad = {
      name: '   ',
      trigger: 'score_threshold',
      conditions: {},
      trigger_config: { threshold: 140 },
      actions: [{ type: 'move_to_stage', to: theirPipeline.stages[0].id }, { type: 'teleport' }],
    };
    const res = await api.post(path(acme, '/validate'), { pipeline_automation: bad });
    expect(res.status).toBe(200);
    expect(res.body.data.valid).toBe(false);
    expect(res.body.data.errors.map((e: { path: string }) => e.path)).toEqual([
      'name',
      'trigger_config.threshold',
      'trigger_config.direction',
      'actions.0.to',
      'actions.1.type',
    ]);
    // The same list an existing automation's validate gives for the same configuration.
    const saved = await newAutomation(t, acme, moveBody(pipeline.stages[1].id));
    const mark = await state();
    const same = await api.post(path(acme, `/${saved.id}/validate`), bad);
    expect(same.body.data).toEqual(res.body.data);
    // Nothing saved but the automation made for the comparison.
    expect((await state()).automations.length).toBe(before.automations.length + 1);
    expect(await state()).toEqual(mark);
    // An empty body is a configuration with nothing in it; another account's pipeline is a 404; agents 403.
    const empty = await call(t.app, { method: 'POST', url: path(acme, '/validate'), token: acme.admin.token });
    expect(empty.body.data.errors.map((e: { path: string }) => e.path)).toEqual(['name', 'trigger', 'actions']);
    expect((await api.post(path(acme, '/validate'), { ...bad, pipeline_id: theirPipeline.id })).status).toBe(404);
    expect((await client(t.app, agent.token).post(path(acme, '/validate'), bad)).status).toBe(403);
    expect((await client(t.app, acme.admin.token).post(path(other, '/validate'), bad)).status).toBe(404);
  });

  it('duplicates as an inactive copy named "<name> (copy)"', async () => {
    const api = client(t.app, acme.admin.token);
    const a = await newAutomation(t, acme, { ...moveBody(pipeline.stages[1].id), name: 'Original' });
    const res = await api.post(path(acme, `/${a.id}/duplicate`));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'Original (copy)',
      is_active: false,
      trigger: a.trigger,
      conditions: a.conditions,
      actions: a.actions,
      executions_count: 0,
    });
    expect(res.body.data.id).not.toBe(a.id);
    const audit = await api.get(path(acme, `/${res.body.data.id}/audit_logs`));
    expect(audit.body.data[0]).toMatchObject({ action: 'duplicated', changes: { source_id: a.id } });
  });

  it('executes on one card: the actions apply and the run is recorded', async () => {
    const api = client(t.app, acme.admin.token);
    const owner = await newAgent(t, acme, 'Olivia Owner');
    const a = await newAutomation(t, acme, {
      trigger: 'manual',
      actions: [
        { type: 'move_to_stage', to: pipeline.stages[2].id },
        { type: 'assign_owner', owner_id: owner.id },
        { type: 'add_note', content: '{{card.title}} is in {{stage.name}} with {{owner.name}}' },
      ],
    });
    const card = await newCard(t, acme, pipeline, { title: 'Big deal' });
    expect((await api.post(path(acme, `/${a.id}/execute`), {})).status).toBe(422);
    const res = await api.post(path(acme, `/${a.id}/execute`), { card_id: card.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'succeeded',
      trigger: 'manual',
      card_id: card.id,
      duration_ms: expect.any(Number),
      error: null,
      actions: [
        { type: 'move_to_stage', status: 'succeeded', error: null },
        { type: 'assign_owner', status: 'succeeded', error: null },
        { type: 'add_note', status: 'succeeded', error: null },
      ],
    });
    const detail = (await api.get(`${acme.path}/pipeline_cards/${card.id}`)).body.data;
    expect(detail.stage.id ?? detail.pipeline_stage).toBeDefined();
    expect(detail.owner_id ?? detail.owner?.id).toBe(owner.id);
    const note = detail.timeline.find((e: { type: string }) => e.type === 'note_added');
    expect(note.data.content).toBe(`Big deal is in ${pipeline.stages[2].name} with Olivia Owner`);
    expect(note.performed_by).toMatchObject({ type: 'automation', id: a.id });

    const stats = await api.get(path(acme, `/${a.id}/stats`));
    expect(stats.body.data).toMatchObject({
      executions_count: 1,
      succeeded: 1,
      failed: 0,
      success_rate: 100,
      avg_duration_ms: expect.any(Number),
      last_executed_at: expect.any(String),
    });
    const shown = (await api.get(path(acme, `/${a.id}`))).body.data;
    expect(shown.executions_count).toBe(1);
    const audit = await api.get(path(acme, `/${a.id}/audit_logs`));
    expect(audit.body.data[0]).toMatchObject({
      action: 'executed',
      changes: { card_id: card.id, status: 'succeeded' },
    });
  });

  it("adds labels to the card's contact, and fails the run (changing nothing) for a card without one", async () => {
    const api = client(t.app, acme.admin.token);
    const inbox = await newInbox(t, acme);
    const contact = await newContact(t, acme, { name: 'Lia Label', inbox_id: inbox.id, source_id: `l-${Date.now()}` });
    await api.post(`${acme.path}/contacts/${contact.contact.id}/labels`, { labels: ['existing'] });
    const a = await newAutomation(t, acme, {
      trigger: 'manual',
      actions: [{ type: 'add_label', labels: ['Hot-Lead', 'existing'] }],
    });
    const card = await newCard(t, acme, pipeline, { title: 'Labelled', contact_id: contact.contact.id });
    const res = await api.post(path(acme, `/${a.id}/execute`), { card_id: card.id });
    expect(res.body.data.status, JSON.stringify(res.body)).toBe('succeeded');
    const labels = await api.get(`${acme.path}/contacts/${contact.contact.id}/labels`);
    expect(labels.body.payload).toEqual(['existing', 'hot-lead']);

    const lone = await newCard(t, acme, pipeline, { title: 'No contact' });
    const failed = await api.post(path(acme, `/${a.id}/execute`), { card_id: lone.id });
    expect(failed.body.data).toMatchObject({ status: 'failed', error: expect.stringContaining('no contact') });

    const bad = await api.post(path(acme), {
      name: 'Bad labels',
      trigger: 'manual',
      actions: [{ type: 'add_label', labels: ['', 'a,b'] }],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.details.map((d: { field: string }) => d.field)).toEqual([
      'actions.0.labels.0',
      'actions.0.labels.1',
    ]);
  });

  it("sends a message to the card's conversation and queues an e-mail, with the variables substituted", async () => {
    const api = client(t.app, acme.admin.token);
    const inbox = await newInbox(t, acme);
    const contact = await newContact(t, acme, {
      name: 'Carla Client',
      inbox_id: inbox.id,
      source_id: `s-${Date.now()}`,
    });
    const conversation = await newConversation(t, acme, {
      inboxId: inbox.id,
      contactSourceId: contact.contact_inbox!.source_id,
    });
    const card = await newCard(t, acme, pipeline, {
      title: 'Linked deal',
      contact_id: contact.contact.id,
      conversation_display_id: conversation.id,
    });
    const a = await newAutomation(t, acme, {
      trigger: 'manual',
      actions: [
        { type: 'send_message', content: 'Hi {{contact.name}}, about {{card.title}}', private: true },
        {
          type: 'send_email',
          to: 'sales@example.com',
          subject: 'Deal {{card.title}}\nBcc: x@y.z',
          body: '{{contact.name}}',
        },
      ],
    });
    const res = await api.post(path(acme, `/${a.id}/execute`), { card_id: card.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.status, JSON.stringify(res.body.data)).toBe('succeeded');
    const messages = (await api.get(`${acme.path}/conversations/${conversation.id}/messages`)).body.payload;
    const sent = messages.find((m: { content: string }) => m.content === 'Hi Carla Client, about Linked deal');
    expect(sent).toMatchObject({ private: true, message_type: 1 });
    const email = await t.db
      .selectFrom('outgoing_emails')
      .selectAll()
      .where('source', '=', `pipeline_automation:${a.id}`)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(email.to_addresses)).toEqual(['sales@example.com']);
    expect(email.subject).toBe('Deal Linked deal Bcc: x@y.z');
    expect(email.text_body).toBe('Carla Client');

    // Without a conversation the message cannot be sent: the run fails and nothing stays.
    const lone = await newCard(t, acme, pipeline);
    const emails = await rowsOf(t, 'outgoing_emails');
    const failed = await api.post(path(acme, `/${a.id}/execute`), { card_id: lone.id });
    expect(failed.body.data).toMatchObject({ status: 'failed', error: expect.stringContaining('conversation') });
    expect(await rowsOf(t, 'outgoing_emails')).toEqual(emails);
  });

  it('send_webhook goes through the signed delivery queue to a real receiver', async () => {
    const receiver = await new TestReceiver().start();
    const services = createChatServices(depsOf(t));
    const worker = new DeliveryWorker({
      db: t.db,
      dialect: t.dialect,
      logger: pino({ level: 'silent' }),
      // What the service's background resolves for this subscriber type.
      secretOf: async (d) =>
        d.subscriber_type === AUTOMATION_SUBSCRIBER ? services.pipelineAutomations.secretOf(d.subscriber_id) : null,
      guard: new DestinationGuard(['127.0.0.1']),
      pollIntervalMs: 20,
    });
    try {
      const api = client(t.app, acme.admin.token);
      const a = await newAutomation(t, acme, {
        trigger: 'manual',
        actions: [{ type: 'send_webhook', url: receiver.url }],
      });
      const refused = await api.post(path(acme), {
        name: 'x',
        trigger: 'manual',
        actions: [
          { type: 'send_webhook', url: 'http://10.0.0.1/x' },
          { type: 'send_webhook', url: 'ftp://x' },
        ],
      });
      expect(refused.status).toBe(422);
      expect(refused.body.details.map((d: { field: string }) => d.field)).toEqual(['actions.0.url', 'actions.1.url']);
      const card = await newCard(t, acme, pipeline, { title: 'Hooked' });
      const res = await api.post(path(acme, `/${a.id}/execute`), { card_id: card.id });
      expect(res.body.data.status, JSON.stringify(res.body)).toBe('succeeded');
      worker.start();
      await receiver.waitFor(1);
      const [hit] = receiver.received;
      expect(hit.json).toMatchObject({
        event: 'pipeline_automation_triggered',
        automation: { id: a.id, name: a.name },
        card: { id: card.id, title: 'Hooked', stage: { id: pipeline.stages[0].id } },
        account: { id: acme.id },
      });
      const headers = hit.headers as Record<string, string>;
      expect(verifyStandardSignature(a.webhook_secret, headers, hit.body)).toBe(true);
      expect(verifyStandardSignature('another-secret-of-32-characters!!', headers, hit.body)).toBe(false);
    } finally {
      await worker.stop();
      await receiver.stop();
    }
  });

  it('assigns owners round robin through a team', async () => {
    const api = client(t.app, acme.admin.token);
    const team = await newTeam(t, acme);
    const first = await newAgent(t, acme, 'First');
    const second = await newAgent(t, acme, 'Second');
    await addTeamMembers(t, acme, team.id, [second.id, first.id]);
    const a = await newAutomation(t, acme, {
      trigger: 'manual',
      actions: [{ type: 'assign_owner', strategy: 'round_robin', team_id: team.id }],
    });
    const owners: number[] = [];
    for (let i = 0; i < 3; i++) {
      const card = await newCard(t, acme, pipeline);
      const res = await api.post(path(acme, `/${a.id}/execute`), { card_id: card.id });
      expect(res.body.data.status, JSON.stringify(res.body)).toBe('succeeded');
      const detail = (await api.get(`${acme.path}/pipeline_cards/${card.id}`)).body.data;
      owners.push(detail.owner_id ?? detail.owner?.id);
    }
    const [low, high] = [first.id, second.id].sort((x, y) => x - y);
    expect(owners).toEqual([low, high, low]);
    const theirTeam = await newTeam(t, other);
    const bad = await api.post(path(acme), {
      name: 'x',
      trigger: 'manual',
      actions: [{ type: 'assign_owner', strategy: 'round_robin', team_id: theirTeam.id }],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.details).toEqual([{ field: 'actions.0.team_id', message: expect.any(String) }]);
  });

  it('records a failed run, rolling back the actions that had applied', async () => {
    const api = client(t.app, acme.admin.token);
    const a = await newAutomation(t, acme, {
      trigger: 'manual',
      actions: [
        { type: 'add_note', content: 'first' },
        { type: 'move_to_stage', to: pipeline.stages[1].id },
      ],
    });
    const card = await newCard(t, acme, pipeline);
    // The stage goes away after the automation was saved: the move fails at run time.
    await api.patch(`${acme.path}/pipelines/${pipeline.id}`, {
      stages: {
        [pipeline.stages[0].id]: { name: pipeline.stages[0].name },
        [pipeline.stages[2].id]: { name: pipeline.stages[2].name },
      },
    });
    const timeline = await rowsOf(t, 'pipeline_card_timeline');
    const res = await api.post(path(acme, `/${a.id}/execute`), { card_id: card.id });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('failed');
    expect(res.body.data.error).toEqual(expect.any(String));
    expect(res.body.data.actions).toEqual([
      { type: 'add_note', status: 'rolled_back', error: null },
      { type: 'move_to_stage', status: 'failed', error: expect.any(String) },
    ]);
    expect(await rowsOf(t, 'pipeline_card_timeline')).toEqual(timeline);
    const stats = (await api.get(path(acme, `/${a.id}/stats`))).body.data;
    expect(stats).toMatchObject({ executions_count: 1, succeeded: 0, failed: 1, success_rate: 0 });
    const dashboard = (await api.get(path(acme, '/dashboard'))).body.data;
    expect(dashboard).toMatchObject({
      automations_count: expect.any(Number),
      active_count: expect.any(Number),
      executions_today: expect.any(Number),
      success_rate: expect.any(Number),
    });
    expect(dashboard.recent_failures[0]).toMatchObject({ automation_id: a.id, status: 'failed', card_id: card.id });
    pipeline = (await api.get(`${acme.path}/pipelines/${pipeline.id}`)).body.data;
  });

  it('dry-runs on a card: conditions and resolved actions, and changes nothing at all', async () => {
    const api = client(t.app, acme.admin.token);
    const card = await newCard(t, acme, pipeline, { title: 'Dry deal', value: 500 });
    const a = await newAutomation(t, acme, {
      trigger: 'manual',
      conditions: { value: { operator: 'gte', value: 100 }, status: 'open' },
      actions: [
        { type: 'add_note', content: 'About {{card.title}} in {{stage.name}}' },
        { type: 'mark_lost', lost_reason: 'Lost {{card.title}}' },
        { type: 'send_email', to: ['boss@example.com'], subject: '{{card.title}}', body: 'Owner: {{owner.name}}' },
      ],
    });
    const before = await allRowCounts(t);
    const rows = { cards: await rowsOf(t, 'pipeline_cards'), outbox: await rowsOf(t, 'outbox_events') };
    const res = await api.post(path(acme, `/${a.id}/dry_run`), { card_id: card.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({
      would_execute: true,
      conditions: [
        { key: 'value', expected: { operator: 'gte', value: 100 }, actual: 500, result: true },
        { key: 'status', expected: 'open', actual: 'open', result: true },
      ],
      actions: [
        {
          type: 'add_note',
          params: { content: 'About {{card.title}} in {{stage.name}}' },
          resolved: { content: `About Dry deal in ${pipeline.stages[0].name}` },
        },
        {
          type: 'mark_lost',
          params: { lost_reason: 'Lost {{card.title}}' },
          resolved: { lost_reason: 'Lost Dry deal' },
        },
        {
          type: 'send_email',
          params: { to: ['boss@example.com'], subject: '{{card.title}}', body: 'Owner: {{owner.name}}' },
          resolved: { to: ['boss@example.com'], subject: 'Dry deal', body: 'Owner: ' },
        },
      ],
    });
    // Nothing at all changed: every table's row count, and the card and event rows themselves.
    expect(await allRowCounts(t)).toEqual(before);
    expect({ cards: await rowsOf(t, 'pipeline_cards'), outbox: await rowsOf(t, 'outbox_events') }).toEqual(rows);
    const low = await api.patch(`${acme.path}/pipeline_cards/${card.id}`, { value: 5 });
    expect(low.status).toBe(200);
    const mark = await allRowCounts(t);
    const again = await api.post(path(acme, `/${a.id}/dry_run`), { card_id: card.id });
    expect(again.body.data.would_execute).toBe(false);
    expect(again.body.data.conditions[0]).toMatchObject({ actual: 5, result: false });
    expect(await allRowCounts(t)).toEqual(mark);
  });

  it("refuses execute and dry_run without a card, or with another account's card", async () => {
    const api = client(t.app, acme.admin.token);
    const a = await newAutomation(t, acme, { trigger: 'manual', actions: [{ type: 'mark_won' }] });
    const theirCard = await newCard(t, other, theirPipeline);
    const before = await state();
    for (const action of ['execute', 'dry_run']) {
      expect((await api.post(path(acme, `/${a.id}/${action}`), {})).status).toBe(422);
      expect((await api.post(path(acme, `/${a.id}/${action}`), { card_id: theirCard.id })).status).toBe(404);
    }
    expect(await state()).toEqual(before);
  });
});
