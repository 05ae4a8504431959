/**
 * Takes screenshots of the help center's readers' pages in headless Chromium, to check by eye that
 * they look like a help center (and that the Content-Security-Policy lets their own style through).
 *
 * It builds the real conversation service on a throw-away SQLite database, listens on a free local
 * port, seeds through the HTTP API an account with a portal (its color, header and homepage link),
 * categories in two languages and a few Markdown articles (lists, code, a table, a quote, a draft
 * that must not show, and a `<script>` that must not survive), then opens the pages in Chromium.
 *
 * Needs Debian's Chromium (playwright-core, a development dependency, drives it):
 *
 *   apt-get install -y chromium          # Debian's build, at /usr/bin/chromium
 *   npx tsx scripts/screenshot-help-center.ts [output directory, default /tmp/help-center]
 *
 * Writes home.png, article.png, category.png, search.png (1280 px wide, full page), article-narrow.png
 * and home-pt.png (a 400 px wide phone), and prints what the browser reported on its console (a CSP
 * violation would show there). CHROMIUM=<path> picks another browser binary.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildChatApp } from '../src/chat/app.js';
import type { ChatDatabase } from '../src/chat/db/schema.js';
import { chatMigrations } from '../src/chat/modules.js';
import { ensurePlatformApp } from '../src/chat/platform/platform.bootstrap.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/core/db/database.js';
import { migrateToLatest } from '../src/core/db/migrator.js';

const outDir = path.resolve(process.argv[2] ?? '/tmp/help-center');
const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const PLATFORM_TOKEN = 'screenshot-platform-token-0123456789';

const ARTICLES: { title: string; category?: string; description?: string; status?: string; content: string }[] = [
  {
    title: 'Paying an invoice',
    category: 'billing',
    description: 'Cards, bank transfers and boletos: how to settle an invoice in a few clicks.',
    content: `Every invoice can be paid from the **Billing** page of your account.

## Before you start

- Make sure you are signed in as an *owner* or a *billing manager*.
- Keep the invoice number at hand (it starts with \`INV-\`).

## Steps

1. Open **Settings → Billing**.
2. Find the invoice in the list and choose **Pay now**.
3. Pick a method and confirm with <kbd>Enter</kbd>.

> Payments by bank transfer take up to two business days to show as paid.

| Method | Fee | Confirmed |
|---|---|---|
| Card | none | at once |
| Bank transfer | none | 1–2 days |
| Boleto | R$ 2,50 | next day |

If something looks wrong, [contact us](https://acme.example.test/contact).

<script>alert('this must never run')</script>`,
  },
  { title: 'Downloading receipts', category: 'billing', content: 'Receipts are in **Billing → History**.' },
  { title: 'Changing your plan', category: 'billing', content: 'Upgrade or downgrade at any time.' },
  { title: 'Refunds', category: 'billing', content: 'Refunds are issued within 30 days.' },
  {
    title: 'Creating your account',
    category: 'getting-started',
    content: 'Sign up with your e-mail address and confirm it.',
  },
  { title: 'Inviting your team', category: 'getting-started', content: 'Go to **Team** and invite people.' },
  {
    title: 'Connecting WhatsApp',
    category: 'integrations',
    description: 'Receive and answer WhatsApp messages from your inbox.',
    content: 'Install the bridge, then paste the token:\n\n```sh\nponte connect whatsapp --token $TOKEN\n```',
  },
  { title: 'Webhooks', category: 'integrations', content: 'Signed deliveries with retries.' },
  { title: 'Two-factor authentication', category: 'security', content: 'Protect your account with a second factor.' },
  { title: 'Unreleased feature', category: 'billing', status: 'draft', content: 'Not for readers yet.' },
  { title: 'Contact us', content: 'Write to support@acme.example.test; we answer within a day.' },
  { title: 'Como pagar uma fatura', category: 'faturamento', content: 'Abra **Faturamento** e escolha *Pagar*.' },
];

async function main() {
  // playwright-core is installed by hand (see above), so it is loaded at run time.
  const { chromium } = (await import('playwright-core' as string)) as typeof import('playwright-core');
  fs.mkdirSync(outDir, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-hc-'));
  const url = `sqlite://${path.join(dataDir, 'chat.sqlite')}`;
  const database = await openDatabase<ChatDatabase>(url);
  try {
    await migrateToLatest(database.db, database.dialect, chatMigrations);
    await ensurePlatformApp(database.db, PLATFORM_TOKEN);
    const config = loadConfig({ DATA_DIR: dataDir, CHAT_DATABASE_URL: url, LOG_LEVEL: 'silent' });
    const app = await buildChatApp({ db: database.db, dialect: database.dialect, config, logger: false });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });

    const call = async (method: string, route: string, token: string, body?: object) => {
      const res = await fetch(`${base}${route}`, {
        method,
        headers: { api_access_token: token, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = await res.json();
      if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const account = await call('POST', '/platform/api/v1/accounts', PLATFORM_TOKEN, { name: 'Acme' });
    const user = await call('POST', '/platform/api/v1/users', PLATFORM_TOKEN, {
      name: 'Ana Souza',
      email: 'ana@acme.example.test',
      password: 'correct horse battery',
    });
    await call('POST', `/platform/api/v1/accounts/${account.id}/account_users`, PLATFORM_TOKEN, {
      user_id: user.id,
      role: 'administrator',
    });
    const token: string = user.access_token;
    const A = `/api/v1/accounts/${account.id}`;
    const portal = await call('POST', `${A}/portals`, token, {
      name: 'Acme Help Center',
      slug: 'acme',
      color: '#1F93FF',
      header_text: 'Hi! How can we help?',
      homepage_link: 'https://acme.example.test',
      config: { default_locale: 'en' },
    });
    const categories: Record<string, number> = {};
    for (const [name, description, locale] of [
      ['Getting started', 'Set up your account and invite your team.', 'en'],
      ['Billing', 'Invoices, payments, receipts and plans.', 'en'],
      ['Integrations', 'WhatsApp, webhooks and the API.', 'en'],
      ['Security', 'Keep your account safe.', 'en'],
      ['Faturamento', 'Faturas, pagamentos e planos.', 'pt_BR'],
    ]) {
      const created = await call('POST', `${A}/portals/acme/categories`, token, { name, description, locale });
      categories[created.payload.slug] = created.payload.id;
    }
    for (const article of ARTICLES) {
      await call('POST', `${A}/portals/acme/articles`, token, {
        title: article.title,
        description: article.description,
        content: article.content,
        status: article.status ?? 'published',
        category_id: article.category ? categories[article.category] : undefined,
      });
    }

    const browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    try {
      const shots: [string, string, number][] = [
        ['home.png', `/hc/${portal.slug}`, 1280],
        ['article.png', `/hc/${portal.slug}/articles/paying-an-invoice`, 1280],
        ['category.png', `/hc/${portal.slug}/en/categories/billing`, 1280],
        ['search.png', `/hc/${portal.slug}?q=invoice`, 1280],
        ['article-narrow.png', `/hc/${portal.slug}/articles/paying-an-invoice`, 400],
        ['home-pt.png', `/hc/${portal.slug}/pt_BR`, 400],
      ];
      for (const [file, route, width] of shots) {
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        page.on('console', (message) => console.log(`[console ${file}] ${message.type()}: ${message.text()}`));
        page.on('dialog', (dialog) => {
          console.log(`[dialog ${file}] a script ran: ${dialog.message()}`);
          void dialog.dismiss();
        });
        const res = await page.goto(`${base}${route}`);
        console.log(`${route} -> ${res?.status()} ${res?.headers()['content-type']}`);
        await page.screenshot({ path: path.join(outDir, file), fullPage: true });
        await page.close();
      }
    } finally {
      await browser.close();
      await app.close();
    }
    console.log(`screenshots in ${outDir}`);
  } finally {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
