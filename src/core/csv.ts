import { CsvError, parse } from 'csv-parse/sync';

/**
 * CSV for spreadsheets, both ways. Writing: RFC 4180 quoting, and any text cell a spreadsheet would
 * read as a formula (starting with =, +, -, @, a tab or a carriage return) prefixed with a single
 * quote. Reading: csv-parse (quoted fields, embedded line breaks, CRLF, a UTF-8 BOM), and the
 * single quote that writing put before a formula-like text taken off again.
 */

/** The UTF-8 byte order mark: spreadsheets read a file that starts with it as UTF-8 (accents intact). */
export const UTF8_BOM = '\uFEFF';

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRows(rows: readonly (readonly (string | number | null | undefined)[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** The text a cell written by `csvCell` held: a quote before a formula-like text is taken off. */
export const readCell = (cell: string): string => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

/** Why a text is not CSV, and where: the line the parser stopped at. */
export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/**
 * The rows of a CSV text (a leading BOM skipped), each cell as written, one per record as a
 * spreadsheet shows them (an empty line is a row of one empty cell); rows may differ in length:
 * the caller says which lengths it takes.
 */
export function parseCsv(text: string): string[][] {
  try {
    return parse(text, { bom: true, relax_column_count: true }) as string[][];
  } catch (err) {
    if (err instanceof CsvError) throw new CsvSyntaxError(err.message, Number(err.lines ?? 0));
    throw err;
  }
}
