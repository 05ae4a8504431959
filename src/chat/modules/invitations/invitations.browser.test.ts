import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TESTS, connectBrowser, screenshotPath } from '../../../../test/helpers/browser.js';
import { newAccount } from '../../../../test/helpers/factories.js';
import { client } from '../../../../test/helpers/http.js';
import { TestSmtpServer, type ReceivedEmail } from '../../../../test/helpers/smtp.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';

// The set-password page as a person uses it: a real Chromium against the app on a real port,
// following the link of the invitation a real SMTP server received.
let smtp: TestSmtpServer;
let t: ChatTestApp;
let browser: Browser;
let base: string;

beforeAll(async () => {
  smtp = await new TestSmtpServer().start();
  t = await buildChatTestApp({ SMTP_URL: smtp.url }, { background: { pollIntervalMs: 20 } });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await connectBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await smtp?.stop();
});

async function mailTo(to: string): Promise<ReceivedEmail> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const found = smtp.received.find((e) => e.to.includes(to));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no e-mail to ${to}`);
}

describe.skipIf(!BROWSER_TESTS)('the set-password page in a browser', () => {
  it('opens from the invitation, takes the password, and shows that it is set', async () => {
    const account = await newAccount(t, 'Acme Support');
    const email = 'paula.browser@example.test';
    const created = await client(t.app, account.admin.token).post(`${account.path}/agents`, {
      name: 'Paula Browser',
      email,
      role: 'agent',
    });
    expect(created.status, created.text).toBe(200);
    const link = /http:\/\/chat\.test(\/auth\/password\/edit\?reset_password_token=\S+)/.exec(
      (await mailTo(email)).text,
    );
    expect(link).not.toBeNull();

    // The page needs no script: the whole flow runs with JavaScript off.
    const context = await browser.newContext({ viewport: { width: 800, height: 640 }, javaScriptEnabled: false });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    // PUBLIC_URL is a placeholder in tests: the same path on the listening server.
    const opened = await page.goto(`${base}${link![1]}`);
    expect(opened?.status()).toBe(200);
    expect(await page.locator('h1').innerText()).toBe('Join Acme Support');
    expect(await page.locator('main').innerText()).toContain(email);
    // The page's inline style applied (allowed by its CSP): the button is blue.
    // (Playwright's own evaluation runs even with the page's scripts off; the expression is text
    // because it runs in the page, whose globals the test's types do not know.)
    const color = await page.evaluate<string>("getComputedStyle(document.querySelector('button')).backgroundColor");
    expect(color).toBe('rgb(37, 99, 235)');
    await page.screenshot({ path: screenshotPath('set-password-form.png'), fullPage: true });

    await page.fill('#password', 'browser chosen password');
    await page.fill('#password_confirmation', 'browser chosen password');
    await Promise.all([page.waitForURL(`${base}/auth/password/edit`), page.click('button[type=submit]')]);
    expect(await page.locator('h1').innerText()).toBe('Your password is set');
    expect(await page.locator('p.ok').innerText()).toBe(`Your password is set. Sign in as ${email} with it.`);
    // "Sign in" opens the dashboard's sign-in page with the address filled in.
    const signInLink = page.getByRole('link', { name: 'Sign in' });
    expect(new URL((await signInLink.getAttribute('href'))!, page.url()).href).toBe(
      `${base}/app/login?email=${encodeURIComponent(email)}`,
    );
    const file = screenshotPath('set-password.png');
    await page.screenshot({ path: file, fullPage: true });
    expect(fs.statSync(file).size).toBeGreaterThan(5_000);
    expect(errors.filter((e) => e.includes('Content Security Policy'))).toEqual([]);
    await context.close();

    const signIn = await client(t.app).post('/auth/sign_in', { email, password: 'browser chosen password' });
    expect(signIn.status).toBe(200);
  });
});
