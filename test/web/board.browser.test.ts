import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TESTS, connectBrowser } from '../helpers/browser.js';
import { client } from '../helpers/http.js';
import { newCard, newPipeline, type TestPipeline } from '../helpers/pipelines.js';
import type { ChatTestApp } from '../helpers/test-app.js';
import {
  expectAccessible,
  openPage,
  screenshotsAtBothWidths,
  seedPeople,
  signIn,
  startDashboard,
  type Seeded,
  type StorageState,
} from './dashboard.js';
import { seedWorkspace, type Workspace } from './workspace.js';

// The deal board (issue 30) as an agent uses it: each column with the server's count and total,
// a drag to another stage, a stale move rolled back, "Move to..." from the keyboard, and won /
// lost / reopen in the deal's history. Seeded through the API; checked against it.
let t: ChatTestApp;
let base: string;
let browser: Browser;
let people: Seeded;
let ws: Workspace;
let pipeline: TestPipeline;
/** Rui's signed-in browser profile: the tests open the board in copies of it. */
let rui: StorageState;
const cards: Record<string, number> = {};

beforeAll(async () => {
  ({ t, base } = await startDashboard());
  people = await seedPeople(t);
  ws = await seedWorkspace(t, people);
  pipeline = await newPipeline(t, ws.acme, ['Lead', 'Proposal', 'Negotiation'], 'Sales');
  const soon = new Date(Date.now() + 2 * 24 * 3600 * 1000).toISOString().slice(0, 10);
  const seeds: [string, number, Record<string, unknown>][] = [
    ['Alpha furniture', 0, { value: 1234.56, contact_id: ws.carla.contactId, owner_id: people.rui.id }],
    ['Beta office', 0, { value: 800, expected_close_date: soon }],
    ['Gamma store', 0, { value: 99.9 }],
    ['Delta chairs', 1, { value: 5000, contact_id: ws.diego.contactId }],
    ['Epsilon desks', 1, { value: 250.5 }],
    ['Theta lamps', 0, { value: 75 }],
  ];
  for (const [title, stage, fields] of seeds) {
    const card = await newCard(t, ws.acme, pipeline, {
      title,
      pipeline_stage: pipeline.stages[stage]!.id,
      currency: 'BRL',
      ...fields,
    });
    cards[title] = card.id;
  }
  const checklist = await api().patch(
    `${ws.acme.path}/pipeline_cards/${cards['Alpha furniture']}/update_qualification_checklist`,
    {
      qualification_checklist: {
        budget: { name: 'Budget confirmed', checked: true, points: 30, required: true },
        decision: { name: 'Decision maker met', checked: false, points: 30 },
      },
    },
  );
  expect(checklist.status, checklist.text).toBe(200);
  // A column longer than a page: 27 more deals in Negotiation (pages of 25).
  for (let i = 1; i <= 27; i++)
    await newCard(t, ws.acme, pipeline, {
      title: `Bulk deal ${String(i).padStart(2, '0')}`,
      pipeline_stage: pipeline.stages[2]!.id,
      value: 10,
      currency: 'BRL',
    });
  browser = await connectBrowser();
  const first = await openPage(browser);
  await signIn(first.page, base, people.rui.email);
  rui = await first.context.storageState();
  await first.context.close();
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const api = () => client(t.app, people.paula.token);
const boardUrl = () => `${base}/app/accounts/${people.acme.id}/pipeline`;
const column = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
const card = (page: Page, stage: string, title: string) => column(page, stage).getByRole('article', { name: title });
const brl = (value: number, locale = 'en') =>
  new Intl.NumberFormat(locale, { style: 'currency', currency: 'BRL' }).format(value);
const stagesNow = async () =>
  ((await api().get(`${ws.acme.path}/pipelines/${pipeline.id}`)).body.data as TestPipeline).stages;
const cardNow = async (title: string) => (await api().get(`${ws.acme.path}/pipeline_cards/${cards[title]}`)).body.data;

/** Every column says the count and total the API gives for its stage. */
async function expectColumnsMatchApi(page: Page, locale = 'en') {
  for (const stage of await stagesNow()) {
    const header = column(page, stage.name).locator('header');
    const count = stage.cards_count === 1 ? '1 deal' : `${stage.cards_count} deals`;
    const words = locale === 'en' ? count : count.replace('deals', 'negócios').replace('deal', 'negócio');
    await expect.poll(() => header.textContent()).toContain(words);
    await expect.poll(() => header.textContent()).toContain(brl(stage.total_value, locale));
  }
}

async function openBoard(locale: 'en' | 'pt-BR' = 'en') {
  const watched =
    locale === 'en'
      ? await openPage(browser, { signedIn: rui })
      : await openPage(browser, { locale: 'pt-BR' }).then(async (w) => {
          await signIn(w.page, base, people.rui.email, undefined, 'pt-BR');
          return w;
        });
  await watched.page.goto(boardUrl());
  await card(watched.page, 'Lead', 'Alpha furniture').waitFor();
  return watched;
}

describe.skipIf(!BROWSER_TESTS)('the deal board', () => {
  it("shows each stage with the API's count and total, and the deals' details", async () => {
    const { context, page, problems } = await openBoard();
    await page.getByRole('heading', { name: 'Deals', level: 1 }).waitFor();
    await expectColumnsMatchApi(page);
    const alpha = card(page, 'Lead', 'Alpha furniture');
    await alpha.getByText('Carla Mendes').waitFor();
    await alpha.getByText('Rui Agent').waitFor();
    await alpha.getByText(brl(1234.56)).waitFor();
    await alpha.getByText('Warm').waitFor();
    await card(page, 'Lead', 'Beta office')
      .getByText(/Closes /)
      .waitFor();
    await expectAccessible(page);
    await screenshotsAtBothWidths(page, 'board');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('formats the totals in Brazilian Portuguese', async () => {
    const { context, page } = await openBoard('pt-BR');
    await page.getByRole('heading', { name: 'Negócios', level: 1 }).waitFor();
    await column(page, 'Lead')
      .getByText(/R\$\s1\.234,56/)
      .waitFor();
    await expectColumnsMatchApi(page, 'pt-BR');
    await screenshotsAtBothWidths(page, 'board-pt-BR');
    await context.close();
  });

  it('moves a dragged deal to another stage with one request, as the API then shows', async () => {
    const { context, page, problems } = await openBoard();
    await card(page, 'Lead', 'Gamma store').dragTo(column(page, 'Proposal'));
    await card(page, 'Proposal', 'Gamma store').waitFor();
    await expect.poll(() => card(page, 'Lead', 'Gamma store').count()).toBe(0);
    await expect.poll(async () => (await cardNow('Gamma store')).stage.name).toBe('Proposal');
    const timeline = (await cardNow('Gamma store')).timeline as { type: string; data: any }[];
    expect(timeline[0]).toMatchObject({
      type: 'stage_change',
      data: { from_stage: { name: 'Lead' }, to_stage: { name: 'Proposal' } },
    });
    await expectColumnsMatchApi(page);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('puts a deal back and says so when someone moved it meanwhile', async () => {
    const { context, page, problems } = await openBoard();
    const beta = await cardNow('Beta office');
    const moved = await api().post(`${ws.acme.path}/pipeline_cards/${beta.id}/move_to_stage`, {
      pipeline_stage: pipeline.stages[2]!.id,
      expected_version: beta.stage_version,
    });
    expect(moved.status, moved.text).toBe(200);
    await card(page, 'Lead', 'Beta office').dragTo(column(page, 'Proposal'));
    await page.getByText('“Beta office” was not moved: another person moved it first.', { exact: false }).waitFor();
    // Back where the board read it, then (re-read) in neither: it is at the end of Negotiation,
    // past the column's first page.
    await expect.poll(() => card(page, 'Proposal', 'Beta office').count()).toBe(0);
    await expect.poll(() => card(page, 'Lead', 'Beta office').count()).toBe(0);
    expect((await cardNow('Beta office')).stage.name).toBe('Negotiation');
    await expectColumnsMatchApi(page);
    await page.screenshot({
      path: (await import('../helpers/browser.js')).screenshotPath('board-stale-move-1280.png'),
    });
    expect(problems.filter((p) => !/status of 409/.test(p))).toEqual([]);
    await context.close();
  });

  it('moves a deal with "Move to..." from the keyboard alone', async () => {
    const { context, page, problems } = await openBoard();
    await card(page, 'Proposal', 'Epsilon desks').getByRole('button', { name: 'Epsilon desks', exact: true }).focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'Move to Negotiation' }).waitFor();
    await expectAccessible(page);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect
      .poll(() => page.evaluate<string | undefined>('document.activeElement?.textContent?.trim()'))
      .toBe('Move to Negotiation');
    await page.keyboard.press('Enter');
    await card(page, 'Negotiation', 'Epsilon desks').waitFor();
    await expect.poll(async () => (await cardNow('Epsilon desks')).stage.name).toBe('Negotiation');
    await expectColumnsMatchApi(page);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('marks a deal won with a value and lost with a reason, reopens it, and shows each in its history', async () => {
    const { context, page, problems } = await openBoard();
    const delta = card(page, 'Proposal', 'Delta chairs');
    await delta.getByRole('button', { name: 'Actions for Delta chairs' }).click();
    await page.getByRole('menuitem', { name: 'Mark as won' }).click();
    const won = page.getByRole('dialog', { name: 'Mark “Delta chairs” as won' });
    await won.getByLabel('Value closed (BRL)').fill('5200.50');
    await won.getByRole('button', { name: 'Mark as won' }).click();
    await page.getByText('“Delta chairs” is marked as won.').waitFor();
    await delta.getByText('Won', { exact: true }).waitFor();
    await delta.getByText(brl(5200.5)).waitFor();

    await delta.getByRole('button', { name: 'Delta chairs', exact: true }).click();
    const panel = page.getByRole('dialog', { name: 'Delta chairs' });
    const history = panel.getByRole('region', { name: 'History' });
    await history.getByText(`Marked as won at ${brl(5200.5)}`).waitFor();
    await panel.getByRole('link', { name: 'Diego Alves' }).waitFor();
    await panel.getByRole('button', { name: 'Mark as lost' }).click();
    const lost = page.getByRole('dialog', { name: 'Mark “Delta chairs” as lost' });
    await lost.getByLabel('Reason').fill('Price too high');
    await lost.getByRole('button', { name: 'Mark as lost' }).click();
    await history.getByText('Marked as lost: Price too high').waitFor();
    await panel.getByRole('button', { name: 'Reopen' }).click();
    await history.getByText('Reopened').waitFor();
    await panel.getByLabel('New note').fill('Asked for a new quote');
    await panel.getByRole('button', { name: 'Add note' }).click();
    await history.getByText('Asked for a new quote').waitFor();
    await expectAccessible(page);
    await screenshotsAtBothWidths(page, 'board-deal-panel');

    const entries = ((await cardNow('Delta chairs')).timeline as { type: string }[]).map((e) => e.type);
    expect(entries.slice(0, 4)).toEqual(['note_added', 'deal_reopened', 'deal_lost', 'deal_won']);
    expect((await cardNow('Delta chairs')).status).toBe('open');
    expect(problems).toEqual([]);
    await context.close();
  });

  it("ticks a checklist item and sets the score by hand in the deal panel, showing the API's score", async () => {
    const { context, page, problems } = await openBoard();
    await card(page, 'Lead', 'Alpha furniture').getByRole('button', { name: 'Alpha furniture', exact: true }).click();
    const panel = page.getByRole('dialog', { name: 'Alpha furniture' });
    const score = panel.getByRole('region', { name: 'Lead score' });
    await score.getByText('Warm').waitFor();
    await score.getByRole('checkbox', { name: /Decision maker met/ }).check();
    await expect.poll(async () => (await cardNow('Alpha furniture')).lead_score).toBe(60);
    await score.getByText('60').waitFor();
    await score.getByText('Hot').waitFor();
    await panel.getByRole('link', { name: 'Carla Mendes' }).waitFor();

    await score.getByLabel('Score by hand (0–100)').fill('90');
    await score.getByRole('button', { name: 'Set score' }).click();
    await score.getByText('Very hot').waitFor();
    await score.getByText('Set by hand').waitFor();
    expect(await cardNow('Alpha furniture')).toMatchObject({ lead_score: 90, lead_score_overridden: true });
    await panel.getByRole('region', { name: 'History' }).getByText('Score set by hand from 60 to 90').waitFor();
    await score.getByRole('button', { name: 'Back to the rules' }).click();
    await score.getByText('Hot', { exact: true }).waitFor();
    await expect.poll(() => score.getByText('Set by hand').count()).toBe(0);
    expect(await cardNow('Alpha furniture')).toMatchObject({ lead_score: 60, lead_score_overridden: false });
    await page.keyboard.press('Escape');
    await card(page, 'Lead', 'Alpha furniture').getByText('Hot').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('loads more deals as a long column scrolls', async () => {
    const { context, page, problems } = await openBoard();
    const negotiation = column(page, 'Negotiation');
    const articles = negotiation.getByRole('article');
    await expect.poll(() => articles.count()).toBe(25);
    await negotiation.getByRole('list').evaluate((list) => (list.scrollTop = list.scrollHeight));
    const total = (await stagesNow()).find((s) => s.name === 'Negotiation')!.cards_count;
    await expect.poll(() => articles.count()).toBe(total);
    await expect.poll(() => negotiation.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('deletes a deal from its menu and undoes it from the notice', async () => {
    const { context, page, problems } = await openBoard();
    const theta = card(page, 'Lead', 'Theta lamps');
    await theta.getByRole('button', { name: 'Actions for Theta lamps' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByText('“Theta lamps” was deleted.').waitFor();
    await expect.poll(() => theta.count()).toBe(0);
    expect((await api().get(`${ws.acme.path}/pipeline_cards/${cards['Theta lamps']}`)).status).toBe(404);
    await expectColumnsMatchApi(page);
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByText('“Theta lamps” is back on the board.').waitFor();
    await theta.waitFor();
    expect((await cardNow('Theta lamps')).deleted_at).toBeNull();
    await expectColumnsMatchApi(page);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('creates a deal from a column (a refusal beside its field) and edits it from its panel', async () => {
    const { context, page, problems } = await openBoard();
    await column(page, 'Proposal').getByRole('button', { name: 'New deal in Proposal' }).click();
    const dialog = page.getByRole('dialog', { name: 'New deal in Proposal' });
    await dialog.getByLabel('Title').fill('Iota cabinets');
    await dialog.getByLabel('Value').fill('12.345');
    await dialog.getByRole('button', { name: 'Create deal' }).click();
    const value = dialog.getByLabel('Value');
    await expect.poll(() => value.getAttribute('aria-invalid')).toBe('true');
    await value.fill('1500');
    await dialog.getByLabel('Owner').selectOption({ label: 'Rui Agent' });
    await dialog.getByRole('button', { name: 'Create deal' }).click();
    await page.getByText('“Iota cabinets” was created.').waitFor();
    const iota = card(page, 'Proposal', 'Iota cabinets');
    await iota.getByText(brl(1500)).waitFor();
    await iota.getByText('Rui Agent').waitFor();
    const listed = await api().get(`${ws.acme.path}/pipeline_cards?pipeline_id=${pipeline.id}&q=Iota&page=1`);
    expect(listed.body.data).toMatchObject([
      {
        title: 'Iota cabinets',
        value: 1500,
        currency: 'BRL',
        stage: { name: 'Proposal' },
        owner: { id: people.rui.id },
      },
    ]);
    cards['Iota cabinets'] = listed.body.data[0].id;
    await expectColumnsMatchApi(page);

    // Edited from its panel: the owner and value changes are in its history.
    await iota.getByRole('button', { name: 'Iota cabinets', exact: true }).click();
    const panel = page.getByRole('dialog', { name: 'Iota cabinets' });
    await panel.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit “Iota cabinets”' });
    await edit.getByLabel('Value').fill('1750.25');
    await edit.getByLabel('Owner').selectOption({ label: 'Paula Souza' });
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('“Iota cabinets” was saved.').waitFor();
    const history = panel.getByRole('region', { name: 'History' });
    await history.getByText(`Value changed from ${brl(1500)} to ${brl(1750.25)}`).waitFor();
    await history.getByText('Owner set to Paula Souza').waitFor();
    expect(await cardNow('Iota cabinets')).toMatchObject({ value: 1750.25, owner: { id: people.paula.id } });
    await page.keyboard.press('Escape');
    await card(page, 'Proposal', 'Iota cabinets').getByText(brl(1750.25)).waitFor();
    await expectColumnsMatchApi(page);
    expect(problems.filter((p) => !/status of 422/.test(p))).toEqual([]);
    await context.close();
  });

  it('filters the columns by text, owner and status, each counting what the API counts under the filter', async () => {
    const { context, page, problems } = await openBoard();
    const stages = await stagesNow();
    /** Every column says how many of its deals the API lists under the same filter. */
    const expectCounts = async (query: string) => {
      for (const stage of stages) {
        const listed = await api().get(
          `${ws.acme.path}/pipeline_cards?pipeline_id=${pipeline.id}&stage_id=${stage.id}&page=1&per_page=100&${query}`,
        );
        const n = listed.body.meta.total as number;
        const header = column(page, stage.name).locator('header');
        await expect.poll(() => header.textContent()).toContain(n === 1 ? '1 deal' : `${n} deals`);
        await expect.poll(() => column(page, stage.name).getByRole('article').count()).toBe(Math.min(n, 25));
      }
    };

    await page.getByRole('searchbox', { name: 'Search deals' }).fill('Bulk deal 1');
    await expect.poll(() => page.url()).toContain('q=Bulk');
    await expectCounts('q=Bulk%20deal%201');
    await column(page, 'Negotiation').locator('header').getByText(brl(100)).waitFor();
    await page.getByText('Filtered: each column counts the deals that match').waitFor();
    await screenshotsAtBothWidths(page, 'board-filtered');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('searchbox', { name: 'Search deals' }).fill('');
    await page.getByLabel('Owner').selectOption({ label: 'Mine' });
    await expect.poll(() => page.url()).toContain('owner=me');
    await expectCounts(`owner_id=${people.rui.id}`);
    await card(page, 'Lead', 'Alpha furniture').waitFor();

    await page.getByLabel('Owner').selectOption({ label: 'Anyone' });
    await page.getByLabel('Status').selectOption({ label: 'Open' });
    await expectCounts('status=open');
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('reads the board again when it is opened again, showing what changed meanwhile', async () => {
    const { context, page, problems } = await openBoard();
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.getByRole('link', { name: 'Contacts' }).click();
    await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor();
    await newCard(t, ws.acme, pipeline, { title: 'Kappa sofas', value: 640, currency: 'BRL' });
    await nav.getByRole('link', { name: 'Deals' }).click();
    await card(page, 'Lead', 'Kappa sofas').waitFor();
    await expectColumnsMatchApi(page);
    expect(problems).toEqual([]);
    await context.close();
  });
});
