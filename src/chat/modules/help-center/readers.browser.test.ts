import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TESTS, connectBrowser, screenshotPath } from '../../../../test/helpers/browser.js';
import { newAccount } from '../../../../test/helpers/factories.js';
import { client } from '../../../../test/helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';

// The readers' pages as a person sees them: a real Chromium against the app on a real port.
let t: ChatTestApp;
let browser: Browser;
let base: string;
let slug: string;

beforeAll(async () => {
  t = await buildChatTestApp();
  const account = await newAccount(t);
  const api = client(t.app, account.admin.token);
  slug = `acme-${Date.now().toString(36)}`;
  const portal = (
    await api.post(`${account.path}/portals`, {
      name: 'Acme Help',
      slug,
      color: '#0F766E',
      header_text: 'Hi! How can we help?',
      config: { default_locale: 'en' },
    })
  ).body;
  const P = `${account.path}/portals/${portal.id}`;
  const billing = (await api.post(`${P}/categories`, { name: 'Billing', description: 'Invoices and payments' })).body
    .payload;
  const article = async (body: Record<string, unknown>) => {
    const res = await api.post(`${P}/articles`, { status: 'published', category_id: billing.id, ...body });
    expect(res.status, res.text).toBe(200);
  };
  await article({
    title: 'Paying an invoice',
    description: 'Cards, transfers and boletos',
    content: [
      'Invoices are paid from the **Billing** page.',
      '',
      '## Steps',
      '',
      '1. Open **Billing**.',
      '2. Choose *Pay now* and confirm.',
      '',
      '<script>document.title = "pwned"; window.pwned = true</script>',
      '<img src="x" onerror="window.pwned = true" alt="">',
    ].join('\n'),
  });
  await article({ title: 'Changing your plan', content: 'Plans change at the end of the billing cycle.' });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await connectBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t.close();
});

describe.skipIf(!BROWSER_TESTS)('the help center in a browser', () => {
  it('shows the portal home with its categories and articles, styled, and takes a screenshot', async () => {
    const page = await browser.newPage({ viewport: { width: 1024, height: 768 } });
    const violations: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') violations.push(m.text());
    });
    const res = await page.goto(`${base}/hc/${slug}`);
    expect(res?.status()).toBe(200);
    expect(await page.locator('h1').innerText()).toBe('Hi! How can we help?');
    expect(await page.getByRole('link', { name: 'Paying an invoice' }).count()).toBe(1);
    expect(await page.getByRole('searchbox').count()).toBe(1);
    // The stylesheet applied (allowed by the page's CSP hash): the header carries the portal colour.
    // (Expressions as text: they run in the page, whose globals the test's types do not know.)
    const brand = await page.evaluate<string>("getComputedStyle(document.documentElement).getPropertyValue('--brand')");
    expect(brand.trim()).toBe('#0f766e');
    expect(violations.filter((v) => v.includes('Content Security Policy'))).toEqual([]);
    const file = screenshotPath('help-center-home.png');
    await page.screenshot({ path: file, fullPage: true });
    expect(fs.statSync(file).size).toBeGreaterThan(5_000);
    await page.close();
  });

  it('renders an article without running anything its Markdown smuggled in, and finds it by search', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/hc/${slug}`);
    await page.getByRole('link', { name: 'Paying an invoice' }).click();
    await page.waitForURL(/\/articles\//);
    // Headings move one level down under the article's own h1.
    expect(await page.locator('h1').innerText()).toBe('Paying an invoice');
    expect(await page.locator('h3', { hasText: 'Steps' }).count()).toBe(1);
    expect(await page.locator('article .body ol li').count()).toBe(2);
    expect(await page.evaluate('typeof window.pwned')).toBe('undefined');
    expect(await page.title()).not.toContain('pwned');
    await page.screenshot({ path: screenshotPath('help-center-article.png'), fullPage: true });

    await page.goto(`${base}/hc/${slug}`);
    await page.getByRole('searchbox').fill('billing cycle');
    await page.keyboard.press('Enter');
    await page.waitForURL(/[?&]q=/);
    expect(await page.getByRole('link', { name: 'Changing your plan' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Paying an invoice' }).count()).toBe(0);
    await page.close();
  });
});
