import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { client } from '../../../../test/helpers/http.js';
import { newAccount, newAgent, type TestAccount } from '../../../../test/helpers/factories.js';
import {
  newCard,
  newPipeline,
  pipelineState,
  postForm,
  stageCounts,
  storedFiles,
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

const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/);

function fileForm(content: string | Buffer, type: string, name: string, field = 'file') {
  const form = new FormData();
  form.append(field, new Blob([content], { type }), name);
  return form;
}

async function upload(cardId: number, form: FormData, token = account.admin.token, acc = account) {
  return postForm(t, `${acc.path}/pipeline/cards/${cardId}/attachments`, form, token);
}

describe('card attachments', () => {
  it('stores a file (part file), lists it, serves it safely at data_url, and deletes it with its file', async () => {
    const pipeline = await newPipeline(t, account);
    const card = await newCard(t, account, pipeline);
    const agent = await newAgent(t, account, 'Uploader');
    const filesBefore = storedFiles(t).length;
    const res = await upload(
      card.id,
      fileForm('%PDF-1.4 proposal', 'application/pdf', 'Proposta comercial.pdf'),
      agent.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const attachment = res.body.data;
    expect(attachment).toEqual({
      id: expect.any(Number),
      file_name: 'Proposta comercial.pdf',
      content_type: 'application/pdf',
      file_size: 17,
      data_url: expect.stringMatching(/^http:\/\/chat\.test\/attachments\/[0-9a-f]{32}\/Proposta%20comercial\.pdf$/),
      uploaded_by: { id: agent.id, name: 'Uploader' },
      created_at: iso,
    });
    expect(storedFiles(t).length).toBe(filesBefore + 1);
    const image = await upload(card.id, fileForm(png, 'image/png', 'logo.png'));
    expect(image.status).toBe(200);

    const api = client(t.app, agent.token);
    const list = await api.get(`${account.path}/pipeline/cards/${card.id}/attachments`);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([attachment, image.body.data]);
    const detail = (await api.get(`${account.path}/pipeline_cards/${card.id}`)).body.data;
    expect(detail.attachments).toEqual(list.body.data);
    expect(detail.timeline.slice(0, 2).map((e: { type: string; data: unknown }) => [e.type, e.data])).toEqual([
      ['attachment_added', { attachment_id: image.body.data.id, file_name: 'logo.png' }],
      ['attachment_added', { attachment_id: attachment.id, file_name: 'Proposta comercial.pdf' }],
    ]);

    // Served by the attachment file route, with the same safe headers as message attachments.
    const pdf = await t.app.inject({ method: 'GET', url: new URL(attachment.data_url).pathname });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.body).toBe('%PDF-1.4 proposal');
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(String(pdf.headers['content-disposition'])).toMatch(/^attachment;/);
    expect(pdf.headers['x-content-type-options']).toBe('nosniff');
    expect(String(pdf.headers['content-security-policy'])).toContain('sandbox');
    const logo = await t.app.inject({ method: 'GET', url: new URL(image.body.data.data_url).pathname });
    expect(String(logo.headers['content-disposition'])).toMatch(/^inline;/);

    const removed = await api.delete(`${account.path}/pipeline/cards/${card.id}/attachments/${attachment.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ data: { id: attachment.id, deleted: true } });
    expect(storedFiles(t).length).toBe(filesBefore + 1);
    expect((await t.app.inject({ method: 'GET', url: new URL(attachment.data_url).pathname })).statusCode).toBe(404);
    const [entry] = (await api.get(`${account.path}/pipeline/cards/${card.id}/timeline`)).body.data;
    expect(entry).toMatchObject({ type: 'attachment_removed', data: { attachment_id: attachment.id } });
  });

  it('refuses a missing file, another part name, an unsupported type, two files and JSON, keeping nothing', async () => {
    const pipeline = await newPipeline(t, account);
    const card = await newCard(t, account, pipeline);
    const before = await pipelineState(t);
    const files = storedFiles(t).length;
    const noFile = new FormData();
    noFile.append('note', 'no file here');
    const two = fileForm('a', 'text/plain', 'a.txt');
    two.append('file', new Blob(['b'], { type: 'text/plain' }), 'b.txt');
    for (const [status, form] of [
      [422, noFile],
      [422, fileForm('x', 'text/plain', 'x.txt', 'document')],
      [422, fileForm('MZ', 'application/x-msdownload', 'setup.exe')],
      [422, fileForm('', 'text/plain', 'empty.txt')],
      [413, two],
    ] as const) {
      const res = await upload(card.id, form);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body).toMatchObject({ error: expect.any(String), code: expect.any(String) });
    }
    const json = await client(t.app, account.admin.token).post(
      `${account.path}/pipeline/cards/${card.id}/attachments`,
      {
        file: 'aGVsbG8=',
      },
    );
    expect(json.status).toBe(400);
    expect(json.body).toMatchObject({ code: 'unsupported_content_type' });
    expect(await pipelineState(t)).toEqual(before);
    expect(storedFiles(t).length).toBe(files);
  });

  it("answers 404 for another account's card or attachment, and an attachment of another card", async () => {
    const pipeline = await newPipeline(t, account);
    const card = await newCard(t, account, pipeline);
    const sibling = await newCard(t, account, pipeline);
    const theirs = await newCard(t, other, await newPipeline(t, other));
    const theirFile = (await upload(theirs.id, fileForm('t', 'text/plain', 't.txt'), other.admin.token, other)).body
      .data;
    const mine = (await upload(card.id, fileForm('m', 'text/plain', 'm.txt'))).body.data;
    const before = await pipelineState(t);
    const files = storedFiles(t).length;
    const api = client(t.app, account.admin.token);
    const C = `${account.path}/pipeline/cards`;
    for (const res of [
      await upload(theirs.id, fileForm('x', 'text/plain', 'x.txt')),
      await upload(99999999, fileForm('x', 'text/plain', 'x.txt')),
      await api.get(`${C}/${theirs.id}/attachments`),
      await api.delete(`${C}/${theirs.id}/attachments/${theirFile.id}`),
      await api.delete(`${C}/${card.id}/attachments/${theirFile.id}`),
      await api.delete(`${C}/${sibling.id}/attachments/${mine.id}`),
      await api.delete(`${C}/${card.id}/attachments/99999999`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found', error: expect.any(String) });
    }
    expect(await pipelineState(t)).toEqual(before);
    expect(storedFiles(t).length).toBe(files);
  });
});

describe('soft delete, restore, permanent delete', () => {
  it('discards a card: hidden from lists, 404 on card routes, listed as discarded; restore brings it back', async () => {
    const pipeline = await newPipeline(t, account);
    const keep = await newCard(t, account, pipeline, { title: 'Keep' });
    const card = await newCard(t, account, pipeline, { title: 'Bin me', value: 7 });
    const agent = await newAgent(t, account);
    const api = client(t.app, agent.token);
    const res = await api.delete(`${account.path}/pipeline_cards/${card.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: card.id, deleted_at: iso });
    const list = await api.get(`${account.path}/pipeline_cards?pipeline_id=${pipeline.id}`);
    expect(list.body.data.map((c: { id: number }) => c.id)).toEqual([keep.id]);
    expect((await api.get(`${account.path}/pipelines/${pipeline.id}`)).body.data).toMatchObject({
      cards_count: 1,
      total_value: 0,
    });
    expect((await api.get(`${account.path}/pipeline_cards/${card.id}`)).status).toBe(404);
    expect((await api.post(`${account.path}/pipeline/cards/${card.id}/notes`, { content: 'x' })).status).toBe(404);
    const discarded = await api.get(`${account.path}/pipeline/cards/discarded`);
    expect(discarded.status).toBe(200);
    expect(discarded.body.data[0]).toMatchObject({ id: card.id, title: 'Bin me', deleted_at: iso });
    expect(discarded.body.meta).toMatchObject({ page: 1, per_page: 25 });

    // Meanwhile another card took the end of the stage: the restored one goes after it.
    await api.post(`${account.path}/pipeline_cards/${keep.id}/move_to_stage`, {
      pipeline_stage: pipeline.stages[1].id,
    });
    const later = await newCard(t, account, pipeline, { title: 'Later' });
    const restored = await api.post(`${account.path}/pipeline/cards/${card.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.data).toMatchObject({ id: card.id, deleted_at: null, position: later.position + 1 });
    expect(
      (await api.get(`${account.path}/pipeline/cards/discarded`)).body.data.map((c: { id: number }) => c.id),
    ).not.toContain(card.id);
    const again = await api.post(`${account.path}/pipeline/cards/${card.id}/restore`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'invalid_transition' });
  });

  it('permanently deletes a card (administrators only) with its timeline, attachments and files', async () => {
    const pipeline = await newPipeline(t, account);
    const card = await newCard(t, account, pipeline);
    const agent = await newAgent(t, account);
    const before = storedFiles(t).length;
    expect((await upload(card.id, fileForm('1', 'text/plain', 'one.txt'))).status).toBe(200);
    expect((await upload(card.id, fileForm(png, 'image/png', 'two.png'))).status).toBe(200);
    expect(storedFiles(t).length).toBe(before + 2);
    const url = `${account.path}/pipeline/cards/${card.id}/permanently_delete`;
    const refused = await client(t.app, agent.token).delete(url);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'forbidden' });
    const api = client(t.app, account.admin.token);
    expect((await api.delete(`${account.path}/pipeline_cards/${card.id}`)).status).toBe(200);
    const res = await api.delete(url);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id: card.id, deleted: true } });
    expect(storedFiles(t).length).toBe(before);
    for (const table of ['pipeline_cards', 'pipeline_card_attachments'] as const) {
      const column = table === 'pipeline_cards' ? 'id' : 'card_id';
      expect(await t.db.selectFrom(table).select('id').where(column, '=', card.id).execute()).toEqual([]);
    }
    expect(
      await t.db.selectFrom('pipeline_card_timeline').select('id').where('card_id', '=', card.id).execute(),
    ).toEqual([]);
    expect((await api.post(`${account.path}/pipeline/cards/${card.id}/restore`)).status).toBe(404);
    expect((await api.delete(url)).status).toBe(404);
  });

  it('removes card files with their pipeline, and with their account', async () => {
    const acc = await newAccount(t, 'Doomed');
    const pipeline = await newPipeline(t, acc);
    const card = await newCard(t, acc, pipeline);
    const before = storedFiles(t).length;
    expect((await upload(card.id, fileForm('1', 'text/plain', 'one.txt'), acc.admin.token, acc)).status).toBe(200);
    expect(storedFiles(t).length).toBe(before + 1);
    const api = client(t.app, acc.admin.token);
    expect((await api.delete(`${acc.path}/pipelines/${pipeline.id}`)).status).toBe(200);
    expect(storedFiles(t).length).toBe(before);

    const second = await newPipeline(t, acc);
    const card2 = await newCard(t, acc, second);
    expect((await upload(card2.id, fileForm('2', 'text/plain', 'two.txt'), acc.admin.token, acc)).status).toBe(200);
    expect(storedFiles(t).length).toBe(before + 1);
    const deleted = await client(t.app, t.platformToken).delete(`/platform/api/v1/accounts/${acc.id}`);
    expect(deleted.status).toBe(200);
    expect(storedFiles(t).length).toBe(before);
    expect(await t.db.selectFrom('pipeline_cards').select('id').where('account_id', '=', acc.id).execute()).toEqual([]);
  });
});

describe('stage counts', () => {
  it('equal the cards after everything above', async () => {
    const { kept, counted } = await stageCounts(t);
    expect(kept).toEqual(counted);
  });
});
