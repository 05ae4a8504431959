import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobRunner } from '../../../core/jobs/jobs.js';
import { verifyStandardSignature } from '../../../core/webhooks/signer.js';
import { TestReceiver } from '../../../../test/helpers/receiver.js';
import { newAccount, newAgent, newConversation, type TestAccount } from '../../../../test/helpers/factories.js';
import { client } from '../../../../test/helpers/http.js';
import { depsOf } from '../../../../test/helpers/lead-scoring.js';
import { executionsOf, newAutomation } from '../../../../test/helpers/pipeline-automations.js';
import { newCard, newPipeline, type TestPipeline } from '../../../../test/helpers/pipelines.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { createChatServices } from '../../modules.js';
import { TIME_IN_STAGE_JOB } from './pipeline-automations.service.js';

/** The engine with the dispatcher running as in production (fast polling). */
let t: ChatTestApp;

beforeAll(async () => {
  t = await buildChatTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }, { background: { pollIntervalMs: 20 } });
});
afterAll(async () => {
  await t.close();
});

/** Waits until every recorded event (including those automations recorded) has been dispatched. */
async function settle(timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await t.db
      .selectFrom('outbox_events')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('dispatched_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(row.n) === 0) return;
    if (Date.now() > deadline) throw new Error(`${row.n} events still pending`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function world(): Promise<{ account: TestAccount; pipeline: TestPipeline }> {
  const account = await newAccount(t, 'Automations');
  const pipeline = await newPipeline(t, account, ['Lead', 'Qualified', 'Proposal', 'Closing']);
  return { account, pipeline };
}

async function cardOf(account: TestAccount, id: number) {
  const res = await client(t.app, account.admin.token).get(`${account.path}/pipeline_cards/${id}`);
  expect(res.status).toBe(200);
  return res.body.data as {
    id: number;
    stage: { id: string };
    owner_id: number | null;
    status: string;
    timeline: { type: string; data: Record<string, unknown>; performed_by: { type: string; id: number } }[];
    [field: string]: any;
  };
}

const stageOf = (card: Awaited<ReturnType<typeof cardOf>>) => card.pipeline_stage ?? card.stage?.id;
const notes = (card: Awaited<ReturnType<typeof cardOf>>) =>
  card.timeline.filter((e) => e.type === 'note_added').map((e) => e.data.content);

async function move(account: TestAccount, cardId: number, stage: string) {
  const res = await client(t.app, account.admin.token).post(`${account.path}/pipeline_cards/${cardId}/move_to_stage`, {
    pipeline_stage: stage,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('event triggers', () => {
  it('a card moved to a stage runs move, assign and add-note as the automation', async () => {
    const { account, pipeline } = await world();
    const owner = await newAgent(t, account, 'Quinn Closer');
    const a = await newAutomation(t, account, {
      trigger: 'stage_change',
      conditions: { to_stage: pipeline.stages[1].id },
      actions: [
        { type: 'move_to_stage', to: pipeline.stages[2].id },
        { type: 'assign_owner', owner_id: owner.id },
        { type: 'add_note', content: '{{card.title}} went to {{stage.name}} for {{owner.name}}' },
      ],
    });
    const card = await newCard(t, account, pipeline, { title: 'Acme deal' });
    const untouched = await newCard(t, account, pipeline, { title: 'Other deal' });
    await move(account, card.id, pipeline.stages[1].id);
    await move(account, untouched.id, pipeline.stages[3].id); // conditions do not hold
    await settle();

    const after = await cardOf(account, card.id);
    expect(stageOf(after)).toBe(pipeline.stages[2].id);
    expect(after.owner_id ?? after.owner?.id).toBe(owner.id);
    expect(notes(after)).toEqual(['Acme deal went to Proposal for Quinn Closer']);
    const entries = after.timeline.filter((e) => e.performed_by.type === 'automation');
    expect(entries.length).toBeGreaterThanOrEqual(3);
    expect(entries.every((e) => e.performed_by.id === a.id)).toBe(true);
    expect(stageOf(await cardOf(account, untouched.id))).toBe(pipeline.stages[3].id);

    const runs = await executionsOf(t, account, a.id);
    expect(runs.map((r) => [r.status, r.card_id, r.trigger])).toEqual([
      ['skipped', untouched.id, 'stage_change'],
      ['succeeded', card.id, 'stage_change'],
    ]);
  });

  it('card_created, deal_won, deal_lost and card_assigned fire on their events, limited to the pipeline', async () => {
    const { account, pipeline } = await world();
    const elsewhere = await newPipeline(t, account, ['Other'], 'Elsewhere');
    const owner = await newAgent(t, account);
    const api = client(t.app, account.admin.token);
    const made = await newAutomation(t, account, {
      trigger: 'card_created',
      pipeline_id: pipeline.id,
      actions: [{ type: 'add_note', content: 'welcome {{card.title}}' }],
    });
    const won = await newAutomation(t, account, {
      trigger: 'deal_won',
      actions: [{ type: 'add_note', content: 'won' }],
    });
    const lost = await newAutomation(t, account, {
      trigger: 'deal_lost',
      actions: [{ type: 'update_custom_attribute', key: 'follow_up', value: 'call {{contact.name}}' }],
    });
    const assigned = await newAutomation(t, account, {
      trigger: 'card_assigned',
      actions: [{ type: 'add_note', content: 'now with {{owner.name}}' }],
    });
    const card = await newCard(t, account, pipeline, { title: 'New' });
    const other = await newCard(t, account, elsewhere, { title: 'Elsewhere' });
    await settle();
    expect(notes(await cardOf(account, card.id))).toEqual(['welcome New']);
    expect(notes(await cardOf(account, other.id))).toEqual([]);

    expect((await api.patch(`${account.path}/pipeline/cards/${card.id}/assign`, { owner_id: owner.id })).status).toBe(
      200,
    );
    await settle();
    expect(notes(await cardOf(account, card.id))).toEqual(['now with Agent', 'welcome New']);

    expect((await api.post(`${account.path}/pipeline/cards/${card.id}/deal_status/mark_won`, {})).status).toBe(200);
    expect(
      (await api.post(`${account.path}/pipeline/cards/${other.id}/deal_status/mark_lost`, { lost_reason: 'x' })).status,
    ).toBe(200);
    await settle();
    expect(notes(await cardOf(account, card.id))[0]).toBe('won');
    expect((await cardOf(account, other.id)).custom_attributes).toEqual({ follow_up: 'call ' });
    for (const a of [made, won, lost, assigned])
      expect((await executionsOf(t, account, a.id)).map((r) => r.status)).toEqual(['succeeded']);
  });
});

describe('loop safety', () => {
  it("an automation's change does not trigger automations (but still reaches webhooks' outbox)", async () => {
    const { account, pipeline } = await world();
    // A moves cards that reach Qualified on to Proposal; B would note any card that reaches
    // Proposal, and C would move it back to Qualified (an endless loop if they reacted to A).
    const a = await newAutomation(t, account, {
      trigger: 'stage_change',
      conditions: { to_stage: pipeline.stages[1].id },
      actions: [{ type: 'move_to_stage', to: pipeline.stages[2].id }],
    });
    const b = await newAutomation(t, account, {
      trigger: 'stage_change',
      conditions: { to_stage: pipeline.stages[2].id },
      actions: [{ type: 'add_note', content: 'reached proposal' }],
    });
    const c = await newAutomation(t, account, {
      trigger: 'stage_change',
      conditions: { from_stage: pipeline.stages[1].id },
      actions: [{ type: 'move_to_stage', to: pipeline.stages[1].id }],
    });
    const card = await newCard(t, account, pipeline);
    await move(account, card.id, pipeline.stages[1].id);
    await settle();
    const after = await cardOf(account, card.id);
    expect(stageOf(after)).toBe(pipeline.stages[2].id);
    expect(notes(after)).toEqual([]);
    expect((await executionsOf(t, account, a.id)).map((r) => r.status)).toEqual(['succeeded']);
    // B and C ran once, on the user's move (their conditions did not hold); had they seen A's move
    // (Qualified -> Proposal), B would have noted and C moved the card back.
    expect((await executionsOf(t, account, b.id)).map((r) => r.status)).toEqual(['skipped']);
    expect((await executionsOf(t, account, c.id)).map((r) => r.status)).toEqual(['skipped']);
    // The automation's move was recorded as an event (webhooks, realtime, scoring see it), with origin automation.
    const moves = await t.db
      .selectFrom('outbox_events')
      .select(['origin'])
      .where('account_id', '=', account.id)
      .where('name', '=', 'pipeline_card_moved')
      .orderBy('id')
      .execute();
    expect(moves.map((m) => m.origin)).toEqual([null, 'automation']);
  });
});

describe('one engine, one loop rule', () => {
  it("conversation rules do not react to a pipeline automation's message (but do to an agent's)", async () => {
    const { account, pipeline } = await world();
    const api = client(t.app, account.admin.token);
    const rule = await api.post(`${account.path}/automation_rules`, {
      name: 'Label outgoing',
      event_name: 'message_created',
      conditions: [{ attribute_key: 'content', filter_operator: 'contains', values: ['deal'] }],
      actions: [{ action_name: 'add_label', action_params: ['from-rule'] }],
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(200);
    const conversation = await newConversation(t, account);
    const a = await newAutomation(t, account, {
      trigger: 'card_created',
      actions: [{ type: 'send_message', content: 'About your deal {{card.title}}' }],
    });
    await newCard(t, account, pipeline, { title: 'Chat deal', conversation_display_id: conversation.id });
    await settle();
    expect((await executionsOf(t, account, a.id)).map((r) => r.status)).toEqual(['succeeded']);
    const labelsOf = async () => (await api.get(`${account.path}/conversations/${conversation.id}`)).body.labels;
    const messages = (await api.get(`${account.path}/conversations/${conversation.id}/messages`)).body.payload;
    expect(messages.map((m: { content: string }) => m.content)).toContain('About your deal Chat deal');
    expect(await labelsOf()).toEqual([]);
    // The same words from an agent do run the rule.
    expect(
      (await api.post(`${account.path}/conversations/${conversation.id}/messages`, { content: 'the deal' })).status,
    ).toBe(200);
    await settle();
    expect(await labelsOf()).toEqual(['from-rule']);
  });
});

describe('score_threshold', () => {
  it('fires once per crossing, in its direction', async () => {
    const { account, pipeline } = await world();
    const api = client(t.app, account.admin.token);
    const up = await newAutomation(t, account, {
      trigger: 'score_threshold',
      trigger_config: { threshold: 50, direction: 'up' },
      actions: [{ type: 'add_note', content: 'hot' }],
    });
    const down = await newAutomation(t, account, {
      trigger: 'score_threshold',
      trigger_config: { threshold: 50, direction: 'down' },
      actions: [{ type: 'add_note', content: 'cold' }],
    });
    const card = await newCard(t, account, pipeline);
    for (const score of [40, 60, 70, 55, 30, 45, 50, 90]) {
      const res = await api.patch(`${account.path}/pipeline_cards/${card.id}`, { lead_score: score });
      expect(res.status).toBe(200);
      await settle();
    }
    // 40->60 up, 55->30 down, 45->50 up.
    expect((await executionsOf(t, account, up.id)).map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    expect((await executionsOf(t, account, down.id)).map((r) => r.status)).toEqual(['succeeded']);
    expect(notes(await cardOf(account, card.id))).toEqual(['hot', 'cold', 'hot']);
  });
});

describe('time_in_stage', () => {
  it('fires through the job runner with an injected clock, once per stage entry', async () => {
    const { account, pipeline } = await world();
    const a = await newAutomation(t, account, {
      trigger: 'time_in_stage',
      trigger_config: { days: 3 },
      pipeline_id: pipeline.id,
      actions: [{ type: 'add_note', content: '{{card.title}} idle in {{stage.name}}' }],
    });
    const idle = await newCard(t, account, pipeline, { title: 'Idle' });
    const fresh = await newCard(t, account, pipeline, { title: 'Fresh' });
    await settle();
    const DAY = 86_400_000;
    let now = Date.now();
    const services = createChatServices(depsOf(t));
    const runner = new JobRunner({
      db: t.db,
      dialect: t.dialect,
      logger: pino({ level: 'silent' }),
      definitions: services.pipelineAutomations.jobs(),
      clock: () => now,
    });
    expect(services.pipelineAutomations.jobs().map((j) => j.name)).toEqual([TIME_IN_STAGE_JOB]);
    await runner.ensureRecurring();

    now += 2 * DAY;
    await runner.runDue();
    expect(notes(await cardOf(account, idle.id))).toEqual([]);

    now += 2 * DAY;
    await runner.runDue();
    expect(notes(await cardOf(account, idle.id))).toEqual(['Idle idle in Lead']);
    expect(notes(await cardOf(account, fresh.id))).toEqual(['Fresh idle in Lead']);

    // The same stays: nothing new.
    now += 2 * DAY;
    await runner.runDue();
    expect(notes(await cardOf(account, idle.id))).toEqual(['Idle idle in Lead']);
    expect(notes(await cardOf(account, fresh.id))).toEqual(['Fresh idle in Lead']);

    // A move starts a new stay, which fires on its own once it is old enough.
    await move(account, fresh.id, pipeline.stages[1].id);
    await settle();
    now += 2 * DAY;
    await runner.runDue();
    expect(notes(await cardOf(account, idle.id))).toEqual(['Idle idle in Lead']);
    expect(notes(await cardOf(account, fresh.id))).toEqual(['Fresh idle in Qualified', 'Fresh idle in Lead']);
    const runs = await executionsOf(t, account, a.id);
    expect(runs.map((r) => [r.trigger, r.card_id, r.status])).toEqual([
      ['time_in_stage', fresh.id, 'succeeded'],
      ['time_in_stage', fresh.id, 'succeeded'],
      ['time_in_stage', idle.id, 'succeeded'],
    ]);
  });
});

describe('send_webhook in the running service', () => {
  it("is signed with the automation's secret and delivered by the service's own delivery worker", async () => {
    const receiver = await new TestReceiver().start();
    try {
      const { account, pipeline } = await world();
      const automation = await newAutomation(t, account, {
        trigger: 'card_created',
        pipeline_id: pipeline.id,
        actions: [{ type: 'send_webhook', url: receiver.url }],
      });
      const card = await newCard(t, account, pipeline, { title: 'Delivered' });
      await receiver.waitFor(1);
      const [hit] = receiver.received;
      expect(hit.json).toMatchObject({ event: 'pipeline_automation_triggered', card: { id: card.id } });
      expect(verifyStandardSignature(automation.webhook_secret, hit.headers as Record<string, string>, hit.body)).toBe(
        true,
      );
    } finally {
      await receiver.stop();
    }
  });
});
