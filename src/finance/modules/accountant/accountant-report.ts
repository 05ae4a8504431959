import { centsText, monthRange, addDays } from '../../calendar.js';
import type { ReportBill, ReportTransaction } from './accountant-report.repository.js';

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
export const csvFileName = (referenceMonth: string) => `financial-report-${referenceMonth}.csv`;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** '2025-03' -> 'March 2025'. */
export const monthLabel = (month: string) => `${MONTHS[Number(month.slice(5, 7)) - 1]} ${month.slice(0, 4)}`;

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
  const add = (key: SectionKey, label: string, lines: ReportLine[] | null) => {
    if (lines) out.push({ key, label, lines, cut: lines.length >= report.maxRows });
  };
  add(
    'transactions',
    report.expenses ? 'Income' : 'Transactions',
    report.transactions && report.transactions.map(fromTransaction),
  );
  add('expenses', 'Expenses', report.expenses && report.expenses.map(fromTransaction));
  add('bills', 'Bills due in the month', report.bills && report.bills.map(fromBill));
  return out;
}

// ---- CSV ----

export const CSV_HEADER = [
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
] as const;

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
  const rows: string[][] = [[...CSV_HEADER]];
  const month = report.referenceMonth;
  for (const t of report.totals) {
    const total = (type: string, label: string, cents: number) =>
      rows.push(['totals', '', '', type, `${label} ${month}`, '', '', '', centsText(cents), t.currency, '']);
    total('income', 'Income', t.incomeCents);
    total('expense', 'Expenses', t.expensesCents);
    total('balance', 'Balance', t.balanceCents);
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

/**
 * Amounts in the HTML: thousands grouped by a no-break space (neither a dot nor a comma, so no
 * locale reads it as the decimal mark).
 */
const grouped = (cents: number) => {
  const [whole, fraction] = centsText(cents).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0')}.${fraction}`;
};

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
function sectionNote(section: ReportSection, maxRows: number): string | null {
  const notes: string[] = [];
  if (section.lines.length > MAX_BODY_ROWS)
    notes.push(`The first ${MAX_BODY_ROWS} of ${section.lines.length} are shown; the attached CSV lists them all.`);
  if (section.cut) notes.push(`The list stops at ${maxRows} rows: there may be more in the month.`);
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
const amountCell = (cents: number, bold = false) =>
  `<td ${cell('right', `white-space:nowrap;font-variant-numeric:tabular-nums;${cents < 0 ? `color:${C.negative};` : ''}${bold ? 'font-weight:bold;' : ''}`)}>${grouped(cents)}</td>`;

function totalsTable(report: ReportData): string {
  if (report.totals.length === 0)
    return `<p style="margin:0;color:${C.muted}">No transactions in ${escapeHtml(monthLabel(report.referenceMonth))}.</p>`;
  const rows = report.totals
    .map(
      (t) =>
        `<tr><td ${cell('left', 'font-weight:bold')}>${escapeHtml(t.currency)}</td>${amountCell(t.incomeCents)}${amountCell(t.expensesCents)}${amountCell(t.balanceCents, true)}</tr>`,
    )
    .join('\n');
  return [
    `<table class="totals" role="table" cellpadding="0" cellspacing="0" style="border-collapse:collapse;width:100%;font-size:14px">`,
    `<thead><tr><th ${headCell('left')}>Currency</th><th ${headCell('right')}>Income</th><th ${headCell('right')}>Expenses</th><th ${headCell('right')}>Balance</th></tr></thead>`,
    `<tbody>\n${rows}\n</tbody>`,
    '</table>',
  ].join('\n');
}

function sectionTable(section: ReportSection, maxRows: number): string {
  const title = `<h2 style="margin:0 0 8px;font-size:16px;color:${C.ink}">${escapeHtml(section.label)} <span style="font-weight:normal;color:${C.muted}">(${section.lines.length})</span></h2>`;
  if (section.lines.length === 0) return `${title}<p style="margin:0;color:${C.muted}">None in this month.</p>`;
  const bills = section.key === 'bills';
  const head = [
    `<th ${headCell('left')}>${bills ? 'Due' : 'Date'}</th>`,
    ...(bills ? [`<th ${headCell('left')}>Supplier</th>`] : []),
    `<th ${headCell('left')}>Description</th>`,
    `<th ${headCell('left')}>Category</th>`,
    `<th ${headCell('left')}>Status</th>`,
    `<th ${headCell('right')}>Amount</th>`,
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
        `<td ${cell('right', 'white-space:nowrap;font-variant-numeric:tabular-nums')}>${grouped(l.amountCents)} <span style="color:${C.muted};font-size:12px">${escapeHtml(l.currency)}</span></td>`,
        '</tr>',
      ].join('');
    })
    .join('\n');
  const note = sectionNote(section, maxRows);
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
  const month = monthLabel(report.referenceMonth);
  const { first, last } = period(report.referenceMonth);
  const block = (inner: string, extra = '') => `<tr><td style="padding:20px 28px 4px;${extra}">${inner}</td></tr>`;
  const sections = reportSections(report);
  const file = csvFileName(report.referenceMonth);
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>Financial report ${escapeHtml(month)} - ${escapeHtml(report.accountName)}</title></head>`,
    `<body style="margin:0;padding:0;background:${C.head};font-family:${C.font};color:${C.ink}">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${C.head}"><tr><td align="center" style="padding:24px 12px">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:760px;background:#ffffff;border:1px solid ${C.line};border-radius:8px;font-family:${C.font};color:${C.ink};text-align:left">`,
    `<tr><td style="padding:24px 28px 18px;border-bottom:4px solid ${C.brand}">`,
    `<div style="font-size:12px;letter-spacing:0.08em;text-transform:uppercase;color:${C.muted}">Financial report</div>`,
    `<h1 style="margin:4px 0 2px;font-size:24px;line-height:1.25;color:${C.ink}">${escapeHtml(report.accountName)}</h1>`,
    `<div style="font-size:16px;color:#374151"><strong>${escapeHtml(month)}</strong> <span style="color:${C.muted}">&middot; ${first} to ${last}</span></div>`,
    '</td></tr>',
    block(
      `<h2 style="margin:0 0 8px;font-size:16px;color:${C.ink}">Totals per currency</h2>\n${totalsTable(report)}\n` +
        `<p style="margin:6px 0 0;font-size:12px;color:${C.muted}">Transactions of the month that are not cancelled. Each currency is totalled on its own; amounts in different currencies are never added together.</p>`,
    ),
    ...sections.map((s) => block(sectionTable(s, report.maxRows))),
    sections.length === 0
      ? block(`<p style="margin:0;color:${C.muted}">No lists were requested; the attached CSV has the totals only.</p>`)
      : '',
    `<tr><td style="padding:20px 28px 24px;font-size:12px;color:${C.muted};line-height:1.5">`,
    `Attached: <strong style="color:${C.ink}">${escapeHtml(file)}</strong> (UTF-8, comma separated) with the totals and every row of ${sections.length ? 'these lists' : 'the report'}, each once. `,
    'A paid bill appears among the expenses of the month it was paid in; bills are listed by due date.',
    '</td></tr>',
    '</table>',
    '</td></tr></table>',
    '</body></html>',
  ]
    .filter(Boolean)
    .join('\n');
}

export function buildText(report: ReportData): string {
  const month = monthLabel(report.referenceMonth);
  const { first, last } = period(report.referenceMonth);
  const out = [
    `Financial report - ${month} (${report.referenceMonth})`,
    `Account: ${report.accountName}`,
    `Period: ${first} to ${last}`,
    '',
    'TOTALS PER CURRENCY',
  ];
  if (report.totals.length === 0) out.push(`No transactions in ${month}.`);
  else {
    const row = (cells: string[]) =>
      cells[0].padEnd(10) +
      cells
        .slice(1)
        .map((c) => c.padStart(18))
        .join('');
    out.push(row(['Currency', 'Income', 'Expenses', 'Balance']));
    for (const t of report.totals)
      out.push(row([t.currency, centsText(t.incomeCents), centsText(t.expensesCents), centsText(t.balanceCents)]));
    out.push('Currencies are never added together.');
  }
  const sections = reportSections(report);
  for (const section of sections) {
    out.push('', `${section.label.toUpperCase()} (${section.lines.length})`);
    if (section.lines.length === 0) out.push('None in this month.');
    for (const l of section.lines.slice(0, MAX_BODY_ROWS)) {
      const what =
        (section.key === 'bills'
          ? [oneLine(l.counterparty), oneLine(l.description)].filter(Boolean).join(': ')
          : [oneLine(l.description), extraCounterparty(l) && `(${extraCounterparty(l)})`].filter(Boolean).join(' ')) ||
        '-';
      out.push(`${l.date}  ${centsText(l.amountCents).padStart(16)} ${l.currency}  ${l.status.padEnd(9)}  ${what}`);
    }
    const note = sectionNote(section, report.maxRows);
    if (note) out.push(note);
  }
  if (sections.length === 0) out.push('', 'No lists were requested; the attached CSV has the totals only.');
  out.push('', `Attached: ${csvFileName(report.referenceMonth)} (UTF-8, comma separated), every row once.`, '');
  return out.join('\n');
}
