import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSmtpServer } from '../../../../test/helpers/smtp.js';
import { buildFinanceTestApp, type FinanceTestApp } from '../../../../test/helpers/test-app.js';
import {
  addFinanceMember,
  countFinanceRows,
  financeClient,
  financeServicesOf,
  newFinanceAccount,
  newFinanceBill,
  newFinanceTransaction,
  type FinanceTestAccount,
} from '../../../../test/helpers/finance-factories.js';
import { previousMonth, utcMonth } from '../../calendar.js';

let t: FinanceTestApp;
let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await new TestSmtpServer().start();
  t = await buildFinanceTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});

const smtpConfig = () => ({
  host: '127.0.0.1',
  port: smtp.port,
  secure: false,
  user: 'tester',
  password: 'secret',
  fromName: 'Acme Finance',
  fromEmail: 'finance@acme.test',
});

/** An account with SMTP saved and (unless told otherwise) the accountant configured. */
async function configured(accountant: Record<string, unknown> | null = {}, withSmtp = true, name?: string) {
  const account = await newFinanceAccount(t, name ? { name } : {});
  const c = financeClient(t.app, account.admin.accessToken);
  if (withSmtp) expect((await c.post('/api/email/smtp', smtpConfig())).status).toBe(200);
  const email = `carla-${account.accountId}@accountants.test`;
  if (accountant)
    expect((await c.post('/api/email/accountant', { email, name: 'Carla Contadora', ...accountant })).status).toBe(200);
  return { account, c, email };
}

/** RFC 4180 parser (quoted fields, doubled quotes, CRLF records) for the attachment. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += ch;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** The e-mails received for `to` since `from`, parsed. */
async function mailsTo(to: string, from = 0): Promise<ParsedMail[]> {
  const raw = smtp.received.slice(from).filter((m) => m.to.includes(to));
  return Promise.all(raw.map((m) => simpleParser(m.raw)));
}

const notificationsOf = (account: FinanceTestAccount, type: 'accountant_sent' | 'system' = 'accountant_sent') =>
  t.db
    .selectFrom('notifications')
    .selectAll()
    .where('account_id', '=', Number(account.accountId))
    .where('type', '=', type)
    .execute();

/**
 * March 2025 of an account, in two currencies. BRL: income 1200.30, expenses 300.34 (balance
 * 899.96); USD: income 1999.99, expenses 0.30 (0.10 + 0.20, exactly; balance 1999.69). Plus rows
 * that do not count (cancelled, other months) and bills (one paid: its expense is dated the day it
 * was paid, so it is not in March).
 */
async function seedMarch(token: string) {
  const tx = (fields: Record<string, unknown>) => newFinanceTransaction(t, token, fields);
  const ids: Record<string, string> = {};
  ids.consulting = (
    await tx({
      kind: 'income',
      amount: 1000.1,
      date: '2025-03-01',
      description: 'Consulting',
      category: 'sales',
      status: 'completed',
    })
  ).id;
  ids.rent = (
    await tx({
      kind: 'expense',
      amount: 300.33,
      date: '2025-03-15',
      description: 'Rent, "main" office',
      category: 'rent',
      status: 'completed',
    })
  ).id;
  ids.hyperlink = (
    await tx({
      kind: 'expense',
      amount: 0.01,
      date: '2025-03-20',
      description: '=HYPERLINK("http://evil.test")',
      category: 'fees',
      status: 'pending',
    })
  ).id;
  ids.lines = (
    await tx({
      kind: 'income',
      amount: 200.2,
      date: '2025-03-31',
      description: 'Line one\nline two',
      category: 'sales',
      status: 'pending',
    })
  ).id;
  ids.export = (
    await tx({
      kind: 'income',
      amount: 1999.99,
      currency: 'USD',
      date: '2025-03-03',
      description: 'Exportação de café',
      category: 'sales',
    })
  ).id;
  ids.cmd = (
    await tx({
      kind: 'expense',
      amount: 0.1,
      currency: 'USD',
      date: '2025-03-04',
      description: '=cmd()',
      category: '@fees',
    })
  ).id;
  ids.plus = (
    await tx({ kind: 'expense', amount: 0.2, currency: 'USD', date: '2025-03-04', description: '+1+2', category: null })
  ).id;
  await tx({ kind: 'income', amount: 999, date: '2025-03-10', status: 'cancelled' });
  await tx({ kind: 'expense', amount: 5, currency: 'USD', date: '2025-03-11', status: 'cancelled' });
  await tx({ kind: 'income', amount: 5000, date: '2025-04-01' });
  await tx({ kind: 'expense', amount: 70, date: '2025-02-28' });
  ids.water = (
    await newFinanceBill(t, token, {
      supplier: 'Water, Inc.',
      amount: 45.67,
      dueDate: '2025-03-05',
      category: 'utilities',
    })
  ).id;
  const power = await newFinanceBill(t, token, { supplier: 'Power Co', amount: 100, dueDate: '2025-03-31' });
  ids.power = power.id;
  expect((await financeClient(t.app, token).post(`/api/bills/${power.id}/pay`)).status).toBe(200);
  const cancelled = await newFinanceBill(t, token, { supplier: 'Gone', amount: 1, dueDate: '2025-03-10' });
  expect((await financeClient(t.app, token).post(`/api/bills/${cancelled.id}/cancel`)).status).toBe(200);
  await newFinanceBill(t, token, { supplier: 'April', amount: 1, dueDate: '2025-04-01' });
  return ids;
}

const MARCH_TOTALS = [
  { currency: 'BRL', income: 1200.3, expenses: 300.34, balance: 899.96 },
  { currency: 'USD', income: 1999.99, expenses: 0.3, balance: 1999.69 },
];

const CSV_COLUMNS = [
  'section',
  'id',
  'date',
  'type',
  'description',
  'category',
  'counterparty',
  'status',
  'amount',
  'currency',
  'bill_id',
];

/** The cells of the HTML table with class "totals", row by row (tags stripped, entities of numbers kept as text). */
function totalsTableOf(html: string): string[][] {
  const table = /<table class="totals"[\s\S]*?<\/table>/.exec(html)?.[0];
  if (!table) return [];
  return [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1].matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => c[1].replace(/<[^>]+>/g, '').trim()),
  );
}

/** The CSV attachment of a report e-mail: its bytes and its rows (header first). */
function csvOf(mail: ParsedMail) {
  const attachment = mail.attachments.find((a) => a.filename?.endsWith('.csv'));
  expect(attachment).toBeDefined();
  const bytes = attachment!.content;
  const text = bytes.toString('utf8');
  return { attachment: attachment!, bytes, text, rows: parseCsv(text.replace(/^\uFEFF/, '')) };
}

describe('accountant configuration', () => {
  const defaults = {
    name: null,
    autoSend: false,
    sendDay: 1,
    includeTransactions: true,
    includeBills: true,
    includeExpenses: true,
    lastAutoSentMonth: null,
  };

  it('is null until saved; saves with defaults; a later save keeps the options it omits; any member may read it', async () => {
    const account = await newFinanceAccount(t);
    const agent = await addFinanceMember(t, account, 'agent');
    const c = financeClient(t.app, account.admin.accessToken);
    expect((await c.get('/api/email/accountant')).body).toEqual({
      success: true,
      data: null,
      message: 'The accountant is not configured',
    });

    const saved = await c.post('/api/email/accountant', { email: 'carla@accountants.test' });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      success: true,
      message: 'Accountant configuration saved',
      data: { email: 'carla@accountants.test', ...defaults, updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
    });
    const changed = await c.post('/api/email/accountant', {
      email: 'carla@accountants.test',
      name: 'Carla',
      autoSend: true,
      sendDay: 31,
      includeBills: false,
    });
    expect(changed.body.data).toMatchObject({
      name: 'Carla',
      autoSend: true,
      sendDay: 31,
      includeBills: false,
      includeTransactions: true,
    });
    const kept = await c.post('/api/email/accountant', { email: 'new@accountants.test' });
    expect(kept.body.data).toMatchObject({
      email: 'new@accountants.test',
      name: 'Carla',
      autoSend: true,
      sendDay: 31,
      includeBills: false,
    });

    const byAgent = await financeClient(t.app, agent.accessToken).get('/api/email/accountant');
    expect(byAgent.status).toBe(200);
    expect(byAgent.body.data).toEqual(kept.body.data);
    // Another account sees its own (none).
    const other = await newFinanceAccount(t);
    expect((await financeClient(t.app, other.admin.accessToken).get('/api/email/accountant')).body.data).toBeNull();
    expect(await countFinanceRows(t.db, 'accountant_settings')).toBeGreaterThan(0);
  });

  it('only administrators save, remove or send (agents 403, nothing changed); no token 401', async () => {
    const { account, email } = await configured({ sendDay: 5 });
    const agent = await addFinanceMember(t, account, 'agent');
    const g = financeClient(t.app, agent.accessToken);
    const sentBefore = smtp.received.length;
    for (const res of [
      await g.post('/api/email/accountant', { email: 'mallory@evil.test' }),
      await g.delete('/api/email/accountant'),
      await g.post('/api/email/accountant/send', { referenceMonth: '2025-03' }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ success: false, error: { code: 'forbidden' } });
    }
    expect((await g.get('/api/email/accountant')).body.data).toMatchObject({ email, sendDay: 5 });
    expect(smtp.received.length).toBe(sentBefore);
    expect((await financeClient(t.app).get('/api/email/accountant')).status).toBe(401);
    expect((await financeClient(t.app).post('/api/email/accountant/send', { referenceMonth: '2025-03' })).status).toBe(
      401,
    );
  });

  it('refuses bad input with 422 and changes nothing', async () => {
    const { c, email } = await configured({ sendDay: 5 });
    const before = (await c.get('/api/email/accountant')).body.data;
    for (const body of [
      {},
      { email: 'not-an-address' },
      { email: 42 },
      { email, sendDay: 0 },
      { email, sendDay: 32 },
      { email, sendDay: 2.5 },
      { email, autoSend: 'yes' },
      { email, name: 'x'.repeat(201) },
      { email: `${'a'.repeat(320)}@x.test` },
    ]) {
      const res = await c.post('/api/email/accountant', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ success: false, error: { code: 'validation_failed' } });
    }
    expect((await c.get('/api/email/accountant')).body.data).toEqual(before);
  });

  it('is removed by DELETE; again 404', async () => {
    const { c, account } = await configured();
    const res = await c.delete('/api/email/accountant');
    expect(res.body).toEqual({ success: true, data: null, message: 'Accountant configuration removed' });
    const row = await t.db
      .selectFrom('accountant_settings')
      .select('id')
      .where('account_id', '=', Number(account.accountId))
      .executeTakeFirst();
    expect(row).toBeUndefined();
    const again = await c.delete('/api/email/accountant');
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ success: false, error: { code: 'not_found' } });
  });
});

describe('POST /api/email/accountant/send', () => {
  it('sends the month: totals per currency in exact cents, an HTML report and a CSV; notifies members who want it', async () => {
    const { account, c, email } = await configured({}, true, 'Padaria São João');
    const quiet = await addFinanceMember(t, account, 'agent');
    await financeClient(t.app, quiet.accessToken).put('/api/notifications/preferences', { accountantSent: false });
    const ids = await seedMarch(account.admin.accessToken);
    const from = smtp.received.length;

    const res = await c.post('/api/email/accountant/send', { referenceMonth: '2025-03' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: `Report for 2025-03 sent to ${email}`,
      data: {
        referenceMonth: '2025-03',
        email,
        totals: MARCH_TOTALS,
        counts: { transactions: 3, bills: 2, expenses: 4 },
        messageId: expect.any(String),
      },
    });

    const [mail] = await mailsTo(email, from);
    expect(mail).toBeDefined();
    expect(mail.subject).toBe('Financial report 2025-03 - Padaria São João');
    expect(mail.from?.value[0]).toEqual({ address: 'finance@acme.test', name: 'Acme Finance' });
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value[0] : null).toEqual({
      address: email,
      name: 'Carla Contadora',
    });

    // The HTML: the account, the month, the totals table (one row per currency), the lists.
    const html = String(mail.html);
    expect(html).toContain('<h1');
    expect(html).toContain('Padaria São João');
    expect(html).toContain('March 2025');
    expect(totalsTableOf(html)).toEqual([
      ['Currency', 'Income', 'Expenses', 'Balance'],
      ['BRL', '1\u00a0200.30', '300.34', '899.96'],
      ['USD', '1\u00a0999.99', '0.30', '1\u00a0999.69'],
    ]);
    for (const heading of ['Income <span', 'Expenses <span', 'Bills due in the month <span'])
      expect(html).toContain(heading);
    expect(html).toContain('=cmd()'); // shown as text in the e-mail, escaped where needed
    expect(html).toContain('Rent, &quot;main&quot; office');
    expect(html).toContain('financial-report-2025-03.csv');

    // The plain-text twin.
    const text = mail.text ?? '';
    expect(text).toContain('Financial report - March 2025 (2025-03)');
    expect(text).toContain('Account: Padaria São João');
    expect(text).toMatch(/^BRL\s+1200\.30\s+300\.34\s+899\.96$/m);
    expect(text).toMatch(/^USD\s+1999\.99\s+0\.30\s+1999\.69$/m);

    // The CSV: named after the month, a UTF-8 BOM, RFC 4180, totals per currency, each row once.
    const csv = csvOf(mail);
    expect(mail.attachments).toHaveLength(1);
    expect(csv.attachment.filename).toBe('financial-report-2025-03.csv');
    expect(csv.attachment.contentType).toBe('text/csv');
    expect([...csv.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(csv.text).toContain('Exportação de café');
    expect(csv.text).toContain('"Rent, ""main"" office"'); // RFC 4180 quoting
    expect(csv.text.endsWith('\r\n')).toBe(true);
    expect(csv.rows[0]).toEqual(CSV_COLUMNS);
    expect(csv.rows.slice(1).every((r) => r.length === CSV_COLUMNS.length)).toBe(true);
    expect(csv.rows.slice(1).map((r) => [r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10]])).toEqual([
      ['totals', '', '', 'income', 'Income 2025-03', '', '', '', '1200.30', 'BRL', ''],
      ['totals', '', '', 'expense', 'Expenses 2025-03', '', '', '', '300.34', 'BRL', ''],
      ['totals', '', '', 'balance', 'Balance 2025-03', '', '', '', '899.96', 'BRL', ''],
      ['totals', '', '', 'income', 'Income 2025-03', '', '', '', '1999.99', 'USD', ''],
      ['totals', '', '', 'expense', 'Expenses 2025-03', '', '', '', '0.30', 'USD', ''],
      ['totals', '', '', 'balance', 'Balance 2025-03', '', '', '', '1999.69', 'USD', ''],
      [
        'transactions',
        ids.consulting,
        '2025-03-01',
        'income',
        'Consulting',
        'sales',
        '',
        'completed',
        '1000.10',
        'BRL',
        '',
      ],
      [
        'transactions',
        ids.export,
        '2025-03-03',
        'income',
        'Exportação de café',
        'sales',
        '',
        'completed',
        '1999.99',
        'USD',
        '',
      ],
      [
        'transactions',
        ids.lines,
        '2025-03-31',
        'income',
        'Line one\nline two',
        'sales',
        '',
        'pending',
        '200.20',
        'BRL',
        '',
      ],
      ['expenses', ids.cmd, '2025-03-04', 'expense', "'=cmd()", "'@fees", '', 'completed', '0.10', 'USD', ''],
      ['expenses', ids.plus, '2025-03-04', 'expense', "'+1+2", '', '', 'completed', '0.20', 'USD', ''],
      [
        'expenses',
        ids.rent,
        '2025-03-15',
        'expense',
        'Rent, "main" office',
        'rent',
        '',
        'completed',
        '300.33',
        'BRL',
        '',
      ],
      [
        'expenses',
        ids.hyperlink,
        '2025-03-20',
        'expense',
        `'=HYPERLINK("http://evil.test")`,
        'fees',
        '',
        'pending',
        '0.01',
        'BRL',
        '',
      ],
      ['bills', ids.water, '2025-03-05', 'bill', '', 'utilities', 'Water, Inc.', 'open', '45.67', 'BRL', ids.water],
      ['bills', ids.power, '2025-03-31', 'bill', '', '', 'Power Co', 'paid', '100.00', 'BRL', ids.power],
    ]);
    // Every transaction once, although the transactions and the expenses are both included.
    const listed = csv.rows.filter((r) => r[0] === 'transactions' || r[0] === 'expenses').map((r) => r[1]);
    expect(new Set(listed).size).toBe(listed.length);
    // No text cell starts a formula.
    for (const row of csv.rows.slice(1))
      for (const i of [4, 5, 6]) expect(row[i], row.join('|')).not.toMatch(/^[=+\-@\t\r]/);

    const notices = await financeClient(t.app, account.admin.accessToken).get(
      '/api/notifications?type=accountant_sent',
    );
    expect(notices.body.data.notifications).toEqual([
      expect.objectContaining({
        title: 'Report sent to the accountant',
        message: `Report for 2025-03 sent to ${email}`,
        data: { referenceMonth: '2025-03', email, automatic: false },
      }),
    ]);
    expect((await financeClient(t.app, quiet.accessToken).get('/api/notifications')).body.data.total).toBe(0);
  });

  it('lists each row once, in the sections whose include flag is on (totals always)', async () => {
    const { account, c, email } = await configured({
      includeTransactions: false,
      includeBills: false,
      includeExpenses: true,
    });
    await seedMarch(account.admin.accessToken);
    const send = async (month: string) => {
      const from = smtp.received.length;
      const res = await c.post('/api/email/accountant/send', { referenceMonth: month });
      expect(res.status).toBe(200);
      const [mail] = await mailsTo(email, from);
      return {
        data: res.body.data,
        mail,
        rows: csvOf(mail)
          .rows.slice(1)
          .filter((r) => r[0] !== 'totals'),
      };
    };
    const sections = (rows: string[][]) => rows.map((r) => `${r[0]}:${r[3]}`);

    // Expenses only.
    let sent = await send('2025-03');
    expect(sent.data).toMatchObject({ totals: MARCH_TOTALS, counts: { transactions: 0, bills: 0, expenses: 4 } });
    expect(sections(sent.rows)).toEqual(Array(4).fill('expenses:expense'));
    expect(String(sent.mail.html)).not.toContain('Income <span');

    // Transactions without an expenses section: every transaction, income and expense, once.
    await c.post('/api/email/accountant', { email, includeTransactions: true, includeExpenses: false });
    sent = await send('2025-03');
    expect(sent.data.counts).toEqual({ transactions: 7, bills: 0, expenses: 0 });
    expect(sections(sent.rows).filter((x) => x === 'transactions:expense')).toHaveLength(4);
    expect(new Set(sent.rows.map((r) => r[1])).size).toBe(7);
    expect(String(sent.mail.html)).toContain('Transactions <span');

    // Bills only.
    await c.post('/api/email/accountant', { email, includeTransactions: false, includeBills: true });
    sent = await send('2025-03');
    expect(sent.data.counts).toEqual({ transactions: 0, bills: 2, expenses: 0 });
    expect(sections(sent.rows)).toEqual(['bills:bill', 'bills:bill']);

    // Nothing listed: the totals only (February has one BRL expense of 70.00).
    await c.post('/api/email/accountant', { email, includeBills: false });
    sent = await send('2025-02');
    expect(sent.data).toMatchObject({
      totals: [{ currency: 'BRL', income: 0, expenses: 70, balance: -70 }],
      counts: { transactions: 0, bills: 0, expenses: 0 },
    });
    const csv = csvOf(sent.mail);
    expect(csv.rows.map((r) => r[0])).toEqual(['section', 'totals', 'totals', 'totals']);
    expect(csv.rows[3].slice(3, 10)).toEqual(['balance', 'Balance 2025-02', '', '', '', '-70.00', 'BRL']);
    expect(totalsTableOf(String(sent.mail.html))[1]).toEqual(['BRL', '0.00', '70.00', '-70.00']);

    // A month without transactions: no totals at all (nothing is invented in a default currency).
    sent = await send('2024-12');
    expect(sent.data.totals).toEqual([]);
    expect(csvOf(sent.mail).rows).toEqual([CSV_COLUMNS]);
    expect(String(sent.mail.html)).toContain('No transactions in December 2024.');
  });

  it("lists a paid bill once in the month's expenses, with its supplier; cancelling the payment takes it out", async () => {
    const { account, c, email } = await configured();
    const token = account.admin.accessToken;
    const bill = await newFinanceBill(t, token, {
      supplier: '@Energia Elétrica',
      description: 'Conta de luz',
      category: 'utilities',
      amount: 1234.56,
      currency: 'USD',
    });
    expect((await c.post(`/api/bills/${bill.id}/pay`)).status).toBe(200);
    const expenses = await c.get('/api/transactions?kind=expense&limit=100');
    const [expense] = expenses.body.data.items.filter((x: { billId: string | null }) => x.billId === bill.id);
    expect(expense).toMatchObject({ amount: 1234.56, currency: 'USD', status: 'completed' });
    const month = expense.date.slice(0, 7); // the day the bill was paid (UTC)
    // Its due date in the same month, so the bill is listed too.
    expect((await c.put(`/api/bills/${bill.id}`, { dueDate: expense.date })).status).toBe(200);

    const send = async () => {
      const from = smtp.received.length;
      const res = await c.post('/api/email/accountant/send', { referenceMonth: month });
      expect(res.status).toBe(200);
      const [mail] = await mailsTo(email, from);
      return { data: res.body.data, rows: csvOf(mail).rows, html: String(mail.html) };
    };
    const paid = await send();
    expect(paid.data.totals).toEqual([{ currency: 'USD', income: 0, expenses: 1234.56, balance: -1234.56 }]);
    expect(paid.data.counts).toMatchObject({ expenses: 1, bills: 1 });
    const rowsOfBill = paid.rows.filter((r) => r[10] === bill.id);
    expect(rowsOfBill.map((r) => r[0])).toEqual(['expenses', 'bills']);
    expect(rowsOfBill[0]).toEqual([
      'expenses',
      expense.id,
      expense.date,
      'expense',
      "'@Energia Elétrica: Conta de luz",
      'utilities',
      "'@Energia Elétrica",
      'completed',
      '1234.56',
      'USD',
      bill.id,
    ]);
    expect(paid.html).toContain('@Energia Elétrica: Conta de luz');

    // Undoing the payment (paid -> cancelled) removes the expense: the month's report no longer has it.
    expect((await c.post(`/api/bills/${bill.id}/cancel`)).body.data).toMatchObject({
      status: 'cancelled',
      paidAt: null,
    });
    expect((await c.get(`/api/transactions/${expense.id}`)).status).toBe(404);
    const undone = await send();
    expect(undone.data.counts).toMatchObject({ expenses: 0, bills: 0 });
    expect(undone.rows.filter((r) => r[10] === bill.id)).toEqual([]);
    expect(undone.data.totals).toEqual([]);
  });

  it('answers 422 and sends nothing for a bad or future month, a missing accountant or missing SMTP', async () => {
    const ready = await configured();
    const noAccountant = await configured(null);
    const noSmtp = await configured({}, false);
    const nextMonth = (() => {
      const d = new Date();
      return utcMonth(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
    })();
    const cases: [ReturnType<typeof financeClient>, unknown, string][] = [
      [ready.c, { referenceMonth: '2025-3' }, 'validation_failed'],
      [ready.c, { referenceMonth: '2025-13' }, 'validation_failed'],
      [ready.c, { referenceMonth: '2025-03-01' }, 'validation_failed'],
      [ready.c, { referenceMonth: 202503 }, 'validation_failed'],
      [ready.c, {}, 'validation_failed'],
      [ready.c, { referenceMonth: nextMonth }, 'unprocessable_entity'],
      [noAccountant.c, { referenceMonth: '2025-03' }, 'accountant_not_configured'],
      [noSmtp.c, { referenceMonth: '2025-03' }, 'smtp_not_configured'],
    ];
    const received = smtp.received.length;
    const notifications = await countFinanceRows(t.db, 'notifications');
    for (const [client, body, code] of cases) {
      const res = await client.post('/api/email/accountant/send', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ success: false, error: { code } });
    }
    const future = await ready.c.post('/api/email/accountant/send', { referenceMonth: nextMonth });
    expect(future.body.error.details).toEqual([{ field: 'referenceMonth', message: 'must not be a future month' }]);
    expect((await noSmtp.c.post('/api/email/accountant/send', { referenceMonth: '2025-03' })).body.message).toContain(
      'SMTP is not configured',
    );
    expect(smtp.received.length).toBe(received);
    expect(await countFinanceRows(t.db, 'notifications')).toBe(notifications);
    // The current month is allowed (a report so far).
    expect((await ready.c.post('/api/email/accountant/send', { referenceMonth: utcMonth(Date.now()) })).status).toBe(
      200,
    );
  });
});

describe('automatic sending', () => {
  it("sends the previous month once on sendDay (clamped to the month's last day), even with two instances", async () => {
    const { account, email } = await configured({ autoSend: true, sendDay: 31 });
    await seedMarch(account.admin.accessToken);
    const accountId = Number(account.accountId);
    const one = (await financeServicesOf(t)).services.accountant;
    const two = (await financeServicesOf(t)).services.accountant;
    const from = smtp.received.length;

    expect(await one.sendDueAutomaticReports(Date.parse('2025-04-29T10:00:00Z'), accountId)).toBe(0);
    expect(await mailsTo(email, from)).toHaveLength(0);

    // April has 30 days: sendDay 31 means April 30. Two instances at once: one report.
    const day = Date.parse('2025-04-30T06:00:00Z');
    const sent = await Promise.all([
      one.sendDueAutomaticReports(day, accountId),
      two.sendDueAutomaticReports(day, accountId),
    ]);
    expect(sent.sort()).toEqual([0, 1]);
    expect(await one.sendDueAutomaticReports(day + 3_600_000, accountId)).toBe(0);
    expect(await one.sendDueAutomaticReports(Date.parse('2025-05-01T06:00:00Z'), accountId)).toBe(0); // May's day is May 31

    const mails = await mailsTo(email, from);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(`Financial report 2025-03 - ${account.name}`);
    const settings = await financeClient(t.app, account.admin.accessToken).get('/api/email/accountant');
    expect(settings.body.data.lastAutoSentMonth).toBe('2025-03');
    const notices = await notificationsOf(account);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      title: 'Monthly report sent to the accountant',
      message: `Report for 2025-03 sent to ${email}`,
    });
  });

  it('gives the month back when sending fails, tells the administrators once, and a later run tries again', async () => {
    const { account, c, email } = await configured({ autoSend: true, sendDay: 1 }, false);
    const agent = await addFinanceMember(t, account, 'agent');
    const accountant = (await financeServicesOf(t)).services.accountant;
    const accountId = Number(account.accountId);
    expect(await accountant.sendDueAutomaticReports(Date.parse('2025-05-02T06:00:00Z'), accountId)).toBe(0);
    expect((await c.get('/api/email/accountant')).body.data.lastAutoSentMonth).toBeNull();
    expect(await notificationsOf(account)).toHaveLength(0);
    // A system notification for the administrators (not the agent), not repeated by the next day's failure.
    expect(await accountant.sendDueAutomaticReports(Date.parse('2025-05-03T06:00:00Z'), accountId)).toBe(0);
    const system = await notificationsOf(account, 'system');
    expect(system.map((n) => String(n.user_id))).toEqual([account.admin.id]);
    expect(system[0].title).toBe('Automatic accountant report not sent');
    expect(system[0].message).toContain(
      'The report for 2025-04 could not be sent to the accountant: SMTP is not configured',
    );
    const listed = await financeClient(t.app, account.admin.accessToken).get('/api/notifications?type=system');
    expect(listed.body.data.notifications).toEqual([
      expect.objectContaining({ type: 'system', data: { referenceMonth: '2025-04', code: 'smtp_not_configured' } }),
    ]);
    expect((await financeClient(t.app, agent.accessToken).get('/api/notifications?type=system')).body.data.total).toBe(
      0,
    );

    await c.post('/api/email/smtp', smtpConfig());
    const from = smtp.received.length;
    expect(await accountant.sendDueAutomaticReports(Date.parse('2025-05-04T06:00:00Z'), accountId)).toBe(1);
    expect((await mailsTo(email, from)).map((m) => m.subject)).toEqual([`Financial report 2025-04 - ${account.name}`]);
  });

  it('is part of the daily job (run on demand here, with the real clock)', async () => {
    const { account, c, email } = await configured({ autoSend: true, sendDay: 1 });
    const from = smtp.received.length;
    const run = await c.post('/api/notifications/run-daily-job');
    expect(run.body.data.accountantReports).toBe(1);
    const month = previousMonth(utcMonth(Date.now()));
    expect((await mailsTo(email, from)).map((m) => m.subject)).toEqual([`Financial report ${month} - ${account.name}`]);
    expect((await c.post('/api/notifications/run-daily-job')).body.data.accountantReports).toBe(0);
  });
});
