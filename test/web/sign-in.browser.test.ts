import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TESTS, connectBrowser } from '../helpers/browser.js';
import { call, client } from '../helpers/http.js';
import { TestSmtpServer } from '../helpers/smtp.js';
import { buildChatTestApp, type ChatTestApp } from '../helpers/test-app.js';
import {
  expectAccessible,
  openPage,
  PASSWORD,
  screenshotsAtBothWidths,
  seedPeople,
  signIn,
  storedText,
  type Seeded,
} from './dashboard.js';

// Screen 1, signing in and out, as a person does it: a real Chromium against the real server
// (SQLite, the built dashboard), acting through roles and labels.
let smtp: TestSmtpServer;
let t: ChatTestApp;
let browser: Browser;
let base: string;
let people: Seeded;

beforeAll(async () => {
  smtp = await new TestSmtpServer().start();
  t = await buildChatTestApp({ SMTP_URL: smtp.url }, { background: { pollIntervalMs: 20 } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  people = await seedPeople(t);
  browser = await connectBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await smtp?.stop();
});

describe.skipIf(!BROWSER_TESTS)('signing in to the dashboard', () => {
  it('leads a browser from / to the sign-in page, with no script or style refused by the page policy', async () => {
    const { context, page, problems } = await openPage(browser);
    await page.goto(`${base}/`);
    await page.waitForURL(`${base}/app/login`);
    await page.getByRole('heading', { name: 'Sign in to Ponte' }).waitFor();
    expect(await page.title()).toBe('Sign in · Ponte');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    // The page's own font and stylesheet applied: Inter, and the brand-coloured button.
    expect(await page.evaluate('getComputedStyle(document.body).fontFamily')).toContain('Inter');
    await expectAccessible(page);
    await screenshotsAtBothWidths(page, 'sign-in');
    await expectAccessible(page);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows a refusal in the UI's words, then signs in with the per-device session only, kept across a reload", async () => {
    const { context, page, problems } = await openPage(browser);
    await page.goto(`${base}/app/login`);
    await page.getByLabel('E-mail').fill(people.paula.email);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('The e-mail or password is not right.');
    await expectAccessible(page);
    await screenshotsAtBothWidths(page, 'sign-in-refused');
    await page.setViewportSize({ width: 1280, height: 800 });

    // "Show password" shows what was typed.
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('text');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/app/accounts/${people.acme.id}/dashboard`);
    await page.getByRole('heading', { name: 'Conversations' }).waitFor();

    // Kept: the session's headers; never the user's permanent access token.
    const stored = await storedText(page);
    const session = JSON.parse((await page.evaluate<string | null>('localStorage.getItem("ponte.session")')) ?? '{}');
    expect(session).toMatchObject({
      uid: people.paula.email,
      client: expect.any(String),
      accessToken: expect.any(String),
    });
    expect(stored).not.toContain(people.paula.token);
    const headers = { 'access-token': session.accessToken, client: session.client, uid: session.uid };
    expect((await call(t.app, { url: '/api/v1/profile', headers })).status).toBe(200);

    await page.reload();
    await page.getByRole('heading', { name: 'Conversations' }).waitFor();
    expect(page.url()).toBe(`${base}/app/accounts/${people.acme.id}/dashboard`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('signs out: the session ends on the server and is forgotten on the device', async () => {
    const { context, page } = await openPage(browser);
    await signIn(page, base, people.rui.email);
    const session = JSON.parse((await page.evaluate<string | null>('localStorage.getItem("ponte.session")')) ?? '{}');
    await page.getByRole('button', { name: /^Profile and availability: Rui Agent/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(`${base}/app/login`);
    await page.getByText('You have signed out.').waitFor();
    expect(await page.evaluate('localStorage.getItem("ponte.session")')).toBeNull();
    const headers = { 'access-token': session.accessToken, client: session.client, uid: session.uid };
    expect((await call(t.app, { url: '/api/v1/profile', headers })).status).toBe(401);
    // The app's pages now lead to the sign-in page, which comes back to them after.
    await page.goto(`${base}/app/accounts/${people.acme.id}/dashboard`);
    await page.waitForURL(/\/app\/login\?redirect=/);
    await context.close();
  });

  it('goes to the sign-in page when the server ends the session, and back to the page after signing in', async () => {
    const { context, page } = await openPage(browser);
    await signIn(page, base, people.rui.email);
    const session = JSON.parse((await page.evaluate<string | null>('localStorage.getItem("ponte.session")')) ?? '{}');
    // Ended elsewhere (a new password ends every session; here: signed out with the same headers).
    const headers = { 'access-token': session.accessToken, client: session.client, uid: session.uid };
    expect((await call(t.app, { method: 'DELETE', url: '/auth/sign_out', headers })).status).toBe(200);
    await page.reload();
    await page.waitForURL(/\/app\/login\?redirect=/);
    await page.getByText('Your session has ended. Sign in again to continue.').waitFor();
    // The sign-in page still says why after a reload (the tab keeps the reason).
    await page.reload();
    await page.getByText('Your session has ended. Sign in again to continue.').waitFor();
    await page.getByLabel('E-mail').fill(people.rui.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/app/accounts/${people.acme.id}/dashboard`);
    await context.close();
  });

  it('signs in once with a single sign-on link, which leaves the address bar and cannot be used again', async () => {
    const link = await client(t.app, t.platformToken).get(`/platform/api/v1/users/${people.paula.id}/login`);
    expect(link.status).toBe(200);
    const url = String(link.body.url).replace('http://chat.test', base);
    expect(url).toContain('/app/login?email=');

    const first = await openPage(browser);
    await first.page.goto(url);
    await first.page.waitForURL(/\/app\/accounts\/\d+\/dashboard$/);
    expect(first.page.url()).not.toContain('sso_auth_token');
    await first.page.reload();
    await first.page.getByRole('heading', { name: 'Conversations' }).waitFor();
    // The history does not hold the token either.
    await first.page.goBack();
    expect(first.page.url()).not.toContain('sso_auth_token');
    expect(first.problems).toEqual([]);
    await first.context.close();

    const again = await openPage(browser);
    await again.page.goto(url);
    await expect
      .poll(() => again.page.getByRole('alert').textContent())
      .toBe('This sign-in link has expired or was already used. Sign in with your password, or ask for a new link.');
    expect(await again.page.getByLabel('E-mail').inputValue()).toBe(people.paula.email);
    expect(again.page.url()).not.toContain('sso_auth_token');
    await again.context.close();
  });

  it('resets a forgotten password through the e-mailed link, whose page leads back to sign in', async () => {
    const { context, page } = await openPage(browser);
    await page.goto(`${base}/app/login`);
    await page.getByLabel('E-mail').fill(people.rui.email);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    expect(await page.getByLabel('E-mail').inputValue()).toBe(people.rui.email);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await screenshotsAtBothWidths(page, 'forgot-password-sent');

    await expect.poll(() => smtp.received.some((e) => e.to.includes(people.rui.email)), { timeout: 10_000 }).toBe(true);
    const mail = smtp.received.find((e) => e.to.includes(people.rui.email))!;
    const link = /http:\/\/chat\.test(\/auth\/password\/edit\?reset_password_token=\S+)/.exec(mail.text);
    expect(link).not.toBeNull();
    await page.goto(`${base}${link![1]}`);
    await page.getByLabel('Password', { exact: true }).fill('a brand new password');
    await page.getByLabel('Repeat it').fill('a brand new password');
    await page.getByRole('button', { name: 'Set my password' }).click();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.waitForURL(/\/app\/login\?email=/);
    expect(await page.getByLabel('E-mail').inputValue()).toBe(people.rui.email);
    await page.getByLabel('Password', { exact: true }).fill('a brand new password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/app/accounts/${people.acme.id}/dashboard`);
    await context.close();
  });

  it('speaks Brazilian Portuguese to a Portuguese browser, server refusals included', async () => {
    const { context, page, problems } = await openPage(browser, { locale: 'pt-BR', width: 390 });
    await page.goto(`${base}/app/login`);
    await page.getByRole('heading', { name: 'Entrar no Ponte' }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('pt-BR');
    expect(await page.title()).toBe('Entrar · Ponte');
    await page.getByLabel('E-mail').fill(people.paula.email);
    await page.getByLabel('Senha', { exact: true }).fill('senha errada');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('E-mail ou senha incorretos.');

    // Too many attempts for this address (10 a minute): the server's Retry-After, in Portuguese.
    for (let i = 0; i < 10; i++)
      await client(t.app).post('/auth/sign_in', { email: people.paula.email, password: `wrong ${i}` });
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toMatch(/^Muitas tentativas\. Tente de novo em \d+ segundos\.$/);
    await expectAccessible(page);
    await screenshotsAtBothWidths(page, 'sign-in-pt-BR-rate-limited');
    expect(problems).toEqual([]);
    await context.close();
  });
});
