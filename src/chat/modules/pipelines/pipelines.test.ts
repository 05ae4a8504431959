import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { call, client } from '../../../../test/helpers/http.js';
import { newAccount, newAgent, type TestAccount } from '../../../../test/helpers/factories.js';
import { cardEvents, newCard, newPipeline, pipelineState, stageCounts } from '../../../../test/helpers/pipelines.js';

let t: ChatTestApp;
let account: TestAccount;
beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
});
afterAll(async () => {
  await t.close();
});

const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

describe('pipelines: create, read, list', () => {
  it('creates a pipeline from a stages hash: ids {pipeline_id}_{slug}, positions from 1 in, from 0 out', async () => {
    const api = client(t.app, account.admin.token);
    const res = await api.post(`${account.path}/pipelines`, {
      pipeline: {
        name: '  Vendas B2B ',
        description: 'Inbound',
        stages: {
          tmp_c: { name: 'Proposta', position: 3, color: '#AA00cc' },
          tmp_a: { name: 'Lead', position: 1 },
          tmp_b: { name: 'Qualificação', position: 2, color: '#0f0' },
          tmp_d: { name: 'Fechamento' },
        },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.data.id;
    expect(res.body).toEqual({
      data: {
        id: expect.any(Number),
        name: 'Vendas B2B',
        description: 'Inbound',
        stages: [
          { id: `${id}_lead`, name: 'Lead', color: null, position: 0, cards_count: 0, total_value: 0 },
          {
            id: `${id}_qualificacao`,
            name: 'Qualificação',
            color: '#0f0',
            position: 1,
            cards_count: 0,
            total_value: 0,
          },
          { id: `${id}_proposta`, name: 'Proposta', color: '#AA00cc', position: 2, cards_count: 0, total_value: 0 },
          { id: `${id}_fechamento`, name: 'Fechamento', color: null, position: 3, cards_count: 0, total_value: 0 },
        ],
        cards_count: 0,
        total_value: 0,
        created_at: iso,
        updated_at: iso,
      },
    });

    expect((await api.get(`${account.path}/pipelines/${id}`)).body).toEqual(res.body);
    const stages = await api.get(`${account.path}/pipelines/${id}/stages`);
    expect(stages.status).toBe(200);
    expect(stages.body).toEqual({ data: res.body.data.stages, meta: { total: 4 } });
    const list = await api.get(`${account.path}/pipelines`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((p: { id: number }) => p.id)).toContain(id);
    expect(list.body.meta.total).toBe(list.body.data.length);
  });

  it('makes slugs lower-case without accents, with runs of other characters as _, and _2, _3 on collision', async () => {
    const pipeline = await newPipeline(t, account, [
      'Negociação Avançada',
      '  Proposta -- Enviada!! ',
      'Lead',
      'lead',
      'LEAD',
      'Straße & Größe',
      '!!!',
      '日本',
      'Lead 2',
    ]);
    const p = pipeline.id;
    expect(pipeline.stages.map((s) => s.id)).toEqual([
      `${p}_negociacao_avancada`,
      `${p}_proposta_enviada`,
      `${p}_lead`,
      `${p}_lead_2`,
      `${p}_lead_3`,
      `${p}_strasse_grosse`,
      `${p}_stage`,
      `${p}_stage_2`,
      // "Lead 2" slugs to lead_2, taken by the second "lead": the next free suffix of it.
      `${p}_lead_2_2`,
    ]);
    expect(pipeline.stages.map((s) => s.name)).toEqual([
      'Negociação Avançada',
      'Proposta -- Enviada!!',
      'Lead',
      'lead',
      'LEAD',
      'Straße & Größe',
      '!!!',
      '日本',
      'Lead 2',
    ]);
  });

  it('answers 422 when stages is missing, empty or an array (or otherwise invalid), creating nothing', async () => {
    const api = client(t.app, account.admin.token);
    const before = await pipelineState(t);
    for (const body of [
      { name: 'No stages' },
      { name: 'Empty', stages: {} },
      { name: 'Array', stages: [{ name: 'Lead' }] },
      { name: 'Array of strings', stages: ['Lead'] },
      { name: 'Null', stages: null },
      { name: 'Blank stage', stages: { a: { name: '   ' } } },
      { name: 'Nameless stage', stages: { a: { color: '#fff' } } },
      { name: 'Bad colour', stages: { a: { name: 'Lead', color: 'red' } } },
      { name: 'Position 0', stages: { a: { name: 'Lead', position: 0 } } },
      { name: '   ', stages: { a: { name: 'Lead' } } },
      { stages: { a: { name: 'Lead' } } },
      { name: 'Too many', stages: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`s${i}`, { name: 'S' }])) },
    ]) {
      const res = await api.post(`${account.path}/pipelines`, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
      expect(res.body.details.length).toBeGreaterThan(0);
    }
    expect(await pipelineState(t)).toEqual(before);
  });
});

describe('pipelines: update and delete', () => {
  it('renames and replaces stages: existing ids keep their stage and cards, new keys add stages', async () => {
    const pipeline = await newPipeline(t, account, ['Lead', 'Qualified', 'Proposal']);
    const [lead, qualified, proposal] = pipeline.stages;
    const card = await newCard(t, account, pipeline, { pipeline_stage: qualified.id, value: 10 });
    const api = client(t.app, account.admin.token);
    const res = await api.patch(`${account.path}/pipelines/${pipeline.id}`, {
      name: 'Renamed',
      description: null,
      stages: {
        [proposal.id]: { name: 'Proposal sent', position: 1, color: '#123456' },
        [qualified.id]: { name: 'Qualified', position: 2 },
        [lead.id]: { name: 'Lead', position: 3 },
        new_1: { name: 'Won back', position: 4 },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Renamed', description: null, cards_count: 1, total_value: 10 });
    expect(res.body.data.stages).toEqual([
      { id: proposal.id, name: 'Proposal sent', color: '#123456', position: 0, cards_count: 0, total_value: 0 },
      { id: qualified.id, name: 'Qualified', color: null, position: 1, cards_count: 1, total_value: 10 },
      { id: lead.id, name: 'Lead', color: null, position: 2, cards_count: 0, total_value: 0 },
      { id: `${pipeline.id}_won_back`, name: 'Won back', color: null, position: 3, cards_count: 0, total_value: 0 },
    ]);
    const shown = await api.get(`${account.path}/pipeline_cards/${card.id}`);
    expect(shown.body.data.stage).toEqual({ id: qualified.id, name: 'Qualified' });
  });

  it('moves the cards of a removed stage to the first remaining stage, with a stage_change entry and an event', async () => {
    const pipeline = await newPipeline(t, account, ['Lead', 'Qualified', 'Proposal']);
    const [lead, qualified, proposal] = pipeline.stages;
    const stay = await newCard(t, account, pipeline, { title: 'Stays', pipeline_stage: lead.id });
    const a = await newCard(t, account, pipeline, { title: 'A', pipeline_stage: proposal.id, value: 1.5 });
    const b = await newCard(t, account, pipeline, { title: 'B', pipeline_stage: proposal.id, value: 2.25 });
    const gone = await newCard(t, account, pipeline, { title: 'Discarded', pipeline_stage: qualified.id });
    const api = client(t.app, account.admin.token);
    expect((await api.delete(`${account.path}/pipeline_cards/${gone.id}`)).status).toBe(200);
    const res = await api.patch(`${account.path}/pipelines/${pipeline.id}`, {
      stages: { [lead.id]: { name: 'Lead' }, fresh: { name: 'Proposal' } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // A new stage named like a removed one never takes the removed one's id.
    expect(res.body.data.stages.map((s: { id: string }) => s.id)).toEqual([lead.id, `${pipeline.id}_proposal_2`]);
    expect(res.body.data.stages[0]).toMatchObject({ cards_count: 3, total_value: 3.75 });

    const list = await api.get(`${account.path}/pipeline_cards?pipeline_id=${pipeline.id}`);
    expect(list.body.data.map((c: { title: string }) => c.title)).toEqual(['Stays', 'A', 'B']);
    expect(list.body.data.map((c: { stage: { id: string } }) => c.stage.id)).toEqual([lead.id, lead.id, lead.id]);
    expect(list.body.data[1].stage_version).toBe(2);

    const timeline = await api.get(`${account.path}/pipeline/cards/${a.id}/timeline`);
    expect(timeline.body.data[0]).toMatchObject({
      type: 'stage_change',
      from_stage: { id: proposal.id, name: 'Proposal' },
      to_stage: { id: lead.id, name: 'Lead' },
      data: { from_stage: { id: proposal.id, name: 'Proposal' }, to_stage: { id: lead.id, name: 'Lead' } },
      performed_by: { id: account.admin.id, name: 'Admin', type: 'user' },
    });
    // The discarded card moved too (its stage is gone), and comes back in the first stage.
    const restored = await api.post(`${account.path}/pipeline/cards/${gone.id}/restore`);
    expect(restored.body.data.stage.id).toBe(lead.id);
    const moved = (await cardEvents(t, account.id)).filter(
      (e) => e.name === 'pipeline_card_moved' && [a.id, b.id, stay.id, gone.id].includes(e.refs.cardId),
    );
    expect(moved.map((e) => e.refs.cardId)).toEqual([a.id, b.id]);
    expect(moved[0].refs).toMatchObject({ fromStageId: proposal.id, toStageId: lead.id, reason: 'stage_removed' });
  });

  it('answers 422 to bad updates and changes nothing', async () => {
    const pipeline = await newPipeline(t, account);
    const api = client(t.app, account.admin.token);
    const before = await pipelineState(t);
    for (const body of [{ stages: {} }, { stages: [] }, { stages: { a: { name: '' } } }, { name: '  ' }, { name: 5 }]) {
      const res = await api.patch(`${account.path}/pipelines/${pipeline.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect(await pipelineState(t)).toEqual(before);
  });

  it('deletes a pipeline with its stages, cards and timelines', async () => {
    const pipeline = await newPipeline(t, account);
    const card = await newCard(t, account, pipeline);
    const api = client(t.app, account.admin.token);
    const res = await api.delete(`${account.path}/pipelines/${pipeline.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id: pipeline.id, deleted: true } });
    expect((await api.get(`${account.path}/pipelines/${pipeline.id}`)).status).toBe(404);
    expect((await api.get(`${account.path}/pipeline_cards/${card.id}`)).status).toBe(404);
    const left = await t.db.selectFrom('pipeline_card_timeline').select('id').where('card_id', '=', card.id).execute();
    expect(left).toEqual([]);
    expect(
      await t.db.selectFrom('pipeline_stages').select('id').where('pipeline_id', '=', pipeline.id).execute(),
    ).toEqual([]);
  });
});

describe('pipelines: access', () => {
  it('agents read pipelines and stages; only administrators write (403); no token is 401', async () => {
    const agent = await newAgent(t, account);
    const pipeline = await newPipeline(t, account);
    const api = client(t.app, agent.token);
    expect((await api.get(`${account.path}/pipelines`)).status).toBe(200);
    expect((await api.get(`${account.path}/pipelines/${pipeline.id}`)).status).toBe(200);
    expect((await api.get(`${account.path}/pipelines/${pipeline.id}/stages`)).status).toBe(200);
    const before = await pipelineState(t);
    for (const res of [
      await api.post(`${account.path}/pipelines`, { name: 'Mine', stages: { a: { name: 'Lead' } } }),
      await api.patch(`${account.path}/pipelines/${pipeline.id}`, { name: 'Mine' }),
      await api.delete(`${account.path}/pipelines/${pipeline.id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ code: 'forbidden', error: expect.any(String) });
    }
    for (const url of [`${account.path}/pipelines`, `${account.path}/pipelines/${pipeline.id}/stages`]) {
      expect((await call(t.app, { url })).status).toBe(401);
    }
    expect(await pipelineState(t)).toEqual(before);
  });

  it("answers 404 for another account's pipeline or an unknown id, on every route, changing nothing", async () => {
    const other = await newAccount(t, 'Other');
    const theirs = await newPipeline(t, other);
    const api = client(t.app, account.admin.token);
    const before = await pipelineState(t);
    for (const id of [theirs.id, 99999999]) {
      for (const res of [
        await api.get(`${account.path}/pipelines/${id}`),
        await api.get(`${account.path}/pipelines/${id}/stages`),
        await api.patch(`${account.path}/pipelines/${id}`, { name: 'Stolen' }),
        await api.delete(`${account.path}/pipelines/${id}`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ code: 'not_found', error: expect.any(String) });
      }
    }
    // Not a member of the account at all: 404 too.
    expect((await client(t.app, other.admin.token).get(`${account.path}/pipelines`)).status).toBe(404);
    expect(await pipelineState(t)).toEqual(before);
    expect((await api.get(`${account.path}/pipelines`)).body.data.map((p: { id: number }) => p.id)).not.toContain(
      theirs.id,
    );
  });
});

describe('stage counts', () => {
  it('equal the cards after everything above', async () => {
    const { kept, counted } = await stageCounts(t);
    expect(kept).toEqual(counted);
  });
});
