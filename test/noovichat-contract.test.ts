import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAccount, newAgent, newInbox, type TestAccount, type TestUser } from './helpers/factories.js';
import { call, client } from './helpers/http.js';
import { scoringDispatcher } from './helpers/lead-scoring.js';
import { newAutomation } from './helpers/pipeline-automations.js';
import { cardEvents, newCard, newPipeline, type TestPipeline } from './helpers/pipelines.js';
import { buildChatTestApp, type ChatTestApp } from './helpers/test-app.js';

/**
 * NooviChat's own clients (its n8n node and its MCP server) call the pipeline, lead-scoring and
 * automation API the spec copies, with spellings of their own (docs/spec/decisions.md §1). Each request here
 * is sent as they send it: their paths (aliases of the spec's routes), their field names, their
 * ISO dates without an offset, PUT for updates, POSTs without a body. Each alias also answers 404
 * for another account's ids, as the route it stands for does.
 */

let t: ChatTestApp;
let account: TestAccount;
let other: TestAccount;
let agent: TestUser;
let pipeline: TestPipeline;
let theirPipeline: TestPipeline;

beforeAll(async () => {
  t = await buildChatTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  account = await newAccount(t, 'Noovi');
  other = await newAccount(t, 'Other');
  agent = await newAgent(t, account, 'Ana');
  pipeline = await newPipeline(t, account, ['Lead', 'Proposal', 'Closing']);
  theirPipeline = await newPipeline(t, other);
});
afterAll(async () => {
  await t.close();
});

const api = () => client(t.app, account.admin.token);
/** NooviChat's n8n node sends POSTs without a body (and without a content type) when a form has no fields. */
const bare = (method: 'POST' | 'DELETE', url: string) =>
  t.app.inject({ method, url, headers: { api_access_token: account.admin.token } });

describe("NooviChat's n8n node", () => {
  it('creates and updates cards with expected_revenue and a deadline without an offset', async () => {
    const created = await api().post(`${account.path}/pipeline_cards`, {
      pipeline_id: String(pipeline.id),
      pipeline_stage: pipeline.stages[0].id,
      title: 'Website redesign',
      expected_revenue: 15000.5,
      currency: 'BRL',
      deadline: '2031-09-15T09:00:00',
      owner_id: agent.id,
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body.data).toMatchObject({
      value: 15000.5,
      currency: 'BRL',
      expected_close_date: '2031-09-15',
      owner: { id: agent.id },
    });
    const id = created.body.data.id;
    const updated = await api().patch(`${account.path}/pipeline_cards/${id}`, {
      expected_revenue: '17000',
      deadline: '2031-10-01T18:00:00',
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.data).toMatchObject({ value: 17000, expected_close_date: '2031-10-01' });
    // value wins over expected_revenue when both are sent (the spec's name first).
    const both = await api().patch(`${account.path}/pipeline_cards/${id}`, { value: 1, expected_revenue: 2 });
    expect(both.body.data.value).toBe(1);
    expect((await api().patch(`${account.path}/pipeline_cards/${id}`, { expected_revenue: -5 })).status).toBe(422);
  });

  it('lists cards with pipeline_stage and limit, and marks deals won (no body) and lost (reason)', async () => {
    const fresh = await newPipeline(t, account, ['A', 'B'], 'Listing');
    for (let i = 0; i < 3; i++) await newCard(t, account, fresh, { title: `In A ${i}` });
    await newCard(t, account, fresh, { title: 'In B', pipeline_stage: fresh.stages[1].id });
    const listed = await api().get(`${account.path}/pipeline_cards?pipeline_stage=${fresh.stages[0].id}&limit=2`);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.map((c: { title: string }) => c.title)).toEqual(['In A 0', 'In A 1']);
    expect(listed.body.meta).toEqual({ total: 3, page: 1, per_page: 2 });
    // The node allows a limit up to 500; a page holds 100 at most, and meta says so.
    expect((await api().get(`${account.path}/pipeline_cards?limit=500`)).body.meta.per_page).toBe(100);
    const [first] = listed.body.data;
    const won = await bare('POST', `${account.path}/pipeline/cards/${first.id}/deal_status/mark_won`);
    expect(won.statusCode, won.body).toBe(200);
    const lost = await api().post(`${account.path}/pipeline/cards/${listed.body.data[1].id}/deal_status/mark_lost`, {
      reason: 'Price',
    });
    expect(lost.body.data).toMatchObject({ status: 'lost', lost_reason: 'Price' });
  });

  it('registers a webhook and reads its id at the top, updates it and an inbox with PUT', async () => {
    const created = await api().post(`${account.path}/webhooks`, {
      url: 'https://hooks.example.test/n8n',
      subscriptions: ['pipeline_card_stage_changed', 'pipeline_card_created'],
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body.id).toBe(created.body.payload.webhook.id);
    // Its duplicate check reads the list: Chatwoot's {payload: {webhooks}} (docs/spec/decisions.md §1), a known difference.
    const list = await api().get(`${account.path}/webhooks`);
    expect(list.body.payload.webhooks.map((w: { id: number }) => w.id)).toContain(created.body.id);
    const put = await api().put(`${account.path}/webhooks/${created.body.id}`, {
      subscriptions: ['pipeline_card_stage_changed'],
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.payload.webhook.subscriptions).toEqual(['pipeline_card_stage_changed']);
    const inbox = await newInbox(t, account);
    const renamed = await api().put(`${account.path}/inboxes/${inbox.id}`, { name: 'WhatsApp' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.name).toBe('WhatsApp');
    expect((await client(t.app, other.admin.token).put(`${other.path}/webhooks/${created.body.id}`, {})).status).toBe(
      404,
    );
  });

  it('reads pipeline analytics with its date fields (no offset) and a comma list of agents', async () => {
    const card = await newCard(t, account, pipeline, { title: 'Analysed', owner_id: agent.id, value: 100 });
    await api().post(`${account.path}/pipeline/cards/${card.id}/deal_status/mark_won`, {});
    const now = new Date();
    const start = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 19);
    const end = now.toISOString().slice(0, 19);
    const query = `start_date=${start}&end_date=${end}&agent_ids=${agent.id},${account.admin.id}`;
    for (const path of ['dashboard', 'win_rate', 'conversion_metrics', 'sales_velocity', 'team_pipeline']) {
      const res = await api().get(`${account.path}/pipeline/analytics/${path}?${query}`);
      expect(res.status, `${path}: ${res.text}`).toBe(200);
      expect(res.body.data.period.start_date).toBe(`${start}.000Z`);
    }
    const won = await api().get(`${account.path}/pipeline/analytics/win_rate?${query}`);
    expect(won.body.data).toMatchObject({ won_deals: 1, won_value: [{ currency: 'BRL', value: 100 }] });
    expect((await api().get(`${account.path}/pipeline/deal_status/common_reasons`)).body.data.reasons).toEqual([
      { reason: 'Price', count: 1 },
    ]);
    expect((await api().get(`${account.path}/pipeline/analytics/win_rate?agent_ids=${other.admin.id}`)).status).toBe(
      404,
    );
  });

  it('validates and dry-runs automations with POSTs that carry no body', async () => {
    const automation = await newAutomation(t, account, {
      trigger: 'manual',
      actions: [{ type: 'add_note', content: 'Checked' }],
    });
    const validated = await bare('POST', `${account.path}/pipeline/automations/${automation.id}/validate`);
    expect(validated.statusCode, validated.body).toBe(200);
    expect(JSON.parse(validated.body).data.valid).toBe(true);
    const unsaved = await api().post(`${account.path}/pipeline/automations/validate`, {
      name: 'Draft',
      trigger: 'stage_change',
      actions: [{ type: 'move_to_stage', to: pipeline.stages[1].id }],
    });
    expect(unsaved.body.data).toEqual({ valid: true, errors: [], warnings: [] });
  });
});

describe("NooviChat's MCP server", () => {
  it("lists a pipeline's cards under /pipelines/{id}/pipeline_cards and /pipeline/cards", async () => {
    const fresh = await newPipeline(t, account, ['X', 'Y'], 'MCP');
    const x = await newCard(t, account, fresh, { title: 'X1', owner_id: agent.id });
    await newCard(t, account, fresh, { title: 'Y1', pipeline_stage: fresh.stages[1].id });
    const scoped = await api().get(`${account.path}/pipelines/${fresh.id}/pipeline_cards?limit=10`);
    expect(scoped.status, scoped.text).toBe(200);
    expect(scoped.body.data.map((c: { title: string }) => c.title)).toEqual(['X1', 'Y1']);
    const byStage = await api().get(
      `${account.path}/pipelines/${fresh.id}/pipeline_cards?pipeline_stage=${fresh.stages[1].id}`,
    );
    expect(byStage.body.data.map((c: { title: string }) => c.title)).toEqual(['Y1']);
    const paged = await api().get(`${account.path}/pipeline/cards?pipeline_id=${fresh.id}&owner_id=${agent.id}`);
    expect(paged.body).toMatchObject({ data: [{ id: x.id }], meta: { total: 1, page: 1, per_page: 25 } });
    expect((await api().get(`${account.path}/pipelines/${theirPipeline.id}/pipeline_cards`)).status).toBe(404);
  });

  it('overrides and recalculates a score under lead_scores/, and moves a card guarded by stage_version', async () => {
    const card = await newCard(t, account, pipeline, { title: 'Scored' });
    const overridden = await api().post(`${account.path}/pipeline/cards/${card.id}/lead_scores/override`, {
      score: 88,
    });
    expect(overridden.status, overridden.text).toBe(200);
    expect(overridden.body.data).toMatchObject({ lead_score: 88, lead_score_overridden: true });
    expect(
      (await api().post(`${account.path}/pipeline/cards/${card.id}/lead_scores/override`, { score: 101 })).status,
    ).toBe(422);
    expect((await api().post(`${account.path}/pipeline/cards/${card.id}/lead_scores/override`, {})).status).toBe(422);
    const recalculated = await bare('POST', `${account.path}/pipeline/cards/${card.id}/lead_scores/recalculate`);
    expect(recalculated.statusCode, recalculated.body).toBe(200);
    expect(JSON.parse(recalculated.body).data).toMatchObject({ lead_score: 0, lead_score_overridden: false });
    // The MCP reads stage_version and sends it back as expected_version.
    const moved = await api().post(`${account.path}/pipeline_cards/${card.id}/move_to_stage`, {
      pipeline_stage: pipeline.stages[1].id,
      expected_version: card.stage_version,
    });
    expect(moved.body.stage_version).toBe(card.stage_version + 1);
    const stale = await api().post(`${account.path}/pipeline_cards/${card.id}/move_to_stage`, {
      pipeline_stage: pipeline.stages[2].id,
      expected_version: card.stage_version,
    });
    expect(stale.status).toBe(409);
    const theirCard = await newCard(t, other, theirPipeline);
    for (const rest of ['lead_scores/override', 'lead_scores/recalculate'])
      expect((await api().post(`${account.path}/pipeline/cards/${theirCard.id}/${rest}`, { score: 5 })).status).toBe(
        404,
      );
  });

  it('discards a card with a reason, kept as deleted_reason, shown while discarded, cleared on restore', async () => {
    const card = await newCard(t, account, pipeline, { title: 'Spam lead' });
    const res = await call(t.app, {
      method: 'DELETE',
      url: `${account.path}/pipeline/cards/${card.id}`,
      token: account.admin.token,
      body: { reason: 'Duplicate of #12' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ id: card.id, deleted_reason: 'Duplicate of #12' });
    expect(res.body.data.deleted_at).toEqual(expect.any(String));
    const discarded = await api().get(`${account.path}/pipeline/cards/discarded`);
    expect(discarded.body.data.find((c: { id: number }) => c.id === card.id).deleted_reason).toBe('Duplicate of #12');
    const event = (await cardEvents(t, account.id)).filter((e) => e.name === 'pipeline_card_deleted').at(-1)!;
    expect(event.refs).toMatchObject({ cardId: card.id, permanent: false, reason: 'Duplicate of #12' });
    expect(event.payload).toMatchObject({ event: 'pipeline_card_deleted', deleted_reason: 'Duplicate of #12' });
    const restored = await api().post(`${account.path}/pipeline/cards/${card.id}/restore`);
    expect(restored.body.data).toMatchObject({ deleted_at: null, deleted_reason: null });
    // Without a body (the spec's DELETE) the reason stays empty; another account's card is a 404.
    const plain = await newCard(t, account, pipeline);
    expect(
      JSON.parse((await bare('DELETE', `${account.path}/pipeline/cards/${plain.id}`)).body).data.deleted_reason,
    ).toBe(null);
    const theirCard = await newCard(t, other, theirPipeline);
    expect((await api().delete(`${account.path}/pipeline/cards/${theirCard.id}`, { reason: 'x' })).status).toBe(404);
    expect((await client(t.app, other.admin.token).get(`${other.path}/pipeline_cards/${theirCard.id}`)).status).toBe(
      200,
    );
  });

  it('reads every automation run under all_executions, filtered by automation, status and from/to', async () => {
    const first = await newAutomation(t, account, { trigger: 'manual', actions: [{ type: 'add_note', content: 'A' }] });
    const second = await newAutomation(t, account, { trigger: 'manual', actions: [{ type: 'mark_won' }] });
    const card = await newCard(t, account, pipeline, { title: 'Automated' });
    for (const automation of [first, second, first]) {
      const run = await api().post(`${account.path}/pipeline/automations/${automation.id}/execute`, {
        card_id: card.id,
      });
      expect(run.status, run.text).toBe(200);
    }
    const all = await api().get(`${account.path}/pipeline/automations/all_executions`);
    expect(all.status, all.text).toBe(200);
    expect(all.body.data.map((r: { automation_id: number }) => r.automation_id)).toEqual([
      first.id,
      second.id,
      first.id,
    ]);
    expect(all.body.meta).toEqual({ total: 3, page: 1, per_page: 25 });
    const ofFirst = await api().get(`${account.path}/pipeline/automations/all_executions?automation_id=${first.id}`);
    expect(ofFirst.body.meta.total).toBe(2);
    expect((await api().get(`${account.path}/pipeline/automations/all_executions?status=failed`)).body.meta.total).toBe(
      0,
    );
    const past = await api().get(
      `${account.path}/pipeline/automations/all_executions?from=2020-01-01T00:00:00&to=2020-12-31`,
    );
    expect(past.body.meta.total).toBe(0);
    // Another account's runs are not in its log, nor its automations' ids.
    const theirs = await client(t.app, other.admin.token).get(`${other.path}/pipeline/automations/all_executions`);
    expect(theirs.body.meta.total).toBe(0);
    expect(
      (
        await client(t.app, other.admin.token).get(
          `${other.path}/pipeline/automations/all_executions?automation_id=${first.id}`,
        )
      ).body.meta.total,
    ).toBe(0);
  });

  it('exports cards and reads the import template as CSV', async () => {
    const exported = await t.app.inject({
      url: `${account.path}/pipeline/cards/export?pipeline_stage=${pipeline.stages[0].id}&status=open`,
      headers: { api_access_token: account.admin.token },
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(exported.body.startsWith('\uFEFFid,title,value,currency,stage,')).toBe(true);
    const template = await api().get(`${account.path}/pipeline/cards/template`);
    expect(template.text.split('\r\n')[0]).toBe(
      '\uFEFFtitle,value,currency,stage,owner_email,contact_id,contact_email,contact_phone,expected_close_date',
    );
    expect((await client(t.app, other.admin.token).get(`${account.path}/pipeline/cards/template`)).status).toBe(404);
  });

  it('reads lead-score logs by card_id, and trends without a range', async () => {
    const card = await newCard(t, account, pipeline, { title: 'Logged' });
    await api().patch(`${account.path}/pipeline_cards/${card.id}`, { lead_score: 30 });
    await scoringDispatcher(t).dispatcher.drain();
    const logs = await api().get(`${account.path}/lead_score/logs?card_id=${card.id}`);
    expect(logs.body.data.map((l: { new_score: number }) => l.new_score)).toEqual([30]);
    const trends = await api().get(`${account.path}/lead_score/reports/trends`);
    expect(trends.status, trends.text).toBe(200);
  });
});
