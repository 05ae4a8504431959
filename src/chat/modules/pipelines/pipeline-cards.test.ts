import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { client } from '../../../../test/helpers/http.js';
import {
  newAccount,
  newAgent,
  newContact,
  newConversation,
  type TestAccount,
} from '../../../../test/helpers/factories.js';
import { cardEvents, newCard, newPipeline, pipelineState } from '../../../../test/helpers/pipelines.js';

let t: ChatTestApp;
let account: TestAccount;
let other: TestAccount;
beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  other = await newAccount(t, 'Other');
});
afterAll(async () => {
  await t.close();
});

const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

describe('cards: create and show', () => {
  it('creates a card with every field and shows it with its timeline, score and attachments', async () => {
    const pipeline = await newPipeline(t, account);
    const owner = await newAgent(t, account, 'Olivia Owner');
    const conversation = await newConversation(t, account);
    const api = client(t.app, account.admin.token);
    const res = await api.post(`${account.path}/pipeline_cards`, {
      pipeline_card: {
        title: '  Enterprise plan ',
        pipeline_id: pipeline.id,
        pipeline_stage: pipeline.stages[1].id,
        conversation_display_id: conversation.id,
        owner_id: owner.id,
        item_details: { title: 'Annual licence', value: 1234.56, currency: 'usd' },
        deadline: '2030-03-31T18:00:00-03:00',
        custom_attributes: { source: 'webinar', seats: 40 },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const card = res.body.data;
    const expected = {
      id: expect.any(Number),
      account_id: account.id,
      title: 'Enterprise plan',
      value: 1234.56,
      currency: 'USD',
      status: 'open',
      stage: { id: pipeline.stages[1].id, name: 'Qualified' },
      pipeline: { id: pipeline.id, name: 'Sales' },
      // The conversation's contact, since no contact_id was given.
      contact: { id: conversation.contact.id, name: conversation.contact.name },
      owner: { id: owner.id, name: 'Olivia Owner' },
      conversation: { id: conversation.id },
      item_details: { title: 'Annual licence', value: 1234.56, currency: 'USD' },
      position: 0,
      stage_version: 1,
      stage_entered_at: iso,
      lead_score: 0,
      lead_score_category: 'frio',
      lead_score_overridden: false,
      expected_close_date: '2030-03-31',
      custom_attributes: { source: 'webinar', seats: 40 },
      qualification_checklist: {},
      qualified: true,
      won_note: null,
      lost_reason: null,
      closed_at: null,
      deleted_at: null,
      deleted_reason: null,
      created_at: iso,
      updated_at: iso,
    };
    expect(card).toEqual(expected);

    const shown = await api.get(`${account.path}/pipeline_cards/${card.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({
      data: {
        ...expected,
        timeline: [
          {
            id: expect.any(Number),
            type: 'created',
            stage: { id: pipeline.stages[1].id, name: 'Qualified' },
            value: 1234.56,
            currency: 'USD',
            data: { stage: { id: pipeline.stages[1].id, name: 'Qualified' }, value: 1234.56, currency: 'USD' },
            performed_by: { id: account.admin.id, name: 'Admin', type: 'user' },
            created_at: iso,
          },
        ],
        score: { lead_score: 0, category: 'frio', category_label: 'Frio', overridden: false, factors: [] },
        attachments: [],
      },
    });
    const [event] = (await cardEvents(t, account.id)).filter((e) => e.refs.cardId === card.id);
    expect(event).toMatchObject({
      name: 'pipeline_card_created',
      payload: { ...expected, event: 'pipeline_card_created', account: { id: account.id, name: 'Acme' } },
      refs: {
        cardId: card.id,
        pipelineId: pipeline.id,
        stageId: pipeline.stages[1].id,
        contactId: conversation.contact.id,
        conversationDisplayId: conversation.id,
        ownerId: owner.id,
        status: 'open',
        value: 1234.56,
        currency: 'USD',
        actorId: account.admin.id,
      },
    });
  });

  it("defaults: value 0, the account's currency (or BRL), the end of the stage; agents create cards too", async () => {
    const pipeline = await newPipeline(t, account);
    const agent = await newAgent(t, account);
    const first = await newCard(t, account, pipeline, { title: 'First' }, agent.token);
    expect(first).toMatchObject({ value: 0, currency: 'BRL', position: 0, owner: null, contact: null });
    const second = await newCard(t, account, pipeline, { title: 'Second', value: '19.90' });
    expect(second).toMatchObject({ value: 19.9, position: 1 });

    const euro = await newAccount(t, 'Euro');
    const patched = await client(t.app, t.platformToken).patch(`/platform/api/v1/accounts/${euro.id}`, {
      custom_attributes: { currency: 'eur' },
    });
    expect(patched.status).toBe(200);
    const euroPipeline = await newPipeline(t, euro);
    expect((await newCard(t, euro, euroPipeline, { value: 5 })).currency).toBe('EUR');
  });

  it('keeps money exact: 1234.56 round-trips, 0.1 + 0.2 totals 0.3, each currency with its decimals', async () => {
    const pipeline = await newPipeline(t, account, ['Only']);
    const api = client(t.app, account.admin.token);
    await newCard(t, account, pipeline, { value: 0.1 });
    await newCard(t, account, pipeline, { value: 0.2 });
    const shown = (await api.get(`${account.path}/pipelines/${pipeline.id}`)).body.data;
    expect(shown.total_value).toBe(0.3);
    expect(shown.stages[0]).toMatchObject({ cards_count: 2, total_value: 0.3 });
    expect(JSON.stringify(shown)).toContain('"total_value":0.3,');

    const big = await newCard(t, account, pipeline, { value: 999999999999.99 });
    expect(big.value).toBe(999999999999.99);
    const precise = await newCard(t, account, pipeline, { value: '1234.56' });
    expect(precise.value).toBe(1234.56);
    const yen = await newCard(t, account, pipeline, { value: 1500, currency: 'JPY' });
    expect(yen).toMatchObject({ value: 1500, currency: 'JPY' });
    const dinar = await newCard(t, account, pipeline, { value: 1.125, currency: 'KWD' });
    expect(dinar).toMatchObject({ value: 1.125, currency: 'KWD' });
    const total = (await api.get(`${account.path}/pipelines/${pipeline.id}/stages`)).body.data[0].total_value;
    // 0.1 + 0.2 + 999999999999.99 + 1234.56 + 1500 + 1.125, added as integers.
    expect(total).toBe(1000000002735.975);
    const rows = await t.db
      .selectFrom('pipeline_cards')
      .select(['value_minor', 'currency'])
      .where('pipeline_id', '=', pipeline.id)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [Number(r.value_minor), r.currency])).toEqual([
      [10, 'BRL'],
      [20, 'BRL'],
      [99999999999999, 'BRL'],
      [123456, 'BRL'],
      [1500, 'JPY'],
      [1125, 'KWD'],
    ]);

    const before = await pipelineState(t);
    for (const body of [
      { value: 10.005 },
      { value: '10.005' },
      { value: 1.5, currency: 'JPY' },
      { value: -1 },
      { value: 1e12 },
      { value: '1e5' },
      { value: 'ten' },
      { value: 10, currency: 'XXY' },
      { item_details: { value: 0.001 } },
    ]) {
      const res = await api.post(`${account.path}/pipeline_cards`, {
        title: 'Bad money',
        pipeline_id: pipeline.id,
        pipeline_stage: pipeline.stages[0].id,
        ...body,
      });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.details?.[0]?.field, JSON.stringify(res.body)).toMatch(/value|currency/);
    }
    expect(await pipelineState(t)).toEqual(before);
  });

  it('answers 422 to bad input and creates nothing', async () => {
    const pipeline = await newPipeline(t, account);
    const second = await newPipeline(t, account, ['Elsewhere']);
    const api = client(t.app, account.admin.token);
    const base = { title: 'Deal', pipeline_id: pipeline.id, pipeline_stage: pipeline.stages[0].id };
    const before = await pipelineState(t);
    for (const body of [
      {},
      { ...base, title: '   ' },
      { ...base, title: 'x'.repeat(256) },
      { ...base, pipeline_stage: second.stages[0].id },
      { ...base, pipeline_stage: `${pipeline.id}_nope` },
      { ...base, pipeline_stage: 'garbage' },
      { ...base, pipeline_stage: undefined },
      { ...base, pipeline_id: 'one' },
      { ...base, deadline: 'tomorrow' },
      { ...base, deadline: '2030-02-30' },
      { ...base, expected_close_date: '31/12/2030' },
      { ...base, custom_attributes: ['a'] },
      { ...base, owner_id: 0 },
      [base],
    ]) {
      const res = await api.post(`${account.path}/pipeline_cards`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    }
    expect(await pipelineState(t)).toEqual(before);
  });

  it("answers 404 to another account's (or unknown) pipeline, contact, owner or conversation in the body", async () => {
    const pipeline = await newPipeline(t, account);
    const theirPipeline = await newPipeline(t, other);
    const theirContact = (await newContact(t, other)).contact;
    const theirAgent = await newAgent(t, other);
    const outsiderConversation = await newConversation(t, other);
    await newConversation(t, other);
    const api = client(t.app, account.admin.token);
    const base = { title: 'Deal', pipeline_id: pipeline.id, pipeline_stage: pipeline.stages[0].id };
    const before = await pipelineState(t);
    for (const body of [
      { ...base, pipeline_id: theirPipeline.id, pipeline_stage: theirPipeline.stages[0].id },
      { ...base, pipeline_id: 99999999 },
      { ...base, contact_id: theirContact.id },
      { ...base, owner_id: theirAgent.id },
      { ...base, owner_id: 99999999 },
      { ...base, conversation_display_id: outsiderConversation.id + 1000 },
    ]) {
      const res = await api.post(`${account.path}/pipeline_cards`, body);
      expect(res.status, JSON.stringify(body)).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found', error: expect.any(String) });
    }
    expect(await pipelineState(t)).toEqual(before);
  });
});

describe('cards: update', () => {
  it('changes fields with value_changed, owner_changed and score_overridden entries and one event', async () => {
    const pipeline = await newPipeline(t, account);
    const owner = await newAgent(t, account, 'Nora');
    const contact = (await newContact(t, account, { name: 'Zed Contact' })).contact;
    const card = await newCard(t, account, pipeline, { value: 100 });
    const api = client(t.app, account.admin.token);
    const res = await api.patch(`${account.path}/pipeline_cards/${card.id}`, {
      title: 'Bigger deal',
      value: 250.5,
      owner_id: owner.id,
      contact_id: contact.id,
      expected_close_date: '2031-01-15',
      custom_attributes: { tier: 'gold' },
      lead_score: 80,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      title: 'Bigger deal',
      value: 250.5,
      owner: { id: owner.id, name: 'Nora' },
      contact: { id: contact.id, name: 'Zed Contact' },
      expected_close_date: '2031-01-15',
      custom_attributes: { tier: 'gold' },
      lead_score: 80,
      lead_score_category: 'muito_quente',
      lead_score_overridden: true,
    });
    const timeline = (await api.get(`${account.path}/pipeline/cards/${card.id}/timeline`)).body.data;
    // Newest first; the entries of one change in the order they were written, last first.
    expect(timeline.map((e: { type: string }) => e.type)).toEqual([
      'score_overridden',
      'owner_changed',
      'value_changed',
      'created',
    ]);
    expect(timeline[2].data).toEqual({ from: 100, to: 250.5, from_currency: 'BRL', currency: 'BRL' });
    expect(timeline[1].data).toEqual({ from_owner: null, to_owner: { id: owner.id, name: 'Nora' } });
    expect(timeline[0].data).toEqual({ from: 0, to: 80 });

    const updates = (await cardEvents(t, account.id)).filter(
      (e) => e.refs.cardId === card.id && e.name === 'pipeline_card_updated',
    );
    expect(updates).toHaveLength(1);
    expect(updates[0].refs).toMatchObject({ ownerId: owner.id, previousOwnerId: null });
    expect(updates[0].refs.changed).toEqual(
      expect.arrayContaining(['title', 'value', 'owner', 'contact', 'lead_score', 'custom_attributes']),
    );
    expect(updates[0].payload.changed_attributes).toContainEqual({
      value: { previous_value: 100, current_value: 250.5 },
    });

    // The same values again change nothing and record nothing.
    const events = (await cardEvents(t, account.id)).length;
    const again = await api.patch(`${account.path}/pipeline_cards/${card.id}`, {
      title: 'Bigger deal',
      value: 250.5,
      owner_id: owner.id,
    });
    expect(again.status).toBe(200);
    expect((await cardEvents(t, account.id)).length).toBe(events);
  });

  it('refuses bad updates (422) and foreign references (404), changing nothing', async () => {
    const pipeline = await newPipeline(t, account);
    const card = await newCard(t, account, pipeline, { value: 10 });
    const theirContact = (await newContact(t, other)).contact;
    const api = client(t.app, account.admin.token);
    const before = await pipelineState(t);
    for (const body of [
      { title: '  ' },
      { value: -5 },
      { lead_score: 101 },
      { lead_score: 5.5 },
      { currency: 'JPY' },
    ]) {
      const res = await api.patch(`${account.path}/pipeline_cards/${card.id}`, { ...body, value: body.value ?? 10.5 });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    for (const body of [
      { contact_id: theirContact.id },
      { owner_id: other.admin.id },
      { conversation_display_id: 9999 },
    ]) {
      expect((await api.patch(`${account.path}/pipeline_cards/${card.id}`, body)).status).toBe(404);
    }
    expect(await pipelineState(t)).toEqual(before);
  });
});
