import { centsText } from '../../calendar.js';
import type { ReportBill, ReportTransaction } from './accountant-report.repository.js';

/**
 * The monthly report as e-mail content: a CSV attachment (RFC 4180: comma separated, CRLF line
 * ends, fields with a comma, quote or line break quoted and inner quotes doubled; a header row and
 * one row per item; amounts with 2 decimals and a dot), an HTML summary and its plain-text twin.
 */

export interface ReportData {
  accountName: string;
  referenceMonth: string;
  totals: { incomeCents: number; expensesCents: number; balanceCents: number };
  /** Null when the section is not included. */
  transactions: ReportTransaction[] | null;
  bills: ReportBill[] | null;
  expenses: ReportTransaction[] | null;
  /** The row cap of a section; a section that reached it is said to be cut. */
  maxRows: number;
}

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
] as const;

/**
 * A text cell as a spreadsheet will read it: cells that would start a formula (=, +, -, @, tab,
 * carriage return) get a leading apostrophe, so a description cannot run as a formula (CSV injection).
 */
const textCell = (value: string | null) => (value && /^[=+\-@\t\r]/.test(value) ? `'${value}` : (value ?? ''));

/** One CSV field (RFC 4180 quoting). */
export const csvField = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

const csvRow = (cells: string[]) => cells.map(csvField).join(',');

export function buildCsv(report: ReportData): string {
  const rows: string[][] = [[...CSV_HEADER]];
  const tx = (section: string, t: ReportTransaction) => [
    section,
    String(t.id),
    t.date,
    t.kind,
    textCell(t.description),
    textCell(t.category),
    '',
    t.status,
    centsText(t.amount_cents),
    t.currency,
  ];
  for (const t of report.transactions ?? []) rows.push(tx('transactions', t));
  for (const b of report.bills ?? [])
    rows.push([
      'bills',
      String(b.id),
      b.due_date,
      'bill',
      textCell(b.description),
      textCell(b.category),
      textCell(b.supplier),
      b.status,
      centsText(b.amount_cents),
      b.currency,
    ]);
  for (const e of report.expenses ?? []) rows.push(tx('expenses', e));
  return rows.map(csvRow).join('\r\n') + '\r\n';
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function sections(report: ReportData) {
  const out: { label: string; count: number; cut: boolean }[] = [];
  const add = (label: string, rows: unknown[] | null) => {
    if (rows) out.push({ label, count: rows.length, cut: rows.length >= report.maxRows });
  };
  add('Transactions', report.transactions);
  add('Bills due in the month', report.bills);
  add('Expenses', report.expenses);
  return out;
}

export function buildHtml(report: ReportData): string {
  const { totals } = report;
  const line = (label: string, cents: number) =>
    `<tr><th style="text-align:left;padding:4px 12px 4px 0">${label}</th><td style="text-align:right">${centsText(cents)}</td></tr>`;
  const listed = sections(report)
    .map((s) => `<li>${escapeHtml(s.label)}: ${s.count}${s.cut ? ` (the first ${report.maxRows} only)` : ''}</li>`)
    .join('');
  return [
    '<!doctype html><html><body style="font-family:sans-serif">',
    `<h2>Financial report ${escapeHtml(report.referenceMonth)} &mdash; ${escapeHtml(report.accountName)}</h2>`,
    '<table>',
    line('Income', totals.incomeCents),
    line('Expenses', totals.expensesCents),
    line('Balance', totals.balanceCents),
    '</table>',
    listed
      ? `<p>Attached (CSV):</p><ul>${listed}</ul>`
      : '<p>No lists were requested; the attached CSV has only its header row.</p>',
    '<p style="color:#666">Totals count the transactions of the month that are not cancelled.</p>',
    '</body></html>',
  ].join('\n');
}

export function buildText(report: ReportData): string {
  const { totals } = report;
  const listed = sections(report).map(
    (s) => `- ${s.label}: ${s.count}${s.cut ? ` (the first ${report.maxRows} only)` : ''}`,
  );
  return [
    `Financial report ${report.referenceMonth} - ${report.accountName}`,
    '',
    `Income:   ${centsText(totals.incomeCents)}`,
    `Expenses: ${centsText(totals.expensesCents)}`,
    `Balance:  ${centsText(totals.balanceCents)}`,
    '',
    ...(listed.length
      ? ['Attached (CSV):', ...listed]
      : ['No lists were requested; the attached CSV has only its header row.']),
    '',
  ].join('\n');
}
