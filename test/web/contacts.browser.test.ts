import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TESTS, connectBrowser, screenshotPath } from '../helpers/browser.js';
import { client } from '../helpers/http.js';
import { newCard, newPipeline } from '../helpers/pipelines.js';
import type { ChatTestApp } from '../helpers/test-app.js';
import {
  expectAccessible,
  openPage,
  screenshotsAtBothWidths,
  seedPeople,
  signIn,
  startDashboard,
  type Seeded,
} from './dashboard.js';
import { seedWorkspace, type Workspace } from './workspace.js';

// Screen 4, contacts, as an agent and an administrator use them: the list with search, pages and
// total; a contact's page with details, custom attributes, labels, conversations and deals; an
// edit the server refuses (its sentence beside the field) and one it takes; merging a duplicate.
let t: ChatTestApp;
let base: string;
let browser: Browser;
let people: Seeded;
let ws: Workspace;

beforeAll(async () => {
  ({ t, base } = await startDashboard());
  people = await seedPeople(t);
  ws = await seedWorkspace(t, people);
  const admin = client(t.app, people.paula.token);
  // 16 more contacts: 20 in all, two pages of 15.
  for (let i = 1; i <= 16; i++) {
    const res = await admin.post(`${ws.acme.path}/contacts`, {
      name: `Customer ${String(i).padStart(2, '0')}`,
      email: `customer${i}@example.test`,
    });
    expect(res.status, res.text).toBe(200);
  }
  const definition = await admin.post(`${ws.acme.path}/custom_attribute_definitions`, {
    attribute_display_name: 'Plan',
    attribute_display_type: 'list',
    attribute_key: 'plan',
    attribute_model: 'contact_attribute',
    attribute_values: ['basic', 'premium'],
  });
  expect(definition.status, definition.text).toBe(200);
  const update = await admin.patch(`${ws.acme.path}/contacts/${ws.carla.contactId}`, {
    phone_number: '+5511999990001',
    additional_attributes: { company_name: 'Mendes Móveis', city: 'Curitiba' },
    custom_attributes: { plan: 'premium' },
  });
  expect(update.status, update.text).toBe(200);
  const pipeline = await newPipeline(t, ws.acme, ['Lead', 'Proposal'], 'Sales');
  await newCard(t, ws.acme, pipeline, {
    title: 'Showroom furniture',
    contact_id: ws.carla.contactId,
    value: 12500,
    currency: 'BRL',
  });
  browser = await connectBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const rows = (page: Page) =>
  page
    .getByRole('table')
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader') });

describe.skipIf(!BROWSER_TESTS)('contacts', () => {
  it('lists contacts a page at a time with the total, and searches them', async () => {
    const { context, page, problems } = await openPage(browser);
    await signIn(page, base, people.rui.email);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Contacts' }).click();
    await page.getByRole('heading', { name: 'Contacts' }).waitFor();
    await page.getByText('20 contacts').waitFor();
    await expect.poll(() => rows(page).count()).toBe(15);
    await expectAccessible(page);
    await screenshotsAtBothWidths(page, 'contacts-list');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2 of 2').waitFor();
    await expect.poll(() => rows(page).count()).toBe(5);
    expect(page.url()).toContain('page=2');

    await page.getByLabel('Order').selectOption({ label: 'Name, A to Z' });
    await expect.poll(async () => (await rows(page).first().textContent())?.trim()).toMatch(/Carla Mendes/);

    await page.getByRole('searchbox', { name: 'Search contacts' }).fill('customer1');
    await page.getByText('8 contacts match “customer1”').waitFor();
    await expect.poll(() => rows(page).count()).toBe(8);
    await page.getByRole('searchbox', { name: 'Search contacts' }).fill('nobody at all');
    await page.getByText('No contact matches “nobody at all”.').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows a contact's details, attributes, labels, conversations and deals", async () => {
    const { context, page, problems } = await openPage(browser);
    await signIn(page, base, people.paula.email);
    await page.goto(`${base}/app/accounts/${people.acme.id}/contacts?q=Carla`);
    await rows(page)
      .getByRole('link', { name: /Carla Mendes/ })
      .click();
    await page.getByRole('heading', { name: 'Carla Mendes', level: 1 }).waitFor();
    await page.getByText('Mendes Móveis').waitFor();
    await page.getByText('Curitiba').waitFor();
    const attributes = page.getByRole('region', { name: 'Custom attributes' });
    await attributes.getByText('premium').waitFor();
    await page.getByText('Showroom furniture').waitFor();
    await page.getByText(/R\$\s?12,500\.00/).waitFor();
    const conversations = page.getByRole('region', { name: 'Conversations' });
    await conversations.getByRole('link', { name: new RegExp(`#${ws.carla.id}`) }).waitFor();

    await page.getByRole('button', { name: 'Edit labels' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'vip' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('region', { name: 'Labels' }).getByRole('listitem').filter({ hasText: 'vip' }).waitFor();
    await expect
      .poll(
        async () =>
          (await client(t.app, people.paula.token).get(`${ws.acme.path}/contacts/${ws.carla.contactId}/labels`)).body
            .payload,
      )
      .toEqual(['vip']);
    await expectAccessible(page);
    await screenshotsAtBothWidths(page, 'contact-page');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Its conversation opens from here.
    await conversations.getByRole('link', { name: new RegExp(`#${ws.carla.id}`) }).click();
    await page.getByRole('article', { name: `Conversation #${ws.carla.id}` }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it("edits a contact, showing the server's sentence beside a refused field", async () => {
    const { context, page, problems } = await openPage(browser);
    await signIn(page, base, people.rui.email);
    await page.goto(`${base}/app/accounts/${people.acme.id}/contacts/${ws.diego.contactId}`);
    await page.getByRole('button', { name: 'Edit contact' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit contact' });
    await dialog.getByLabel('Phone').fill('11 9999');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    const phone = dialog.getByLabel('Phone');
    await expect.poll(() => phone.getAttribute('aria-invalid')).toBe('true');
    const sentence = await dialog.locator(`#${await phone.getAttribute('aria-describedby')}`).textContent();
    expect(sentence?.trim()).not.toBe('');
    await expectAccessible(page);
    await page.screenshot({ path: screenshotPath('contact-edit-refused-1280.png') });
    expect(
      (await client(t.app, people.paula.token).get(`${ws.acme.path}/contacts/${ws.diego.contactId}`)).body.payload
        .phone_number,
    ).toBeNull();

    await phone.fill('+55 11 98888-7777');
    await dialog.getByLabel('Company').fill('Alves Tech');
    await dialog.getByLabel('Plan').selectOption('basic');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Contact saved.').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Alves Tech').waitFor();
    const saved = (await client(t.app, people.paula.token).get(`${ws.acme.path}/contacts/${ws.diego.contactId}`)).body
      .payload;
    expect([saved.phone_number, saved.additional_attributes.company_name, saved.custom_attributes.plan]).toEqual([
      '+5511988887777',
      'Alves Tech',
      'basic',
    ]);
    expect(problems.filter((p) => !/status of 422/.test(p))).toEqual([]);
    await context.close();
  });

  it('merges a duplicate into a contact', async () => {
    const admin = client(t.app, people.paula.token);
    const dup = await admin.post(`${ws.acme.path}/contacts`, { name: 'Elisa R.', email: 'elisa.rocha@work.test' });
    expect(dup.status).toBe(200);
    const { context, page, problems } = await openPage(browser);
    await signIn(page, base, people.paula.email);
    await page.goto(`${base}/app/accounts/${people.acme.id}/contacts/${ws.elisa.contactId}`);
    await page.getByRole('button', { name: 'Merge' }).click();
    const dialog = page.getByRole('dialog', { name: 'Merge a duplicate into this contact' });
    await dialog.getByRole('searchbox', { name: 'Search for the contact to merge' }).fill('Elisa R.');
    await dialog.getByRole('radio', { name: /Elisa R\./ }).check();
    await dialog.getByText('Elisa R. will be merged into Elisa Rocha').waitFor();
    await expectAccessible(page);
    await page.screenshot({ path: screenshotPath('contact-merge-1280.png') });
    await dialog.getByRole('button', { name: 'Merge contacts' }).click();
    await page.getByText('Elisa R. was merged into Elisa Rocha.').waitFor();
    expect((await admin.get(`${ws.acme.path}/contacts/${dup.body.payload.contact.id}`)).status).toBe(404);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('speaks Brazilian Portuguese', async () => {
    const { context, page } = await openPage(browser, { locale: 'pt-BR' });
    await signIn(page, base, people.paula.email, undefined, 'pt-BR');
    await page.goto(`${base}/app/accounts/${people.acme.id}/contacts`);
    await page.getByRole('heading', { name: 'Contatos' }).waitFor();
    await expectAccessible(page);
    await screenshotsAtBothWidths(page, 'contacts-list-pt-BR');
    await page.goto(`${base}/app/accounts/${people.acme.id}/contacts/${ws.carla.contactId}`);
    await page.getByRole('heading', { name: 'Carla Mendes', level: 1 }).waitFor();
    await page.getByRole('main').getByText('Negócios').waitFor();
    await expectAccessible(page);
    await screenshotsAtBothWidths(page, 'contact-page-pt-BR');
    await context.close();
  });
});
