import type { Language } from '../../../core/i18n/language.js';
import { centsText, monthRange, addDays } from '../../calendar.js';
import type { ReportBill, ReportTransaction } from './accountant-report.repository.js';
import { accountantWords, type AccountantWords } from './accountant.i18n.js';

/**
 * The monthly report as e-mail content: a CSV attachment, an HTML report and its plain-text twin,
 * all built from the same `ReportData`.
 *
 * - Totals are per currency (amounts in different currencies are never added together).
 * - Each transaction is listed once: when expenses have their own section, the transactions
 *   section holds the rest (the income); otherwise it holds every transaction.
 * - The CSV is RFC 4180 (comma separated, CRLF line ends, fields with a comma, quote or line break
 *   quoted and inner quotes doubled), UTF-8 with a byte order mark so spreadsheets read accents,
 *   amounts with 2 decimals and a dot. Text cells a spreadsheet would run as a formula get a
 *   leading apostrophe (CSV injection).
 * - Every word comes from the account's language (`accountant.i18n.ts`); the CSV keeps its machine
 *   format (comma separated, dot decimals) whatever the language, only its header is translated.
 */

export interface CurrencyTotals {
  currency: string;
  incomeCents: number;
  expensesCents: number;
  /** income - expenses */
  balanceCents: number;
}

export interface ReportData {
  accountName: string;
  /** The account's language (`accounts.locale`). */
  language: Language;
  referenceMonth: string;
  /** One entry per currency with transactions in the month, by currency code; empty when there are none. */
  totals: CurrencyTotals[];
  /** Null when the section is not included. Income only when `expenses` is listed too. */
  transactions: ReportTransaction[] | null;
  bills: ReportBill[] | null;
  expenses: ReportTransaction[] | null;
  /** The row cap of a section; a section that reached it is said to be cut. */
  maxRows: number;
}

export type SectionKey = 'transactions' | 'expenses' | 'bills';

/** One row of a list, whatever it lists. */
export interface ReportLine {
  id: number;
  date: string;
  /** income or expense (transactions), bill (bills). */
  type: string;
  description: string | null;
  category: string | null;
  /** The supplier of a bill, or of the bill an expense pays. */
  counterparty: string | null;
  status: string;
  amountCents: number;
  currency: string;
  /** The bill itself, or the bill an expense pays. */
  billId: number | null;
}

export interface ReportSection {
  key: SectionKey;
  label: string;
  lines: ReportLine[];
  cut: boolean;
}

/** The file name of the attachment. */
export const csvFileName = (referenceMonth: string, language: Language = 'en') =>
  accountantWords(language).fileName(referenceMonth);

/** '2025-03' -> 'March 2025' ('março de 2025' in pt-BR). */
export const monthLabel = (month: string, language: Language = 'en') => accountantWords(language).monthLabel(month);

/** The subject of the report e-mail. */
export const reportSubject = (report: ReportData) => {
  const w = accountantWords(report.language);
  return w.subject(w.monthLabel(report.referenceMonth), report.referenceMonth, report.accountName);
};

/** The first and last day of the month. */
function period(month: string) {
  const { first, next } = monthRange(month);
  return { first, last: addDays(next, -1) };
}

const fromTransaction = (t: ReportTransaction): ReportLine => ({
  id: t.id,
  date: t.date,
  type: t.kind,
  description: t.description,
  category: t.category,
  counterparty: t.counterparty,
  status: t.status,
  amountCents: Number(t.amount_cents),
  currency: t.currency,
  billId: t.bill_id,
});

const fromBill = (b: ReportBill): ReportLine => ({
  id: b.id,
  date: b.due_date,
  type: 'bill',
  description: b.description,
  category: b.category,
  counterparty: b.supplier,
  status: b.status,
  amountCents: Number(b.amount_cents),
  currency: b.currency,
  billId: b.id,
});

/** The included sections, in the order every part of the report shows them. */
export function reportSections(report: ReportData): ReportSection[] {
  const out: ReportSection[] = [];
  const w = accountantWords(report.language);
  const add = (key: SectionKey, label: string, lines: ReportLine[] | null) => {
    if (lines) out.push({ key, label, lines, cut: lines.length >= report.maxRows });
  };
  add(
    'transactions',
    report.expenses ? w.income : w.transactions,
    report.transactions && report.transactions.map(fromTransaction),
  );
  add('expenses', w.expenses, report.expenses && report.expenses.map(fromTransaction));
  add('bills', w.billsDue, report.bills && report.bills.map(fromBill));
  return out;
}

// ---- CSV ----

/** The English header (the other languages' are in accountant.i18n.ts). */
export const CSV_HEADER = accountantWords('en').csvHeader;

/** The byte order mark that tells spreadsheets the file is UTF-8. */
export const UTF8_BOM = '\uFEFF';

/**
 * A text cell as a spreadsheet will read it: cells that would start a formula (=, +, -, @, tab,
 * carriage return) get a leading apostrophe, so a description cannot run as a formula (CSV injection).
 */
const textCell = (value: string | null) => (value && /^[=+\-@\t\r]/.test(value) ? `'${value}` : (value ?? ''));

/** One CSV field (RFC 4180 quoting). */
export const csvField = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

const csvRow = (cells: string[]) => cells.map(csvField).join(',');

/**
 * The attachment: the header, the totals (section `totals`, one row per currency and figure:
 * type income, expense or balance), then one row per listed item.
 */
export function buildCsv(report: ReportData): string {
  const w = accountantWords(report.language);
  const rows: string[][] = [[...w.csvHeader]];
  const month = report.referenceMonth;
  for (const t of report.totals) {
    const total = (type: string, label: string, cents: number) =>
      rows.push(['totals', '', '', type, `${label} ${month}`, '', '', '', centsText(cents), t.currency, '']);
    total('income', w.income, t.incomeCents);
    total('expense', w.expenses, t.expensesCents);
    total('balance', w.balance, t.balanceCents);
  }
  for (const section of reportSections(report))
    for (const line of section.lines)
      rows.push([
        section.key,
        String(line.id),
        line.date,
        line.type,
        textCell(line.description),
        textCell(line.category),
        textCell(line.counterparty),
        line.status,
        centsText(line.amountCents),
        line.currency,
        line.billId === null ? '' : String(line.billId),
      ]);
  return UTF8_BOM + rows.map(csvRow).join('\r\n') + '\r\n';
}

// ---- HTML and text ----

/** How many rows of each list the e-mail body shows (the CSV has them all). */
export const MAX_BODY_ROWS = 50;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const oneLine = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();

/**
 * The counterparty worth showing next to a transaction's description: the supplier of the bill an
 * expense pays, unless the description already starts with it (as the expense of a payment does).
 */
const extraCounterparty = (l: ReportLine) => {
  const who = oneLine(l.counterparty);
  return who && !oneLine(l.description).startsWith(who) ? who : '';
};

/** What the body says about a section beyond its rows: how many are shown, and whether the CSV was cut. */
function sectionNote(section: ReportSection, maxRows: number, w: AccountantWords): string | null {
  const notes: string[] = [];
  if (section.lines.length > MAX_BODY_ROWS) notes.push(w.firstShown(MAX_BODY_ROWS, section.lines.length));
  if (section.cut) notes.push(w.cutAt(maxRows));
  return notes.length ? notes.join(' ') : null;
}

const C = {
  ink: '#111827',
  muted: '#6b7280',
  line: '#e5e7eb',
  head: '#f3f4f6',
  brand: '#1f4e79',
  negative: '#b42318',
  font: "Arial, 'Helvetica Neue', Helvetica, sans-serif",
};
const cell = (align: 'left' | 'right', extra = '') =>
  `style="padding:6px 8px;border-bottom:1px solid ${C.line};text-align:${align};vertical-align:top;${extra}"`;
const headCell = (align: 'left' | 'right') =>
  `style="padding:6px 8px;background:${C.head};border-bottom:1px solid ${C.line};text-align:${align};font-size:12px;font-weight:bold;color:#374151;text-transform:uppercase;letter-spacing:0.03em"`;
const amountCell = (text: string, cents: number, bold = false) =>
  `<td ${cell('right', `white-space:nowrap;font-variant-numeric:tabular-nums;${cents < 0 ? `color:${C.negative};` : ''}${bold ? 'font-weight:bold;' : ''}`)}>${escapeHtml(text)}</td>`;

function totalsTable(report: ReportData, w: AccountantWords): string {
  if (report.totals.length === 0)
    return `<p style="margin:0;color:${C.muted}">${escapeHtml(w.noTransactionsIn(w.monthLabel(report.referenceMonth)))}</p>`;
  const amount = (cents: number, currency: string, bold = false) => amountCell(w.money(cents, currency), cents, bold);
  const rows = report.totals
    .map(
      (t) =>
        `<tr><td ${cell('left', 'font-weight:bold')}>${escapeHtml(t.currency)}</td>${amount(t.incomeCents, t.currency)}${amount(t.expensesCents, t.currency)}${amount(t.balanceCents, t.currency, true)}</tr>`,
    )
    .join('\n');
  return [
    `<table class="totals" role="table" cellpadding="0" cellspacing="0" style="border-collapse:collapse;width:100%;font-size:14px">`,
    `<thead><tr><th ${headCell('left')}>${w.currency}</th><th ${headCell('right')}>${w.income}</th><th ${headCell('right')}>${w.expenses}</th><th ${headCell('right')}>${w.balance}</th></tr></thead>`,
    `<tbody>\n${rows}\n</tbody>`,
    '</table>',
  ].join('\n');
}

function sectionTable(section: ReportSection, maxRows: number, w: AccountantWords): string {
  const title = `<h2 style="margin:0 0 8px;font-size:16px;color:${C.ink}">${escapeHtml(section.label)} <span style="font-weight:normal;color:${C.muted}">(${section.lines.length})</span></h2>`;
  if (section.lines.length === 0) return `${title}<p style="margin:0;color:${C.muted}">${w.noneThisMonth}</p>`;
  const bills = section.key === 'bills';
  const head = [
    `<th ${headCell('left')}>${bills ? w.due : w.date}</th>`,
    ...(bills ? [`<th ${headCell('left')}>${w.supplier}</th>`] : []),
    `<th ${headCell('left')}>${w.description}</th>`,
    `<th ${headCell('left')}>${w.category}</th>`,
    `<th ${headCell('left')}>${w.status}</th>`,
    `<th ${headCell('right')}>${w.amount}</th>`,
  ].join('');
  const dash = `<span style="color:${C.muted}">&ndash;</span>`;
  const text = (s: string | null) => escapeHtml(oneLine(s)) || dash;
  const rows = section.lines
    .slice(0, MAX_BODY_ROWS)
    .map((l) => {
      const who = bills ? '' : extraCounterparty(l);
      const description =
        text(l.description) +
        (who ? `<br><span style="font-size:12px;color:${C.muted}">${escapeHtml(who)}</span>` : '');
      return [
        '<tr>',
        `<td ${cell('left', 'white-space:nowrap')}>${escapeHtml(l.date)}</td>`,
        bills ? `<td ${cell('left')}>${text(l.counterparty)}</td>` : '',
        `<td ${cell('left')}>${description}</td>`,
        `<td ${cell('left')}>${text(l.category)}</td>`,
        `<td ${cell('left', `color:${C.muted}`)}>${escapeHtml(l.status)}</td>`,
        `<td ${cell('right', 'white-space:nowrap;font-variant-numeric:tabular-nums')}>${escapeHtml(w.money(l.amountCents, l.currency))}${w.moneyNamesCurrency ? '' : ` <span style="color:${C.muted};font-size:12px">${escapeHtml(l.currency)}</span>`}</td>`,
        '</tr>',
      ].join('');
    })
    .join('\n');
  const note = sectionNote(section, maxRows, w);
  return [
    title,
    `<table cellpadding="0" cellspacing="0" style="border-collapse:collapse;width:100%;font-size:13px">`,
    `<thead><tr>${head}</tr></thead>`,
    `<tbody>\n${rows}\n</tbody>`,
    '</table>',
    note ? `<p style="margin:6px 0 0;font-size:12px;color:${C.muted}">${escapeHtml(note)}</p>` : '',
  ].join('\n');
}

export function buildHtml(report: ReportData): string {
  const w = accountantWords(report.language);
  const month = w.monthLabel(report.referenceMonth);
  const { first, last } = period(report.referenceMonth);
  const block = (inner: string, extra = '') => `<tr><td style="padding:20px 28px 4px;${extra}">${inner}</td></tr>`;
  const sections = reportSections(report);
  const file = w.fileName(report.referenceMonth);
  return [
    '<!doctype html>',
    `<html lang="${w.htmlLang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${w.reportTitle} ${escapeHtml(month)} - ${escapeHtml(report.accountName)}</title></head>`,
    `<body style="margin:0;padding:0;background:${C.head};font-family:${C.font};color:${C.ink}">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${C.head}"><tr><td align="center" style="padding:24px 12px">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:760px;background:#ffffff;border:1px solid ${C.line};border-radius:8px;font-family:${C.font};color:${C.ink};text-align:left">`,
    `<tr><td style="padding:24px 28px 18px;border-bottom:4px solid ${C.brand}">`,
    `<div style="font-size:12px;letter-spacing:0.08em;text-transform:uppercase;color:${C.muted}">${w.reportTitle}</div>`,
    `<h1 style="margin:4px 0 2px;font-size:24px;line-height:1.25;color:${C.ink}">${escapeHtml(report.accountName)}</h1>`,
    `<div style="font-size:16px;color:#374151"><strong>${escapeHtml(month)}</strong> <span style="color:${C.muted}">&middot; ${w.range(first, last)}</span></div>`,
    '</td></tr>',
    block(
      `<h2 style="margin:0 0 8px;font-size:16px;color:${C.ink}">${w.totalsPerCurrency}</h2>\n${totalsTable(report, w)}\n` +
        `<p style="margin:6px 0 0;font-size:12px;color:${C.muted}">${w.totalsNote}</p>`,
    ),
    ...sections.map((s) => block(sectionTable(s, report.maxRows, w))),
    sections.length === 0 ? block(`<p style="margin:0;color:${C.muted}">${w.noLists}</p>`) : '',
    `<tr><td style="padding:20px 28px 24px;font-size:12px;color:${C.muted};line-height:1.5">`,
    w.attachedHtml(escapeHtml(file), sections.length > 0),
    w.paidBillNote,
    '</td></tr>',
    '</table>',
    '</td></tr></table>',
    '</body></html>',
  ]
    .filter(Boolean)
    .join('\n');
}

export function buildText(report: ReportData): string {
  const w = accountantWords(report.language);
  const month = w.monthLabel(report.referenceMonth);
  const { first, last } = period(report.referenceMonth);
  // English keeps its plain amounts (the currency is a column); pt-BR writes R$ 1.234,56.
  const money = (cents: number, currency: string) =>
    w.moneyNamesCurrency ? w.money(cents, currency) : centsText(cents);
  const out = [
    `${w.reportTitle} - ${month} (${report.referenceMonth})`,
    `${w.account}: ${report.accountName}`,
    `${w.period}: ${w.range(first, last)}`,
    '',
    w.totalsPerCurrency.toUpperCase(),
  ];
  if (report.totals.length === 0) out.push(w.noTransactionsIn(month));
  else {
    const row = (cells: string[]) =>
      cells[0].padEnd(10) +
      cells
        .slice(1)
        .map((c) => c.padStart(18))
        .join('');
    out.push(row([w.currency, w.income, w.expenses, w.balance]));
    for (const t of report.totals)
      out.push(
        row([
          t.currency,
          money(t.incomeCents, t.currency),
          money(t.expensesCents, t.currency),
          money(t.balanceCents, t.currency),
        ]),
      );
    out.push(w.neverAdded);
  }
  const sections = reportSections(report);
  for (const section of sections) {
    out.push('', `${section.label.toUpperCase()} (${section.lines.length})`);
    if (section.lines.length === 0) out.push(w.noneThisMonth);
    for (const l of section.lines.slice(0, MAX_BODY_ROWS)) {
      const what =
        (section.key === 'bills'
          ? [oneLine(l.counterparty), oneLine(l.description)].filter(Boolean).join(': ')
          : [oneLine(l.description), extraCounterparty(l) && `(${extraCounterparty(l)})`].filter(Boolean).join(' ')) ||
        '-';
      const amount = w.moneyNamesCurrency
        ? w.money(l.amountCents, l.currency).padStart(20)
        : `${centsText(l.amountCents).padStart(16)} ${l.currency}`;
      out.push(`${l.date}  ${amount}  ${l.status.padEnd(9)}  ${what}`);
    }
    const note = sectionNote(section, report.maxRows, w);
    if (note) out.push(note);
  }
  if (sections.length === 0) out.push('', w.noLists);
  out.push('', w.attachedText(w.fileName(report.referenceMonth)), '');
  return out.join('\n');
}
