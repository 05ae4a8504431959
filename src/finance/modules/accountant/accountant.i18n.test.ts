import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSmtpServer } from '../../../../test/helpers/smtp.js';
import { buildFinanceTestApp, type FinanceTestApp } from '../../../../test/helpers/test-app.js';
import {
  financeClient,
  financePatch,
  newFinanceAccount,
  newFinanceTransaction,
  type FinanceTestAccount,
} from '../../../../test/helpers/finance-factories.js';

/**
 * The report e-mail in the account's language (`locale`), received by a real SMTP server: pt-BR
 * writes the subject, headings, month name and amounts (R$ 1.234,56) in Portuguese, names the
 * attachment and its header in Portuguese, and keeps the CSV's machine format; English unchanged.
 */

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

/** Intl separates the currency symbol with a no-break space; compare with plain spaces. */
const plain = (s: string) => s.replace(/\u00a0/g, ' ');

/** An account named `name` in `locale`, with SMTP and the accountant, and March 2025 in BRL and USD. */
async function accountIn(locale: 'en' | 'pt-BR', name: string) {
  const account = await newFinanceAccount(t, { name });
  const token = account.admin.accessToken;
  const c = financeClient(t.app, token);
  expect((await financePatch(t.app, token, `/api/accounts/${account.accountId}`, { locale })).status).toBe(200);
  const smtpSettings = {
    host: '127.0.0.1',
    port: smtp.port,
    secure: false,
    user: 'tester',
    password: 'secret',
    fromName: 'Padaria',
    fromEmail: 'finance@padaria.test',
  };
  expect((await c.post('/api/email/smtp', smtpSettings)).status).toBe(200);
  const email = `contador-${account.accountId}@contadores.test`;
  expect((await c.post('/api/email/accountant', { email, name: 'Carla Contadora' })).status).toBe(200);
  const tx = (fields: Record<string, unknown>) => newFinanceTransaction(t, token, { status: 'completed', ...fields });
  await tx({ kind: 'income', amount: 1234.56, date: '2025-03-03', description: 'Vendas do balcão' });
  await tx({ kind: 'expense', amount: 200, date: '2025-03-10', description: 'Farinha', category: 'supplies' });
  await tx({ kind: 'income', amount: 10, currency: 'USD', date: '2025-03-11', description: 'Export' });
  return { account, c, email };
}

async function sendMarch(account: FinanceTestAccount, c: ReturnType<typeof financeClient>, email: string) {
  const from = smtp.received.length;
  const res = await c.post('/api/email/accountant/send', { referenceMonth: '2025-03' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const raw = smtp.received.slice(from).filter((m) => m.to.includes(email));
  expect(raw).toHaveLength(1);
  const mail: ParsedMail = await simpleParser(raw[0].raw);
  const attachment = mail.attachments.find((a) => a.filename?.endsWith('.csv'));
  expect(attachment, account.accountId).toBeDefined();
  const csv = attachment!.content.toString('utf8').replace(/^\uFEFF/, '');
  return { mail, html: plain(String(mail.html)), text: plain(mail.text ?? ''), attachment: attachment!, csv };
}

describe('the accountant report in the account language', () => {
  it('pt-BR: subject, headings, month name and amounts in Portuguese; CSV header and name too', async () => {
    const { account, c, email } = await accountIn('pt-BR', 'Padaria São João');
    const { mail, html, text, attachment, csv } = await sendMarch(account, c, email);

    expect(mail.subject).toBe('Relatório financeiro de março de 2025 - Padaria São João');
    expect(html).toContain('<html lang="pt-BR">');
    expect(html).toContain('março de 2025');
    expect(html).toContain('2025-03-01 a 2025-03-31');
    for (const words of ['Totais por moeda', 'Receitas <span', 'Despesas <span', 'Descrição', 'Anexo:'])
      expect(html).toContain(words);
    const totals = /<table class="totals"[\s\S]*?<\/table>/.exec(html)?.[0] ?? '';
    const cells = [...totals.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
      [...row[1].matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) => cell[1].replace(/<[^>]+>/g, '').trim()),
    );
    expect(cells).toEqual([
      ['Moeda', 'Receitas', 'Despesas', 'Saldo'],
      ['BRL', 'R$ 1.234,56', 'R$ 200,00', 'R$ 1.034,56'],
      ['USD', 'US$ 10,00', 'US$ 0,00', 'US$ 10,00'],
    ]);
    expect(html).toContain('R$ 1.234,56</td>'); // the transaction's row names its currency once
    expect(html).not.toMatch(/Financial report|Totals per currency|March/);

    expect(text).toContain('Relatório financeiro - março de 2025 (2025-03)');
    expect(text).toContain('Conta: Padaria São João');
    expect(text).toContain('Período: 2025-03-01 a 2025-03-31');
    expect(text).toMatch(/^BRL\s+R\$ 1\.234,56\s+R\$ 200,00\s+R\$ 1\.034,56$/m);
    expect(text).toMatch(/^2025-03-03\s+R\$ 1\.234,56\s+\w+\s+Vendas do balcão$/m);

    expect(attachment.filename).toBe('relatorio-financeiro-2025-03.csv');
    const rows = csv.split('\r\n');
    expect(rows[0]).toBe('secao,id,data,tipo,descricao,categoria,contraparte,situacao,valor,moeda,conta_id');
    // The values keep their machine format (dot decimals): only the words change.
    expect(rows[1]).toBe('totals,,,income,Receitas 2025-03,,,,1234.56,BRL,');

    // The members' notice of the send is in Portuguese too.
    const notices = await t.db
      .selectFrom('notifications')
      .select(['title', 'message'])
      .where('account_id', '=', Number(account.accountId))
      .where('type', '=', 'accountant_sent')
      .execute();
    expect(notices).toEqual([
      { title: 'Relatório enviado ao contador', message: `Relatório de 2025-03 enviado para ${email}` },
    ]);
  });

  it('en: unchanged', async () => {
    const { account, c, email } = await accountIn('en', 'Bakery');
    const { mail, html, text, attachment, csv } = await sendMarch(account, c, email);
    expect(mail.subject).toBe('Financial report 2025-03 - Bakery');
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('March 2025');
    expect(html).toContain('Totals per currency');
    expect(html).toContain('>1 234.56</td>'); // grouped by a no-break space, as before
    expect(text).toContain('Financial report - March 2025 (2025-03)');
    expect(text).toMatch(/^BRL\s+1234\.56\s+200\.00\s+1034\.56$/m);
    expect(attachment.filename).toBe('financial-report-2025-03.csv');
    expect(csv.split('\r\n').slice(0, 2)).toEqual([
      'section,id,date,type,description,category,counterparty,status,amount,currency,bill_id',
      'totals,,,income,Income 2025-03,,,,1234.56,BRL,',
    ]);
  });
});
