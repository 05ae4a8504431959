import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newAccount,
  newAgent,
  newContact,
  type TestAccount,
  type TestUser,
} from '../../../../test/helpers/factories.js';
import { call, client } from '../../../../test/helpers/http.js';
import {
  cardEvents,
  newCard,
  newPipeline,
  postForm,
  rowsOf,
  storedFiles,
  type TestPipeline,
} from '../../../../test/helpers/pipelines.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { MAX_IMPORT_ROWS } from './card-csv.service.js';

/** Cards as CSV: export with the list's filters, the import template, and all-or-nothing imports. */
let t: ChatTestApp;
let account: TestAccount;
let other: TestAccount;
let ana: TestUser;
let pipeline: TestPipeline;
let theirPipeline: TestPipeline;
let maria: number;
let joao: number;

beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t, 'Csv');
  other = await newAccount(t, 'Other');
  ana = await newAgent(t, account, 'Ana Souza');
  pipeline = await newPipeline(t, account, ['Lead', 'Proposta'], 'Vendas');
  theirPipeline = await newPipeline(t, other);
  maria = (await newContact(t, account, { name: 'Maria', email: 'maria@example.test', phone_number: '+5511988887777' }))
    .contact.id;
  joao = (await newContact(t, account, { name: 'João', email: 'joao@example.test' })).contact.id;
});
afterAll(async () => {
  await t.close();
});

const api = () => client(t.app, account.admin.token);
const BOM = '\uFEFF';
const csvOf = (text: string) => parse(text, { bom: true, columns: true }) as Record<string, string>[];
const upload = (text: string, a: TestAccount = account, name = 'cards.csv') => {
  const form = new FormData();
  form.append('file', new Blob([text], { type: 'text/csv' }), name);
  return postForm(t, `${a.path}/pipeline/cards/import`, form, a.admin.token);
};
const state = async () => ({
  cards: await rowsOf(t, 'pipeline_cards'),
  timeline: await rowsOf(t, 'pipeline_card_timeline'),
  events: (await cardEvents(t, account.id)).length,
});

describe('GET {A}/pipeline/cards/template', () => {
  it('is the header an import reads, as UTF-8 CSV with a BOM', async () => {
    const res = await t.app.inject({
      url: `${account.path}/pipeline/cards/template`,
      headers: { api_access_token: ana.token },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="pipeline-cards-template.csv"');
    expect(res.body).toBe(
      `${BOM}title,value,currency,stage,owner_email,contact_id,contact_email,contact_phone,expected_close_date\r\n`,
    );
  });
});

describe('GET {A}/pipeline/cards/export', () => {
  it("exports the list's cards (every page, its filters) formula-safe, with accents and custom attributes", async () => {
    const fresh = await newPipeline(t, account, ['A', 'B'], 'Export');
    await newCard(t, account, fresh, {
      title: 'Café com açúcar',
      value: '1234.56',
      owner_id: ana.id,
      contact_id: maria,
      expected_close_date: '2031-09-30',
      custom_attributes: { origem: 'site', prioridade: 2 },
    });
    await newCard(t, account, fresh, { title: '=HYPERLINK("http://evil.test")', pipeline_stage: fresh.stages[1].id });
    const gone = await newCard(t, account, fresh, { title: 'Discarded' });
    await api().delete(`${account.path}/pipeline_cards/${gone.id}`);
    const res = await t.app.inject({
      url: `${account.path}/pipeline/cards/export?pipeline_id=${fresh.id}`,
      headers: { api_access_token: account.admin.token },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.body.startsWith(BOM)).toBe(true);
    expect(res.body).toContain(`"'=HYPERLINK(""http://evil.test"")"`);
    const rows = csvOf(res.body);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual({
      id: expect.stringMatching(/^\d+$/),
      title: 'Café com açúcar',
      value: '1234.56',
      currency: 'BRL',
      stage: fresh.stages[0].id,
      stage_name: 'A',
      pipeline_id: String(fresh.id),
      pipeline: 'Export',
      status: 'open',
      owner_email: ana.email,
      owner_name: 'Ana Souza',
      contact_id: String(maria),
      contact_name: 'Maria',
      contact_email: 'maria@example.test',
      contact_phone: "'+5511988887777", // a leading + is a formula to a spreadsheet: guarded
      expected_close_date: '2031-09-30',
      lead_score: '0',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      'custom_attributes.origem': 'site',
      'custom_attributes.prioridade': '2',
    });
    expect(rows[1]).toMatchObject({ title: `'=HYPERLINK("http://evil.test")`, stage_name: 'B', owner_email: '' });
    // The list's filters apply; pages do not (every matching card is exported).
    const stageOnly = await api().get(`${account.path}/pipeline/cards/export?stage_id=${fresh.stages[1].id}`);
    expect(csvOf(stageOnly.text).map((r) => r.stage_name)).toEqual(['B']);
    // Another account's cards are not there, and another account's path is a 404.
    expect(res.body).not.toContain(String(theirPipeline.id) + '_');
    expect((await client(t.app, other.admin.token).get(`${account.path}/pipeline/cards/export`)).status).toBe(404);
  });
});

describe('POST {A}/pipeline/cards/import', () => {
  it('creates every row, in one transaction, with the same create as the API', async () => {
    const before = (await rowsOf(t, 'pipeline_cards')).length;
    const text = [
      'Title,Value,Currency,Stage,Owner_Email,Contact_ID,Contact_Email,Contact_Phone,Expected_Close_Date,custom_attributes.origem',
      `Site novo,1500.50,,${pipeline.stages[0].id},${ana.email.toUpperCase()},${maria},,,2031-09-15T23:30:00-03:00,feira`,
      `"Consultoria, fase 2",80,USD,${pipeline.stages[1].id},,,JOAO@example.test,,2031-10-01,`,
      '',
      `App,,,${pipeline.stages[0].id},,,,5511988887777,,`,
    ].join('\r\n');
    const res = await upload(BOM + text);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.imported).toBe(3);
    const cards = await Promise.all(
      res.body.data.card_ids.map(
        async (id: number) => (await api().get(`${account.path}/pipeline_cards/${id}`)).body.data,
      ),
    );
    expect(
      cards.map((c) => [c.title, c.value, c.currency, c.stage.id, c.owner?.id ?? null, c.contact?.id ?? null]),
    ).toEqual([
      ['Site novo', 1500.5, 'BRL', pipeline.stages[0].id, ana.id, maria],
      ['Consultoria, fase 2', 80, 'USD', pipeline.stages[1].id, null, joao],
      ['App', 0, 'BRL', pipeline.stages[0].id, null, maria],
    ]);
    expect(cards[0]).toMatchObject({ expected_close_date: '2031-09-16', custom_attributes: { origem: 'feira' } });
    expect(cards[0].timeline.map((e: { type: string }) => e.type)).toEqual(['created']);
    expect((await rowsOf(t, 'pipeline_cards')).length).toBe(before + 3);
    expect(storedFiles(t)).toEqual([]); // the upload is not kept
  });

  it('imports an export again (the formula guard taken off)', async () => {
    const fresh = await newPipeline(t, account, ['Only'], 'Round trip');
    await newCard(t, account, fresh, { title: '=1+1', value: 10, contact_id: joao });
    const exported = (await api().get(`${account.path}/pipeline/cards/export?pipeline_id=${fresh.id}`)).text;
    const res = await upload(exported);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const list = await api().get(`${account.path}/pipeline_cards?pipeline_id=${fresh.id}`);
    expect(list.body.data.map((c: { title: string; value: number }) => [c.title, c.value])).toEqual([
      ['=1+1', 10],
      ['=1+1', 10],
    ]);
  });

  it('refuses every bad row at once, by row number and column, and creates nothing', async () => {
    const before = await state();
    const text = [
      'title,value,currency,stage,owner_email,contact_id,contact_email,contact_phone,expected_close_date',
      `Good,10,,${pipeline.stages[0].id},,,,,`,
      `,10,,${pipeline.stages[0].id},,,,,`,
      `Bad value,"12,50",,${pipeline.stages[0].id},,,,,`,
      `Too precise,1.005,BRL,${pipeline.stages[0].id},,,,,`,
      `Their stage,10,,${theirPipeline.stages[0].id},,,,,`,
      `Nobody,10,,${pipeline.stages[0].id},nobody@example.test,999999,,,`,
      `Their contact,10,XYZ,${pipeline.stages[0].id},${other.admin.email},,,,31/12/2031`,
    ].join('\n');
    const res = await upload(text);
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('6 of 7 rows are refused; nothing was imported');
    expect(res.body.details).toEqual([
      { field: 'rows.3.title', message: "can't be blank" },
      { field: 'rows.4.value', message: 'must be a decimal number such as 1234.56' },
      { field: 'rows.5.value', message: expect.stringContaining('decimal') },
      { field: 'rows.6.stage', message: 'must be a stage id of this account, as {pipeline_id}_{slug}' },
      { field: 'rows.7.owner_email', message: 'is not the e-mail of an agent of this account' },
      { field: 'rows.7.contact_id', message: 'is not a contact of this account' },
      { field: 'rows.8.currency', message: 'is not a known ISO 4217 currency code' },
      { field: 'rows.8.owner_email', message: 'is not the e-mail of an agent of this account' },
      { field: 'rows.8.expected_close_date', message: 'must be a date (YYYY-MM-DD) or an ISO 8601 time' },
    ]);
    expect(await state()).toEqual(before);
  });

  it('refuses files over 5,000 rows (422) or 5 MB (413), malformed ones, and files without a header', async () => {
    // The other account imports into its own stages, not into these.
    expect((await upload(`title,stage\nX,${theirPipeline.stages[0].id}`, other)).status).toBe(200);
    const before = await state();
    const row = `Card,1,,${pipeline.stages[0].id}`;
    const many = ['title,value,currency,stage', ...Array.from({ length: MAX_IMPORT_ROWS + 1 }, () => row)].join('\n');
    const tooMany = await upload(many);
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.code).toBe('too_many_rows');
    const big = `title,stage,notes\n${`x,${pipeline.stages[0].id},${'a'.repeat(1000)}\n`.repeat(5300)}`;
    const tooBig = await upload(big);
    expect(tooBig.status).toBe(413);
    const broken = await upload(`title,stage\n"unclosed,${pipeline.stages[0].id}\n`);
    expect(broken.status).toBe(422);
    expect(broken.body.code).toBe('invalid_csv');
    const headerless = await upload(`Card,${pipeline.stages[0].id}\n`);
    expect(headerless.status).toBe(422);
    expect(headerless.body.details.map((d: { field: string }) => d.field)).toEqual(['file.title', 'file.stage']);
    expect((await upload('title,stage\n')).status).toBe(422);
    const empty = new FormData();
    expect((await postForm(t, `${account.path}/pipeline/cards/import`, empty, account.admin.token)).status).toBe(422);
    const json = await call(t.app, {
      method: 'POST',
      url: `${account.path}/pipeline/cards/import`,
      token: account.admin.token,
      body: { file: 'title,stage' },
    });
    expect(json.status).toBe(400);
    // Another account's path is a 404 (nothing read), and nothing was written by any of this.
    const theirs = new FormData();
    theirs.append('file', new Blob([`title,stage\nX,${pipeline.stages[0].id}`]), 'x.csv');
    expect((await postForm(t, `${account.path}/pipeline/cards/import`, theirs, other.admin.token)).status).toBe(404);
    expect(await state()).toEqual(before);
    expect(storedFiles(t)).toEqual([]);
  });
});
