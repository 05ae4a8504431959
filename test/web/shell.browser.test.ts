import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TESTS, connectBrowser, screenshotPath } from '../helpers/browser.js';
import { newUser } from '../helpers/factories.js';
import { client } from '../helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from '../helpers/test-app.js';
import { expectAccessible, openPage, screenshotsAtBothWidths, seedPeople, signIn, type Seeded } from './dashboard.js';

// Screen 1, the signed-in shell, as a person uses it: the account switcher, availability, the
// UI's language, the sidebar, the phone layout, and pages that are not there.
let t: ChatTestApp;
let browser: Browser;
let base: string;
let people: Seeded;

beforeAll(async () => {
  t = await buildChatTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  people = await seedPeople(t);
  browser = await connectBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const availabilityIn = async (token: string, accountId: number) =>
  ((await client(t.app, token).get('/api/v1/profile')).body.accounts as { id: number; availability: string }[]).find(
    (a) => a.id === accountId,
  )?.availability;

describe.skipIf(!BROWSER_TESTS)('the signed-in shell', () => {
  it('shows the account, its areas and the user; switches accounts and remembers the last one', async () => {
    const { context, page, problems } = await openPage(browser);
    await signIn(page, base, people.paula.email);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    // Only areas that exist: profile settings, and the API documentation.
    const links = (await nav.getByRole('link').allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());
    expect(links).toEqual([
      'Conversations',
      'Contacts',
      'Deals',
      'Profile settings',
      'API documentation (opens in a new tab)',
    ]);
    expect(await page.title()).toBe('Conversations · Ponte');
    await nav.getByRole('link', { name: 'Profile settings' }).click();
    await expect
      .poll(() => nav.getByRole('link', { name: 'Profile settings' }).getAttribute('aria-current'))
      .toBe('page');
    await page.getByText(people.paula.email).first().waitFor();
    await expectAccessible(page);
    await screenshotsAtBothWidths(page, 'shell-profile-settings');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('button', { name: /^Switch account: Acme Support/ }).click();
    await expectAccessible(page);
    await page.screenshot({ path: screenshotPath('shell-account-switcher-1280.png') });
    await page.getByRole('menuitemradio', { name: 'Beta Imports' }).click();
    await page.waitForURL(`${base}/app/accounts/${people.beta.id}/dashboard`);
    await page.getByRole('button', { name: /^Switch account: Beta Imports/ }).waitFor();
    // The app opens where the user was last.
    await page.goto(`${base}/app`);
    await page.waitForURL(`${base}/app/accounts/${people.beta.id}/dashboard`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('lets an administrator set their availability, in the menu and in the profile; an agent sees theirs', async () => {
    const { context, page } = await openPage(browser);
    await signIn(page, base, people.paula.email);
    await page.goto(`${base}/app/accounts/${people.acme.id}/profile/settings`);
    await page.getByRole('button', { name: /^Profile and availability: Paula Souza\s*Offline/ }).click();
    await expectAccessible(page);
    await page.screenshot({ path: screenshotPath('shell-user-menu-1280.png') });
    await page.getByRole('menuitemradio', { name: 'Busy' }).click();
    await page.getByRole('status').getByText('Your availability is now Busy.').waitFor();
    await expect.poll(() => availabilityIn(people.paula.token, people.acme.id)).toBe('busy');
    // Only in this account.
    expect(await availabilityIn(people.paula.token, people.beta.id)).toBe('offline');
    await page.getByRole('button', { name: /^Profile and availability: Paula Souza\s*Busy/ }).waitFor();

    await page.getByRole('radio', { name: /^Online/ }).click();
    await expect.poll(() => availabilityIn(people.paula.token, people.acme.id)).toBe('online');
    await expect.poll(() => page.getByRole('radio', { name: /^Online/ }).getAttribute('aria-checked')).toBe('true');
    await context.close();

    const agent = await openPage(browser);
    await signIn(agent.page, base, people.rui.email);
    await agent.page.goto(`${base}/app/accounts/${people.acme.id}/profile/settings`);
    await agent.page.getByText('In this account, an administrator sets your availability.').waitFor();
    expect(await agent.page.getByRole('radio').count()).toBe(0);
    // An agent of one account: no switcher, the account's name instead.
    expect(await agent.page.getByRole('button', { name: /Switch account/ }).count()).toBe(0);
    await expectAccessible(agent.page);
    await agent.context.close();
  });

  it('speaks the language the user chooses on this device, across reloads and sign-out', async () => {
    const { context, page } = await openPage(browser);
    await signIn(page, base, people.rui.email);
    await page.goto(`${base}/app/accounts/${people.acme.id}/profile/settings`);
    await page.getByLabel('Interface language').selectOption({ label: 'Português (Brasil)' });
    await page.getByRole('heading', { name: 'Configurações do perfil' }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('pt-BR');
    await page.reload();
    await page.getByRole('heading', { name: 'Configurações do perfil' }).waitFor();
    expect(await page.title()).toBe('Configurações do perfil · Ponte');
    await expectAccessible(page);
    await screenshotsAtBothWidths(page, 'shell-profile-settings-pt-BR');
    await page.getByRole('button', { name: 'Sair deste dispositivo' }).click();
    await page.getByRole('heading', { name: 'Entrar no Ponte' }).waitFor();
    await page.getByText('Você saiu.').waitFor();
    // Back to the browser's language.
    await page.getByLabel('Idioma').selectOption({ label: 'English' });
    await page.getByRole('heading', { name: 'Sign in to Ponte' }).waitFor();
    await context.close();
  });

  it('opens the sidebar as a drawer on a phone', async () => {
    const { context, page, problems } = await openPage(browser, { width: 390 });
    await signIn(page, base, people.paula.email);
    expect(await page.getByRole('navigation', { name: 'Main navigation' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const drawer = page.getByRole('dialog', { name: 'Main navigation' });
    await drawer.getByRole('link', { name: 'Profile settings' }).waitFor();
    await expectAccessible(page);
    await page.screenshot({ path: screenshotPath('shell-drawer-390.png') });
    await drawer.getByRole('link', { name: 'Profile settings' }).click();
    await drawer.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('button', { name: /^Switch account: Acme Support/ }).click();
    await page.getByRole('menuitemradio', { name: 'Beta Imports' }).click();
    await page.waitForURL(`${base}/app/accounts/${people.beta.id}/dashboard`);
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows a page not found for unknown paths and for another account's id", async () => {
    const { context, page } = await openPage(browser);
    await signIn(page, base, people.rui.email);
    await page.goto(`${base}/app/accounts/${people.acme.id}/no/such/page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    // Inside the shell: the sidebar stays.
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    await expectAccessible(page);
    // Rui is not in Beta: its pages are not found, not shown.
    await page.goto(`${base}/app/accounts/${people.beta.id}/profile/settings`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await page.getByText('Beta Imports').count()).toBe(0);
    await expectAccessible(page);
    await screenshotsAtBothWidths(page, 'not-found');
    await page.getByRole('link', { name: 'Go to the start page' }).click();
    await page.waitForURL(`${base}/app/accounts/${people.acme.id}/dashboard`);
    await context.close();
  });

  it('tells a user of no account so, with a way out', async () => {
    const loner = await newUser(t, 'Lia Loner');
    const { context, page } = await openPage(browser);
    await page.goto(`${base}/app/login`);
    await page.getByLabel('E-mail').fill(loner.email);
    await page.getByLabel('Password', { exact: true }).fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'You are not in an account yet' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to Ponte' }).waitFor();
    await context.close();
  });
});
