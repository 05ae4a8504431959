import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TESTS, connectBrowser, screenshotPath } from '../helpers/browser.js';
import { addMember, newAccount, newContact, newInbox } from '../helpers/factories.js';
import { client } from '../helpers/http.js';
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

// Screen 2, the conversation inbox, as an administrator and an agent use it: the tabs and their
// counts, the filters, search, the inboxes an agent sees, the virtualised list and its pages, and
// the phone's separate list and conversation screens.
let t: ChatTestApp;
let base: string;
let browser: Browser;
let people: Seeded;
let ws: Workspace;

beforeAll(async () => {
  ({ t, base } = await startDashboard());
  people = await seedPeople(t);
  ws = await seedWorkspace(t, people);
  browser = await connectBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const tab = (page: Page, name: string) => page.getByRole('tab', { name: new RegExp(`^${name}\\s*\\d+$`) });
const tabCount = async (page: Page, name: string) =>
  Number(((await tab(page, name).textContent()) ?? '').replace(/\D+/g, ''));
const listed = (page: Page) => page.getByRole('list', { name: 'Conversations' }).getByRole('link');
const names = async (page: Page) =>
  (await listed(page).allTextContents()).map((text) => /(Carla|Diego|Elisa|Fábio)/.exec(text)?.[1] ?? text);

describe.skipIf(!BROWSER_TESTS)('the conversation inbox', () => {
  it('opens on Mine with the counts of every tab, and filters by tab, status, inbox, label and search', async () => {
    const { context, page, problems } = await openPage(browser);
    await signIn(page, base, people.paula.email);
    await page.waitForURL(`${base}/app/accounts/${people.acme.id}/dashboard`);
    expect(await page.title()).toBe('Conversations · Ponte');
    await expect.poll(() => names(page)).toEqual(['Elisa']);
    expect([await tabCount(page, 'Mine'), await tabCount(page, 'Unassigned'), await tabCount(page, 'All')]).toEqual([
      1, 2, 4,
    ]);
    await tab(page, 'All').click();
    await expect.poll(() => names(page)).toEqual(['Carla', 'Diego', 'Elisa', 'Fábio']);
    await page.getByText('Pick a conversation').waitFor();
    await expectAccessible(page);
    await screenshotsAtBothWidths(page, 'inbox-all');
    await page.setViewportSize({ width: 1280, height: 800 });

    // The filters are in the address: the inbox filter, then a label.
    await page.getByRole('button', { name: 'Filters' }).click();
    await page.getByLabel('Inbox', { exact: true }).selectOption({ label: 'Billing' });
    await expect.poll(() => names(page)).toEqual(['Fábio']);
    expect(page.url()).toContain(`inbox=${ws.billing.id}`);
    await expectAccessible(page);
    await page.screenshot({ path: screenshotPath('inbox-filters-1280.png') });
    await page.getByLabel('Inbox', { exact: true }).selectOption({ label: 'Every inbox' });
    await page.getByLabel('Label', { exact: true }).selectOption('refund');
    await expect.poll(() => names(page)).toEqual(['Carla']);
    await page.getByLabel('Label', { exact: true }).selectOption({ label: 'Any label' });
    await page.getByLabel('Team', { exact: true }).selectOption({ label: 'Tier 1' });
    await expect.poll(() => names(page)).toEqual(['Diego']);
    await page.keyboard.press('Escape');
    // What is on shows under the tabs, and goes with one click.
    await page.getByRole('button', { name: 'Remove the filter Team: Tier 1' }).click();
    await expect.poll(() => names(page)).toHaveLength(4);
    expect(page.url()).not.toContain('team=');

    // Search matches message text.
    await page.getByRole('searchbox', { name: 'Search conversations' }).fill('damaged');
    await expect.poll(() => names(page)).toEqual(['Carla']);
    await page.reload();
    await expect.poll(() => names(page)).toEqual(['Carla']);
    expect(await page.getByRole('searchbox', { name: 'Search conversations' }).inputValue()).toBe('damaged');
    await page.getByRole('searchbox', { name: 'Search conversations' }).fill('no such words');
    await page.getByText('Nothing matches “no such words”.').waitFor();
    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect.poll(() => names(page)).toHaveLength(4);

    // Status: nothing is resolved yet.
    await page.getByLabel('Status').selectOption('resolved');
    await page.getByText('No conversations here').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows an agent only the inboxes they are a member of, and never another inbox's conversation", async () => {
    const { context, page, problems } = await openPage(browser);
    await signIn(page, base, people.rui.email);
    await tab(page, 'All').click();
    await expect.poll(() => names(page)).toEqual(['Carla', 'Diego', 'Elisa']);
    expect([await tabCount(page, 'Mine'), await tabCount(page, 'Unassigned'), await tabCount(page, 'All')]).toEqual([
      1, 1, 3,
    ]);
    await page.getByRole('button', { name: 'Filters' }).click();
    const inboxes = await page.getByLabel('Inbox', { exact: true }).locator('option').allTextContents();
    expect(inboxes.map((s) => s.trim())).toEqual(['Every inbox', 'Website']);
    await page.keyboard.press('Escape');
    // A link to a Billing conversation, or to the Billing inbox, shows nothing of it.
    await page.goto(`${base}/app/accounts/${people.acme.id}/conversations/${ws.fabio.id}`);
    await page.getByRole('heading', { name: 'Conversation not found' }).waitFor();
    expect(await page.getByText('My invoice for March is wrong.').count()).toBe(0);
    await page.goto(`${base}/app/accounts/${people.acme.id}/dashboard?assignee=all&inbox=${ws.billing.id}`);
    await page.getByText('That inbox is not available to you').waitFor();
    await expect.poll(() => names(page)).toEqual(['Carla', 'Diego', 'Elisa']);
    expect(page.url()).not.toContain('inbox=');
    await expectAccessible(page);
    expect(problems.filter((p) => !/status of 404/.test(p))).toEqual([]);
    await context.close();
  });

  it('keeps fewer than 60 rows in the document with 1,000 conversations, and loads the next page on scroll', async () => {
    const big = await newAccount(t, 'Thousand');
    await addMember(t, big.id, people.paula.id, 'administrator');
    const inbox = await newInbox(t, big, { type: 'api' }, 'Bulk');
    const admin = client(t.app, big.admin.token);
    for (let i = 0; i < 40; i++) {
      const contact = await newContact(t, big, { name: `Bulk ${i}`, inbox_id: inbox.id, source_id: `bulk-${i}` });
      for (let j = 0; j < 25; j++) {
        const res = await admin.post(`${big.path}/conversations`, {
          inbox_id: inbox.id,
          contact_id: contact.contact.id,
        });
        expect(res.status, res.text).toBe(200);
      }
    }
    const { context, page, problems } = await openPage(browser);
    await signIn(page, base, people.paula.email);
    await page.goto(`${base}/app/accounts/${big.id}/dashboard?assignee=all`);
    await expect.poll(() => tabCount(page, 'All')).toBe(1000);
    await listed(page).first().waitFor();
    const rows = page.getByRole('list', { name: 'Conversations' }).getByRole('listitem');
    expect(await rows.count()).toBeLessThan(60);
    // Scrolling to the end loads the following pages; the document still holds a window of rows.
    const panel = page.getByRole('tabpanel');
    for (let i = 0; i < 4; i++) {
      await panel.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      await page.waitForTimeout(0);
      await expect
        .poll(async () =>
          Math.max(...(await rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute('aria-posinset')))))),
        )
        .toBeGreaterThan(25 * (i + 1));
    }
    expect(await rows.count()).toBeLessThan(60);
    await expectAccessible(page);
    await page.screenshot({ path: screenshotPath('inbox-thousand-1280.png') });
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);

  it('on a phone, shows the list and the conversation as separate screens with a way back', async () => {
    const { context, page, problems } = await openPage(browser, { width: 390 });
    await signIn(page, base, people.paula.email);
    await tab(page, 'All').click();
    await listed(page).filter({ hasText: 'Carla Mendes' }).click();
    await page.waitForURL(new RegExp(`/conversations/${ws.carla.id}\\?assignee=all$`));
    await page.getByText('My order #4512 arrived damaged.').waitFor();
    // The list is not on screen beside it.
    expect(await page.getByRole('searchbox', { name: 'Search conversations' }).isVisible()).toBe(false);
    await expectAccessible(page);
    await page.screenshot({ path: screenshotPath('conversation-phone-390.png') });
    await page.getByRole('link', { name: 'Back to conversations' }).click();
    await page.waitForURL(`${base}/app/accounts/${people.acme.id}/dashboard?assignee=all`);
    await page.getByRole('searchbox', { name: 'Search conversations' }).waitFor();
    await page.screenshot({ path: screenshotPath('inbox-phone-390.png') });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('speaks Brazilian Portuguese', async () => {
    const { context, page } = await openPage(browser, { locale: 'pt-BR' });
    await signIn(page, base, people.paula.email, undefined, 'pt-BR');
    await page.getByRole('heading', { name: 'Conversas' }).waitFor();
    await page.getByRole('tab', { name: /^Todas/ }).click();
    await page.getByRole('tab', { name: /^Não atribuídas/ }).waitFor();
    await page.getByRole('list', { name: 'Conversas' }).getByRole('link').first().waitFor();
    await expectAccessible(page);
    await screenshotsAtBothWidths(page, 'inbox-all-pt-BR');
    await context.close();
  });
});
