import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { seriousViolations, screenshotPath } from '../helpers/browser.js';
import { addMember, newUser, type TestUser } from '../helpers/factories.js';
import { client } from '../helpers/http.js';
import net from 'node:net';
import { buildChatTestApp, type ChatTestApp } from '../helpers/test-app.js';

/**
 * What the dashboard's browser tests share: the people and accounts they sign in with (seeded
 * through the platform API, as an operator would), a page that records what the browser
 * complained about, and the checks every screen gets (no serious accessibility violation,
 * screenshots at 1280 and 390 px).
 */

export const PASSWORD = 'correct horse battery';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The conversation service listening on a port of its own, its public address set to it, so the
 * attachment links it writes (PUBLIC_URL) load in the page as they would in production.
 */
export async function startDashboard(
  options: Parameters<typeof buildChatTestApp>[1] = {},
  env: Record<string, string> = {},
): Promise<{ t: ChatTestApp; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await buildChatTestApp({ ...env, PUBLIC_URL: base }, options);
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, base };
}

export interface Seeded {
  acme: { id: number; name: string };
  beta: { id: number; name: string };
  /** Administrator of both accounts. */
  paula: TestUser;
  /** Agent of Acme only. */
  rui: TestUser;
}

async function account(t: ChatTestApp, name: string) {
  const res = await client(t.app, t.platformToken).post('/platform/api/v1/accounts', { name });
  expect(res.status, res.text).toBe(200);
  return { id: res.body.id as number, name };
}

export async function seedPeople(t: ChatTestApp): Promise<Seeded> {
  const [acme, beta] = [await account(t, 'Acme Support'), await account(t, 'Beta Imports')];
  const paula = await newUser(t, 'Paula Souza');
  const rui = await newUser(t, 'Rui Agent');
  await addMember(t, acme.id, paula.id, 'administrator');
  await addMember(t, beta.id, paula.id, 'administrator');
  await addMember(t, acme.id, rui.id, 'agent');
  return { acme, beta, paula, rui };
}

/** What a browser profile stored (cookies, localStorage), as Playwright saves and restores it. */
export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

export interface Watched {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions of the page (Content-Security-Policy refusals among them). */
  problems: string[];
}

/**
 * A fresh browser profile with one page, at a width and in a language: nothing stored, or what a
 * signed-in profile stored (`signedIn`, from `context.storageState()`: a file with many screens
 * signs in once, since sign-in allows 10 tries a minute per address).
 */
export async function openPage(
  browser: Browser,
  options: { width?: number; locale?: string; signedIn?: StorageState } = {},
): Promise<Watched> {
  const width = options.width ?? 1280;
  const context = await browser.newContext({
    viewport: { width, height: width < 768 ? 844 : 800 },
    locale: options.locale ?? 'en-US',
    deviceScaleFactor: 1,
    ...(options.signedIn ? { storageState: options.signedIn } : {}),
  });
  // A step that cannot happen fails on its own line, well before the test's time is up.
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    // The browser logs every refused request (a wrong password's 401): answers the tests expect.
    if (m.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(m.text()))
      problems.push(m.text());
  });
  page.on('pageerror', (err) => problems.push(String(err)));
  return { context, page, problems };
}

/** Signs in through the form (in the page's language), and waits for the app to open. */
export async function signIn(
  page: Page,
  base: string,
  email: string,
  password = PASSWORD,
  language: 'en' | 'pt-BR' = 'en',
): Promise<void> {
  const words =
    language === 'en' ? { password: 'Password', submit: 'Sign in' } : { password: 'Senha', submit: 'Entrar' };
  await page.goto(`${base}/app/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel(words.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: words.submit }).click();
  await page.waitForURL(/\/app\/accounts\/\d+\//);
}

/** No serious or critical axe-core violation on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
}

/** Screenshots of the page as it is at 1280 px, then at 390 px (the page is left at 390). */
export async function screenshotsAtBothWidths(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: screenshotPath(`${name}-1280.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: screenshotPath(`${name}-390.png`), fullPage: true });
}

/** What the page keeps in its storage (localStorage and sessionStorage), as one text. */
export async function storedText(page: Page): Promise<string> {
  return page.evaluate<string>(
    'JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage), document.cookie])',
  );
}
