import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { call, client } from '../../../../test/helpers/http.js';
import { newAccount, newAgent, newContact, type TestAccount } from '../../../../test/helpers/factories.js';
import {
  newCard,
  newPipeline,
  pipelineState,
  stageCounts,
  type TestPipeline,
} from '../../../../test/helpers/pipelines.js';

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

describe('cards: the list', () => {
  let pipeline: TestPipeline;
  let ids: Record<string, number>;
  let owner: { id: number; token: string };
  let contactId: number;

  beforeAll(async () => {
    const acme = account;
    pipeline = await newPipeline(t, acme, ['Lead', 'Qualified', 'Proposal'], 'Listed');
    owner = await newAgent(t, acme, 'Lister');
    contactId = (await newContact(t, acme, { name: 'Maria Souza' })).contact.id;
    const [lead, qualified, proposal] = pipeline.stages;
    ids = {};
    // Created out of board order, to show the list sorts by stage position, then card position.
    for (const [title, stage, extra] of [
      ['P1', proposal, {}],
      ['L1', lead, { owner_id: owner.id }],
      ['Q1', qualified, { contact_id: contactId }],
      ['L2', lead, {}],
      ['P2', proposal, { owner_id: owner.id }],
      ['L3', lead, {}],
    ] as const) {
      ids[title] = (await newCard(t, acme, pipeline, { title, pipeline_stage: stage.id, ...extra })).id;
    }
    const api = client(t.app, acme.admin.token);
    await api.post(`${acme.path}/pipeline/cards/${ids.P2}/deal_status/mark_won`, {});
    await api.post(`${acme.path}/pipeline/cards/${ids.L2}/deal_status/mark_lost`, {});
    await api.delete(`${acme.path}/pipeline_cards/${ids.L3}`);
  });

  const titles = (body: { data: { title: string }[] }) => body.data.map((c) => c.title);
  const list = (query: string, token = account.admin.token) =>
    client(t.app, token).get(`${account.path}/pipeline_cards?pipeline_id=${pipeline.id}${query}`);

  it('lists the live cards (won and lost included) in board order, with meta', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(titles(res.body)).toEqual(['L1', 'L2', 'Q1', 'P1', 'P2']);
    expect(res.body.meta).toEqual({ total: 5, page: 1, per_page: 25 });
    expect(res.body.data[0]).toMatchObject({ owner: { id: owner.id, name: 'Lister' }, stage: { name: 'Lead' } });
  });

  it('pages across stages with per_page', async () => {
    const pages = [];
    for (const page of [1, 2, 3, 4]) pages.push(titles((await list(`&per_page=2&page=${page}`)).body));
    expect(pages).toEqual([['L1', 'L2'], ['Q1', 'P1'], ['P2'], []]);
    expect((await list('&per_page=2&page=3')).body.meta).toEqual({ total: 5, page: 3, per_page: 2 });
  });

  it('filters by stage, status, owner, contact and q', async () => {
    const [lead, , proposal] = pipeline.stages;
    expect(titles((await list(`&stage_id=${lead.id}`)).body)).toEqual(['L1', 'L2']);
    expect(titles((await list(`&stage_id=${proposal.id}&status=won`)).body)).toEqual(['P2']);
    expect(titles((await list('&status=open')).body)).toEqual(['L1', 'Q1', 'P1']);
    expect(titles((await list('&status=lost')).body)).toEqual(['L2']);
    expect(titles((await list(`&owner_id=${owner.id}`)).body)).toEqual(['L1', 'P2']);
    expect(titles((await list(`&contact_id=${contactId}`)).body)).toEqual(['Q1']);
    expect(titles((await list('&q=souza')).body)).toEqual(['Q1']);
    expect(titles((await list('&q=p')).body)).toEqual(['P1', 'P2']);
    expect(titles((await list('&q=%25')).body)).toEqual([]);
    // A stage id that names nothing (here, or in another account) matches nothing.
    expect((await list('&stage_id=999_lead')).body).toEqual({ data: [], meta: { total: 0, page: 1, per_page: 25 } });
    const theirs = await newPipeline(t, other);
    expect((await list(`&stage_id=${theirs.stages[0].id}`)).body.data).toEqual([]);
    const all = await client(t.app, account.admin.token).get(`${account.path}/pipeline_cards?stage_id=${lead.id}`);
    expect(titles(all.body)).toEqual(['L1', 'L2']);
    // Agents read the same list.
    expect(titles((await list('', owner.token)).body)).toEqual(['L1', 'L2', 'Q1', 'P1', 'P2']);
  });

  it('refuses bad queries (422) and needs a token (401)', async () => {
    for (const query of ['&per_page=101', '&per_page=0', '&page=-1', '&status=archived', '&owner_id=x']) {
      const res = await list(query);
      expect(res.status, query).toBe(422);
      expect(res.body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    }
    expect((await call(t.app, { url: `${account.path}/pipeline_cards` })).status).toBe(401);
  });

  it("never shows another account's cards, and answers 404 for them on every card route", async () => {
    const theirs = await newPipeline(t, other);
    const theirCard = await newCard(t, other, theirs, { title: 'Secret' });
    const all = await client(t.app, account.admin.token).get(`${account.path}/pipeline_cards?per_page=100`);
    expect(all.body.data.map((c: { id: number }) => c.id)).not.toContain(theirCard.id);
    const api = client(t.app, account.admin.token);
    const before = await pipelineState(t);
    for (const id of [theirCard.id, 99999999]) {
      const c = `${account.path}/pipeline/cards/${id}`;
      for (const res of [
        await api.get(`${account.path}/pipeline_cards/${id}`),
        await api.patch(`${account.path}/pipeline_cards/${id}`, { title: 'Stolen' }),
        await api.delete(`${account.path}/pipeline_cards/${id}`),
        await api.post(`${account.path}/pipeline_cards/${id}/move_to_stage`, { pipeline_stage: pipeline.stages[1].id }),
        await api.patch(`${account.path}/pipeline_cards/${id}/update_qualification_checklist`, {
          qualification_checklist: {},
        }),
        await api.post(`${account.path}/pipeline_cards/${id}/recalculate_score`),
        await api.post(`${c}/deal_status/mark_won`, {}),
        await api.post(`${c}/deal_status/mark_lost`, {}),
        await api.post(`${c}/deal_status/reopen`),
        await api.get(`${c}/timeline`),
        await api.post(`${c}/notes`, { content: 'x' }),
        await api.patch(`${c}/assign`, { owner_id: null }),
        await api.post(`${c}/restore`),
        await api.delete(`${c}/permanently_delete`),
        await api.get(`${c}/attachments`),
        await api.delete(`${c}/attachments/1`),
        await api.post(`${account.path}/pipeline_cards/reorder`, { card_ids: [id] }),
        await api.post(`${account.path}/pipeline/cards/bulk_assign`, { card_ids: [id], owner_id: null }),
      ]) {
        expect(res.status, res.text).toBe(404);
        expect(res.body).toMatchObject({ code: 'not_found', error: expect.any(String) });
      }
    }
    expect(await pipelineState(t)).toEqual(before);
  });
});

describe('stage counts', () => {
  it('equal the cards after everything above', async () => {
    const { kept, counted } = await stageCounts(t);
    expect(kept).toEqual(counted);
  });
});
