import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TESTS, connectBrowser, screenshotPath } from './helpers/browser.js';
import { buildChatTestApp, type ChatTestApp } from './helpers/test-app.js';

// The docs page as a newcomer opens it: Swagger UI renders the introduction and the operations.
let t: ChatTestApp;
let browser: Browser;
let base: string;

beforeAll(async () => {
  t = await buildChatTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await connectBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t.close();
});

describe.skipIf(!BROWSER_TESTS)('the docs page in a browser', () => {
  it('shows the getting-started introduction and the operations with their access', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${base}/docs`);
    await page.getByRole('heading', { name: 'Getting started' }).waitFor({ timeout: 30_000 });
    expect(await page.title()).toBe('Ponte conversation service: API');
    expect(await page.getByText('Platform app token', { exact: false }).count()).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath('api-docs.png') });
    // Opening an operation shows its description (with who may call it) and an example body.
    const operation = page.locator('.opblock-post', { hasText: '/api/v1/accounts/{accountId}/webhooks' }).first();
    await operation.locator('.opblock-summary').click();
    await operation.getByText('Administrators of the account.').waitFor();
    expect(await operation.locator('.body-param__example, .microlight').count()).toBeGreaterThan(0);
    await page.screenshot({ path: screenshotPath('api-docs-operation.png') });
    await page.close();
  });
});
