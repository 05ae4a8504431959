/**
 * Renders the accountant's report e-mail in headless Chromium and saves a screenshot, to check by
 * eye that it reads as a report.
 *
 * It builds the real finance app on a throw-away SQLite database, seeds an account through the
 * HTTP API (income and expenses in BRL and USD, accents, a formula-looking description, an open
 * bill and a paid one), sends the current month's report through the account's SMTP settings to a
 * local test SMTP server, parses the e-mail it receives and renders its HTML part.
 *
 * Needs Debian's Chromium (playwright-core, a development dependency, drives it):
 *
 *   apt-get install -y chromium          # Debian's build, at /usr/bin/chromium
 *   npx tsx scripts/screenshot-accountant-report.ts [output directory, default /tmp/accountant-report]
 *
 * Writes report.html, report.txt (the plain-text part), the CSV attachment, report.png (a 900 px
 * wide page) and report-narrow.png (a 420 px wide page, as on a phone). CHROMIUM=<path> picks
 * another browser binary.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/core/db/database.js';
import { migrateToLatest } from '../src/core/db/migrator.js';
import { buildFinanceApp } from '../src/finance/app.js';
import type { FinanceDatabase } from '../src/finance/db/schema.js';
import { financeMigrations } from '../src/finance/modules.js';
import { TestSmtpServer } from '../test/helpers/smtp.js';

const outDir = path.resolve(process.argv[2] ?? '/tmp/accountant-report');
const chromiumPath = process.env.CHROMIUM ?? '/usr/bin/chromium';

async function main() {
  // playwright-core is installed by hand (see above), so it is loaded at run time.
  const { chromium } = (await import('playwright-core' as string)) as typeof import('playwright-core');
  fs.mkdirSync(outDir, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-report-'));
  const url = `sqlite://${path.join(dataDir, 'finance.sqlite')}`;
  const database = await openDatabase<FinanceDatabase>(url);
  const smtp = await new TestSmtpServer().start();
  try {
    await migrateToLatest(database.db, database.dialect, financeMigrations);
    const config = loadConfig({
      DATA_DIR: dataDir,
      FINANCE_DATABASE_URL: url,
      FINANCE_PUBLIC_URL: 'http://finance.test',
      LOG_LEVEL: 'silent',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    });
    const app = await buildFinanceApp({ db: database.db, dialect: database.dialect, config, logger: false });
    await app.ready();

    let token = '';
    const call = async (method: 'GET' | 'POST' | 'PUT', url: string, body?: object) => {
      const res = await app.inject({
        method,
        url,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        ...(body ? { payload: body } : {}),
      });
      const json = JSON.parse(res.body);
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return json.data;
    };

    const setup = await call('POST', '/api/auth/setup', {
      email: 'dona.ines@padaria.test',
      password: 'a long enough password',
      fullName: 'Inês Araújo',
      companyName: 'Padaria São João Ltda',
      ...(config.finance.setupToken ? { setupToken: config.finance.setupToken } : {}),
    });
    token = setup.accessToken;
    await call('POST', '/api/email/smtp', {
      host: '127.0.0.1',
      port: smtp.port,
      secure: false,
      user: 'mailer',
      password: 'smtp-secret',
      fromName: 'Padaria São João',
      fromEmail: 'financeiro@padaria.test',
    });
    await call('POST', '/api/email/accountant', { email: 'carla@contabil.test', name: 'Carla Contadora' });

    // The current month, so the paid bill's expense (dated the day it is paid) belongs to it.
    const today = new Date().toISOString().slice(0, 10);
    const month = today.slice(0, 7);
    const day = (n: number) => `${month}-${String(Math.min(n, Number(today.slice(8, 10)))).padStart(2, '0')}`;
    const transactions: object[] = [
      { kind: 'income', amount: 18430.5, date: day(1), description: 'Vendas no balcão', category: 'vendas' },
      { kind: 'income', amount: 2350, date: day(5), description: 'Encomenda de bolos (casamento)', category: 'vendas' },
      { kind: 'income', amount: 1999.99, currency: 'USD', date: day(6), description: 'Export: café especial' },
      { kind: 'expense', amount: 4200, date: day(2), description: 'Aluguel, loja "centro"', category: 'aluguel' },
      { kind: 'expense', amount: 1275.4, date: day(3), description: 'Farinha e açúcar', category: 'insumos' },
      { kind: 'expense', amount: 0.3, currency: 'USD', date: day(6), description: 'Wire fee', category: 'bank' },
      { kind: 'expense', amount: 15, date: day(7), description: '=cmd()', category: 'diversos', status: 'pending' },
      { kind: 'income', amount: 999, date: day(4), description: 'Cancelled sale', status: 'cancelled' },
    ];
    for (const t of transactions) await call('POST', '/api/transactions', t);
    await call('POST', '/api/bills', { supplier: 'Água & Esgoto SA', amount: 312.77, dueDate: `${month}-28` });
    const power = await call('POST', '/api/bills', {
      supplier: 'Companhia Elétrica',
      description: 'Energia do mês',
      category: 'utilidades',
      amount: 987.65,
      dueDate: day(10),
    });
    await call('POST', `/api/bills/${power.id}/pay`);

    const seen = smtp.received.length;
    const sent = await call('POST', '/api/email/accountant/send', { referenceMonth: month });
    const [raw] = await smtp.waitFor(seen + 1);
    if (!raw) throw new Error('the report e-mail did not arrive');
    const mail = await simpleParser(raw.raw);
    const html = typeof mail.html === 'string' ? mail.html : '';
    if (!html) throw new Error('the report e-mail has no HTML part');
    fs.writeFileSync(path.join(outDir, 'report.html'), html);
    fs.writeFileSync(path.join(outDir, 'report.txt'), mail.text ?? '');
    for (const a of mail.attachments) fs.writeFileSync(path.join(outDir, a.filename ?? 'attachment'), a.content);
    await app.close();

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
      for (const [name, width] of [
        ['report.png', 900],
        ['report-narrow.png', 420],
      ] as const) {
        const page = await browser.newPage({ viewport: { width, height: 800 } });
        await page.setContent(html, { waitUntil: 'load' });
        await page.screenshot({ path: path.join(outDir, name), fullPage: true });
        await page.close();
      }
    } finally {
      await browser.close();
    }
    process.stdout.write(
      `Report for ${month}: totals ${JSON.stringify(sent.totals)}\n` +
        `Subject: ${mail.subject}\nAttachments: ${mail.attachments.map((a) => a.filename).join(', ')}\n` +
        `Written to ${outDir}: report.html, report.txt, report.png, report-narrow.png\n`,
    );
  } finally {
    await smtp.stop();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
