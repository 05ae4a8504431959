import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { call, client } from '../../../../test/helpers/http.js';
import { newAccount, newAgent, type TestAccount } from '../../../../test/helpers/factories.js';
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

const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/);

describe('deal status', () => {
  it('marks won (with won_value and won_note), lost (reason), reopens in the same stage', async () => {
    const pipeline = await newPipeline(t, account);
    const card = await newCard(t, account, pipeline, { value: 100, pipeline_stage: pipeline.stages[2].id });
    const agent = await newAgent(t, account);
    const api = client(t.app, agent.token);
    const C = `${account.path}/pipeline/cards/${card.id}/deal_status`;

    const won = await api.post(`${C}/mark_won`, { won_value: '150.75', won_note: 'Signed for 12 months' });
    expect(won.status, JSON.stringify(won.body)).toBe(200);
    expect(won.body.data).toMatchObject({
      status: 'won',
      value: 150.75,
      won_note: 'Signed for 12 months',
      lost_reason: null,
      closed_at: iso,
      stage: { id: pipeline.stages[2].id },
    });
    const lost = await api.post(`${C}/mark_lost`, { reason: 'Went with a competitor' });
    expect(lost.body.data).toMatchObject({ status: 'lost', lost_reason: 'Went with a competitor', won_note: null });
    const lostAgain = await api.post(`${C}/mark_lost`, { lost_reason: 'Budget' });
    expect(lostAgain.body.data).toMatchObject({ status: 'lost', lost_reason: 'Budget' });
    const reopened = await api.post(`${C}/reopen`);
    expect(reopened.status).toBe(200);
    expect(reopened.body.data).toMatchObject({
      status: 'open',
      lost_reason: null,
      closed_at: null,
      stage: { id: pipeline.stages[2].id },
      value: 150.75,
    });

    const timeline = (await api.get(`${account.path}/pipeline/cards/${card.id}/timeline`)).body.data;
    expect(timeline.map((e: { type: string }) => e.type)).toEqual([
      'deal_reopened',
      'deal_lost',
      'deal_lost',
      'deal_won',
      'value_changed',
      'created',
    ]);
    expect(timeline[1].data).toEqual({ lost_reason: 'Budget' });
    expect(timeline[2]).toMatchObject({ lost_reason: 'Went with a competitor' });
    expect(timeline[3].data).toEqual({ value: 150.75, currency: 'BRL', won_note: 'Signed for 12 months' });
    expect(timeline[0].data).toEqual({ previous_status: 'lost' });

    const names = (await cardEvents(t, account.id))
      .filter((e) => e.refs.cardId === card.id)
      .map((e) => [e.name, e.refs.previousStatus]);
    expect(names).toEqual([
      ['pipeline_card_created', undefined],
      ['pipeline_card_won', 'open'],
      ['pipeline_card_lost', 'won'],
      ['pipeline_card_lost', 'lost'],
      ['pipeline_card_reopened', 'lost'],
    ]);
  });

  it('answers 409 invalid_transition to reopening an open deal, changing nothing', async () => {
    const pipeline = await newPipeline(t, account);
    const card = await newCard(t, account, pipeline);
    const before = await pipelineState(t);
    const res = await client(t.app, account.admin.token).post(
      `${account.path}/pipeline/cards/${card.id}/deal_status/reopen`,
    );
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'invalid_transition', error: expect.any(String) });
    expect(await pipelineState(t)).toEqual(before);
  });

  it('takes a body-less POST, and refuses bad bodies with 422', async () => {
    const pipeline = await newPipeline(t, account);
    const card = await newCard(t, account, pipeline, { value: 10 });
    const url = `${account.path}/pipeline/cards/${card.id}/deal_status/mark_won`;
    const before = await pipelineState(t);
    for (const body of [{ won_value: -1 }, { won_value: 1.234 }, { won_note: 5 }, [1]]) {
      const res = await client(t.app, account.admin.token).post(url, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    const lost = `${account.path}/pipeline/cards/${card.id}/deal_status/mark_lost`;
    expect((await client(t.app, account.admin.token).post(lost, { lost_reason: 7 })).status).toBe(422);
    expect(await pipelineState(t)).toEqual(before);
    const bare = await call(t.app, { method: 'POST', url, token: account.admin.token });
    expect(bare.status, bare.text).toBe(200);
    expect(bare.body.data.status).toBe('won');
  });
});

describe('assignment', () => {
  it('assigns and unassigns an owner with owner_changed entries and updated events', async () => {
    const pipeline = await newPipeline(t, account);
    const card = await newCard(t, account, pipeline);
    const owner = await newAgent(t, account, 'Owner One');
    const api = client(t.app, account.admin.token);
    const url = `${account.path}/pipeline/cards/${card.id}/assign`;
    const assigned = await api.patch(url, { owner_id: owner.id });
    expect(assigned.status).toBe(200);
    expect(assigned.body.data.owner).toEqual({ id: owner.id, name: 'Owner One' });
    const unassigned = await api.patch(url, { owner_id: null });
    expect(unassigned.body.data.owner).toBeNull();
    const entries = (await api.get(`${account.path}/pipeline/cards/${card.id}/timeline`)).body.data;
    expect(entries.slice(0, 2).map((e: { data: unknown }) => e.data)).toEqual([
      { from_owner: { id: owner.id, name: 'Owner One' }, to_owner: null },
      { from_owner: null, to_owner: { id: owner.id, name: 'Owner One' } },
    ]);
    const events = (await cardEvents(t, account.id)).filter(
      (e) => e.refs.cardId === card.id && e.name === 'pipeline_card_updated',
    );
    expect(events.map((e) => [e.refs.ownerId, e.refs.previousOwnerId])).toEqual([
      [owner.id, null],
      [null, owner.id],
    ]);
  });

  it('refuses an owner who is not a member of the account (404) and a bad body (422)', async () => {
    const pipeline = await newPipeline(t, account);
    const card = await newCard(t, account, pipeline);
    const api = client(t.app, account.admin.token);
    const url = `${account.path}/pipeline/cards/${card.id}/assign`;
    const before = await pipelineState(t);
    for (const ownerId of [other.admin.id, 99999999])
      expect((await api.patch(url, { owner_id: ownerId })).status).toBe(404);
    for (const body of [{}, { owner_id: 'me' }, { owner_id: -1 }])
      expect((await api.patch(url, body)).status).toBe(422);
    expect(await pipelineState(t)).toEqual(before);
  });

  it('bulk assigns up to 200 cards, all or nothing', async () => {
    const pipeline = await newPipeline(t, account);
    const cards = [];
    for (let i = 0; i < 3; i++) cards.push(await newCard(t, account, pipeline, { title: `Bulk ${i}` }));
    const theirs = await newCard(t, other, await newPipeline(t, other));
    const owner = await newAgent(t, account, 'Bulk Owner');
    const agent = await newAgent(t, account);
    const api = client(t.app, agent.token);
    const url = `${account.path}/pipeline/cards/bulk_assign`;
    const ids = cards.map((c) => c.id);

    const before = await pipelineState(t);
    for (const [status, body] of [
      [404, { card_ids: [...ids, 99999999], owner_id: owner.id }],
      [404, { card_ids: [...ids, theirs.id], owner_id: owner.id }],
      [404, { card_ids: ids, owner_id: other.admin.id }],
      [422, { card_ids: Array.from({ length: 201 }, (_, i) => i + 1), owner_id: owner.id }],
      [422, { card_ids: [], owner_id: owner.id }],
      [422, { owner_id: owner.id }],
      [422, { card_ids: ids }],
    ] as const) {
      const res = await api.post(url, body);
      expect(res.status, JSON.stringify(body).slice(0, 100)).toBe(status);
      expect(res.body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    }
    expect(await pipelineState(t)).toEqual(before);

    const res = await api.post(url, { item_ids: ids, owner_id: owner.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.map((c: { id: number; owner: unknown }) => [c.id, c.owner])).toEqual(
      ids.map((id) => [id, { id: owner.id, name: 'Bulk Owner' }]),
    );
    const clear = await api.post(url, { card_ids: ids, owner_id: null });
    expect(clear.body.data.every((c: { owner: unknown }) => c.owner === null)).toBe(true);
  });
});

describe('notes and the timeline', () => {
  it('adds notes; the timeline pages newest first; the detail embeds the latest 50', async () => {
    const pipeline = await newPipeline(t, account);
    const card = await newCard(t, account, pipeline);
    const agent = await newAgent(t, account, 'Noter');
    const api = client(t.app, agent.token);
    const note = await api.post(`${account.path}/pipeline/cards/${card.id}/notes`, { content: '  Called, sent deck ' });
    expect(note.status, JSON.stringify(note.body)).toBe(200);
    expect(note.body).toEqual({
      data: {
        id: expect.any(Number),
        type: 'note_added',
        content: 'Called, sent deck',
        data: { content: 'Called, sent deck' },
        performed_by: { id: agent.id, name: 'Noter', type: 'user' },
        created_at: iso,
      },
    });
    for (let i = 1; i < 55; i++)
      await api.post(`${account.path}/pipeline/cards/${card.id}/notes`, { content: `Note ${i}` });
    const first = await api.get(`${account.path}/pipeline/cards/${card.id}/timeline`);
    expect(first.body.meta).toEqual({ total: 56, page: 1, per_page: 50 });
    expect(first.body.data[0].content).toBe('Note 54');
    const second = await api.get(`${account.path}/pipeline/cards/${card.id}/timeline?page=2`);
    expect(second.body.data.map((e: { type: string }) => e.type)).toEqual([
      'note_added',
      'note_added',
      'note_added',
      'note_added',
      'note_added',
      'created',
    ]);
    const detail = (await api.get(`${account.path}/pipeline_cards/${card.id}`)).body.data;
    expect(detail.timeline).toHaveLength(50);
    expect(detail.timeline[0].content).toBe('Note 54');

    const before = await pipelineState(t);
    for (const body of [{}, { content: '' }, { content: '   ' }, { content: 'x'.repeat(10001) }]) {
      expect((await api.post(`${account.path}/pipeline/cards/${card.id}/notes`, body)).status).toBe(422);
    }
    expect(await pipelineState(t)).toEqual(before);
  });
});

describe('qualification checklist and score', () => {
  it('keeps when items were checked, scores the checked points, and a manual score sticks until recalculated', async () => {
    const pipeline = await newPipeline(t, account);
    const card = await newCard(t, account, pipeline);
    const api = client(t.app, account.admin.token);
    const url = `${account.path}/pipeline_cards/${card.id}/update_qualification_checklist`;
    const res = await api.patch(url, {
      qualification_checklist: {
        budget: { id: 'budget', name: 'Budget confirmed', checked: true, points: 20, required: true, category: 'bant' },
        authority: { name: 'Decision maker', checked: false, points: 15, required: true },
        need: { name: 'Need', checked: true, points: 10 },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({ lead_score: 30, qualified: false, score: { lead_score: 30, category: 'morno' } });
    expect(data.qualification_checklist.budget).toEqual({
      id: 'budget',
      name: 'Budget confirmed',
      checked: true,
      points: 20,
      required: true,
      category: 'bant',
      notes: null,
      checked_at: iso,
      checked_by: { id: account.admin.id, name: 'Admin', type: 'user' },
    });
    expect(data.qualification_checklist.authority).toMatchObject({
      checked: false,
      checked_at: null,
      checked_by: null,
    });
    const checkedAt = data.qualification_checklist.budget.checked_at;

    const again = await api.patch(url, {
      qualification_checklist: {
        budget: { name: 'Budget confirmed', checked: true, points: 20, required: true },
        authority: { name: 'Decision maker', checked: true, points: 60, required: true },
      },
    });
    expect(again.body.data).toMatchObject({ lead_score: 80, qualified: true });
    expect(again.body.data.qualification_checklist.budget.checked_at).toBe(checkedAt);

    const manual = await api.patch(`${account.path}/pipeline_cards/${card.id}`, { lead_score: 12 });
    expect(manual.body.data).toMatchObject({ lead_score: 12, lead_score_overridden: true });
    const still = await api.patch(url, {
      qualification_checklist: { budget: { name: 'Budget', checked: true, points: 5 } },
    });
    expect(still.body.data).toMatchObject({ lead_score: 12, score: { overridden: true } });
    const recalculated = await api.post(`${account.path}/pipeline_cards/${card.id}/recalculate_score`);
    expect(recalculated.status).toBe(200);
    expect(recalculated.body.data).toMatchObject({
      lead_score: 5,
      lead_score_overridden: false,
      score: { lead_score: 5, category: 'frio', category_label: 'Frio', overridden: false, factors: [] },
    });

    const before = await pipelineState(t);
    for (const body of [
      {},
      { qualification_checklist: [] },
      { qualification_checklist: { a: { name: 'A', checked: 'yes!' } } },
      { qualification_checklist: { a: { name: 'A', checked: true, points: 500 } } },
    ]) {
      expect((await api.patch(url, body)).status, JSON.stringify(body)).toBe(422);
    }
    expect(await pipelineState(t)).toEqual(before);
  });
});
