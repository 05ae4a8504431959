import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, testDialect, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { sqlitePath } from '../../../core/db/database.js';
import { client } from '../../../../test/helpers/http.js';
import { newAccount, newAgent, type TestAccount } from '../../../../test/helpers/factories.js';
import { cardEvents, newCard, newPipeline, pipelineState, stageCounts } from '../../../../test/helpers/pipelines.js';

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

describe('move_to_stage', () => {
  it('moves a card to the end of a stage, with a stage_change entry, a new stage_version and an event', async () => {
    const pipeline = await newPipeline(t, account);
    const [lead, qualified] = pipeline.stages;
    const already = await newCard(t, account, pipeline, { title: 'Already there', pipeline_stage: qualified.id });
    const card = await newCard(t, account, pipeline, { title: 'Mover' });
    const agent = await newAgent(t, account, 'Mover Agent');
    const api = client(t.app, agent.token);
    const res = await api.post(`${account.path}/pipeline_cards/${card.id}/move_to_stage`, {
      pipeline_stage: qualified.id,
      expected_version: 1,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      id: card.id,
      stage: { id: qualified.id, name: 'Qualified' },
      stage_version: 2,
      position: already.position + 1,
    });
    // The new stage_version at the top too (NooviChat's MCP guards its next move with it).
    expect(res.body.stage_version).toBe(2);
    const [entry] = (await api.get(`${account.path}/pipeline/cards/${card.id}/timeline`)).body.data;
    expect(entry).toMatchObject({
      type: 'stage_change',
      from_stage: { id: lead.id, name: 'Lead' },
      to_stage: { id: qualified.id, name: 'Qualified' },
      performed_by: { id: agent.id, name: 'Mover Agent', type: 'user' },
    });
    const moved = (await cardEvents(t, account.id)).filter((e) => e.name === 'pipeline_card_moved');
    expect(moved.at(-1)).toMatchObject({
      refs: { cardId: card.id, fromStageId: lead.id, toStageId: qualified.id, stageVersion: 2, reason: 'move' },
      payload: {
        event: 'pipeline_card_moved',
        id: card.id,
        from_stage: { id: lead.id, name: 'Lead' },
        to_stage: { id: qualified.id, name: 'Qualified' },
        stage: { id: qualified.id, name: 'Qualified' },
      },
    });

    // The same stage again is a no-op: nothing written, the version unchanged.
    const before = await pipelineState(t);
    const same = await api.post(`${account.path}/pipeline_cards/${card.id}/move_to_stage`, {
      pipeline_stage: qualified.id,
    });
    expect(same.status).toBe(200);
    expect(same.body.data.stage_version).toBe(2);
    expect(await pipelineState(t)).toEqual(before);
  });

  it('answers 409 to a stale expected_version and leaves the card where the other move put it', async () => {
    const pipeline = await newPipeline(t, account);
    const [, qualified, proposal] = pipeline.stages;
    const card = await newCard(t, account, pipeline);
    const api = client(t.app, account.admin.token);
    const url = `${account.path}/pipeline_cards/${card.id}/move_to_stage`;
    expect((await api.post(url, { pipeline_stage: qualified.id, expected_version: 1 })).status).toBe(200);
    const before = await pipelineState(t);
    const stale = await api.post(url, { pipeline_stage: proposal.id, expected_version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      code: 'stale_version',
      error: expect.any(String),
      details: [{ field: 'expected_version', message: expect.stringContaining('2') }],
    });
    expect(await pipelineState(t)).toEqual(before);
    expect((await api.post(url, { pipeline_stage: proposal.id, expected_version: 2 })).body.data.stage_version).toBe(3);
  });

  it('lets exactly one of two concurrent moves with the same expected_version win', async () => {
    const pipeline = await newPipeline(t, account);
    const [, qualified, proposal] = pipeline.stages;
    for (let round = 0; round < 5; round++) {
      const card = await newCard(t, account, pipeline);
      const url = `${account.path}/pipeline_cards/${card.id}/move_to_stage`;
      const agent = client(t.app, account.admin.token);
      const answers = await Promise.all([
        agent.post(url, { pipeline_stage: qualified.id, expected_version: 1 }),
        agent.post(url, { pipeline_stage: proposal.id, expected_version: 1 }),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const winner = answers.find((a) => a.status === 200)!.body.data;
      const shown = (await agent.get(`${account.path}/pipeline_cards/${card.id}`)).body.data;
      expect(shown).toMatchObject({ stage: winner.stage, stage_version: 2 });
      const stageChanges = shown.timeline.filter((e: { type: string }) => e.type === 'stage_change');
      expect(stageChanges).toHaveLength(1);
    }
  });

  it.skipIf(testDialect !== 'sqlite')(
    "answers the loser's 409 only once the winning move is on disk (group commit)",
    async () => {
      // Both moves run in one batch: the loser reads stage_version 2 before the batch commits, and
      // its 409 names that version. Decision 0007: nothing leaving the process shows uncommitted data.
      const disk = new SqliteDatabase(sqlitePath(t.database.url), { readonly: true });
      const onDisk = (id: number) =>
        (disk.prepare('select stage_version from pipeline_cards where id = ?').get(id) as { stage_version: number })
          .stage_version;
      const pipeline = await newPipeline(t, account);
      const [, qualified, proposal] = pipeline.stages;
      const order: string[] = [];
      const stop = t.database.observeCommits!(({ members }) => order.push(`commit of ${members}`));
      try {
        for (let round = 0; round < 5; round++) {
          const card = await newCard(t, account, pipeline);
          const url = `${account.path}/pipeline_cards/${card.id}/move_to_stage`;
          const agent = client(t.app, account.admin.token);
          order.length = 0;
          const answered = (res: { status: number; body: any }) => {
            order.push(String(res.status));
            if (res.status === 409) expect(onDisk(card.id)).toBe(2);
            return res;
          };
          const answers = await Promise.all([
            agent.post(url, { pipeline_stage: qualified.id, expected_version: 1 }).then(answered),
            agent.post(url, { pipeline_stage: proposal.id, expected_version: 1 }).then(answered),
          ]);
          expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
          expect(answers.find((a) => a.status === 409)!.body.details[0].message).toContain('2');
          // Each answer follows a commit; the 409 never comes first.
          expect(order[0]).toMatch(/^commit/);
        }
      } finally {
        stop();
        disk.close();
      }
    },
  );

  it('moves to a stage of another pipeline of the account (the card changes pipeline)', async () => {
    const from = await newPipeline(t, account, ['A', 'B']);
    const to = await newPipeline(t, account, ['Onboarding'], 'Customer success');
    const card = await newCard(t, account, from);
    const res = await client(t.app, account.admin.token).post(
      `${account.path}/pipeline_cards/${card.id}/move_to_stage`,
      { pipeline_stage: to.stages[0].id },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      pipeline: { id: to.id, name: 'Customer success' },
      stage: { id: to.stages[0].id },
    });
  });

  it("refuses a stage that is not the account's (422) and a card that is not (404), changing nothing", async () => {
    const pipeline = await newPipeline(t, account);
    const theirs = await newPipeline(t, other);
    const card = await newCard(t, account, pipeline);
    const theirCard = await newCard(t, other, theirs);
    const api = client(t.app, account.admin.token);
    const before = await pipelineState(t);
    for (const body of [
      { pipeline_stage: theirs.stages[1].id },
      { pipeline_stage: `${pipeline.id}_nothing` },
      { pipeline_stage: '' },
      {},
      { pipeline_stage: pipeline.stages[1].id, expected_version: 0 },
      { pipeline_stage: pipeline.stages[1].id, expected_version: 'one' },
    ]) {
      const res = await api.post(`${account.path}/pipeline_cards/${card.id}/move_to_stage`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    }
    const foreign = await api.post(`${account.path}/pipeline_cards/${theirCard.id}/move_to_stage`, {
      pipeline_stage: pipeline.stages[1].id,
    });
    expect(foreign.status).toBe(404);
    expect(await pipelineState(t)).toEqual(before);
  });
});

describe('reorder', () => {
  it("sets the order of a stage's open cards; won and lost cards follow; moved cards record an event", async () => {
    const pipeline = await newPipeline(t, account);
    const stage = pipeline.stages[0].id;
    const cards = [];
    for (const title of ['A', 'B', 'C', 'Won']) cards.push(await newCard(t, account, pipeline, { title }));
    const api = client(t.app, account.admin.token);
    await api.post(`${account.path}/pipeline/cards/${cards[3].id}/deal_status/mark_won`, {});
    const eventsBefore = (await cardEvents(t, account.id)).length;
    const res = await api.post(`${account.path}/pipeline_cards/reorder`, {
      card_ids: [cards[2].id, cards[0].id, cards[1].id],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.map((x: { title: string; position: number }) => [x.title, x.position])).toEqual([
      ['C', 0],
      ['A', 1],
      ['B', 2],
      ['Won', 3],
    ]);
    const list = await api.get(`${account.path}/pipeline_cards?stage_id=${stage}`);
    expect(list.body.data.map((x: { title: string }) => x.title)).toEqual(['C', 'A', 'B', 'Won']);
    const events = (await cardEvents(t, account.id)).slice(eventsBefore);
    expect(events.every((e) => e.name === 'pipeline_card_updated' && e.refs.changed[0] === 'position')).toBe(true);
    // C, A and B changed places; the won card kept its position, so it records nothing.
    expect(events.map((e) => e.refs.cardId).sort()).toEqual([cards[0].id, cards[1].id, cards[2].id].sort());
  });

  it('is all or nothing: other stages, missing, repeated or closed cards are 422; unknown ids 404', async () => {
    const pipeline = await newPipeline(t, account);
    const [lead, qualified] = pipeline.stages;
    const a = await newCard(t, account, pipeline, { title: 'A' });
    const b = await newCard(t, account, pipeline, { title: 'B' });
    const q = await newCard(t, account, pipeline, { title: 'Q', pipeline_stage: qualified.id });
    const lost = await newCard(t, account, pipeline, { title: 'Lost' });
    const theirs = await newCard(t, other, await newPipeline(t, other));
    const api = client(t.app, account.admin.token);
    await api.post(`${account.path}/pipeline/cards/${lost.id}/deal_status/mark_lost`, {});
    const before = await pipelineState(t);
    for (const [status, ids] of [
      [422, [b.id, a.id, q.id]],
      [422, [b.id]],
      [422, [b.id, a.id, a.id]],
      [422, [b.id, a.id, lost.id]],
      [422, []],
      [404, [b.id, a.id, theirs.id]],
      [404, [b.id, a.id, 99999999]],
    ] as const) {
      const res = await api.post(`${account.path}/pipeline_cards/reorder`, { card_ids: ids });
      expect(res.status, JSON.stringify(ids)).toBe(status);
      expect(res.body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    }
    expect(await pipelineState(t)).toEqual(before);
    const list = await api.get(`${account.path}/pipeline_cards?stage_id=${lead.id}`);
    expect(list.body.data.map((x: { title: string }) => x.title)).toEqual(['A', 'B', 'Lost']);
  });
});

describe('stage counts', () => {
  it('equal the cards after everything above', async () => {
    const { kept, counted } = await stageCounts(t);
    expect(kept).toEqual(counted);
  });
});
