import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../../core/http/schemas.js';

export const AccountantSaveBody = Type.Object({
  email: Type.String({ format: 'email', maxLength: 320, description: "the accountant's address" }),
  name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  autoSend: Type.Optional(
    Type.Boolean({ description: "send the previous month's report automatically on sendDay (default false)" }),
  ),
  sendDay: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 31,
      description: "day of the month for automatic sending (default 1; 31 means the month's last day)",
    }),
  ),
  includeTransactions: Type.Optional(
    Type.Boolean({ description: 'list the transactions of the month (default true)' }),
  ),
  includeBills: Type.Optional(Type.Boolean({ description: 'list the bills due in the month (default true)' })),
  includeExpenses: Type.Optional(
    Type.Boolean({ description: 'list the expenses (expense transactions) of the month (default true)' }),
  ),
});
export type AccountantSaveBody = Static<typeof AccountantSaveBody>;

export const AccountantSchema = Type.Object({
  email: Type.String(),
  name: Nullable(Type.String()),
  autoSend: Type.Boolean(),
  sendDay: Type.Integer(),
  includeTransactions: Type.Boolean(),
  includeBills: Type.Boolean(),
  includeExpenses: Type.Boolean(),
  lastAutoSentMonth: Nullable(Type.String({ description: "'YYYY-MM' of the last report sent automatically" })),
  updatedAt: Type.String({ description: 'ISO 8601' }),
});

export const SendReportBody = Type.Object({
  referenceMonth: Type.String({
    pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$',
    maxLength: 7,
    description: "the month of the report, 'YYYY-MM' (not in the future)",
    examples: ['2026-10'],
  }),
});
export type SendReportBody = Static<typeof SendReportBody>;

const Amount = Type.Number({ description: 'decimal amount with 2 decimals' });

/** The totals of one currency: amounts in different currencies are never added together. */
export const ReportTotalsSchema = Type.Object({
  currency: Type.String({ description: 'three-letter currency code' }),
  income: Amount,
  expenses: Amount,
  balance: Type.Number({ description: 'income - expenses (negative when expenses are larger)' }),
});

export const SendReportResultSchema = Type.Object({
  referenceMonth: Type.String(),
  email: Type.String(),
  totals: Type.Array(ReportTotalsSchema, {
    description:
      'one entry per currency with transactions in the month (not cancelled), by currency code; empty when there are none',
  }),
  counts: Type.Object({
    transactions: Type.Integer({
      description:
        'rows in the transactions section (the income when expenses are listed apart, else every transaction; 0 when not included)',
    }),
    bills: Type.Integer({ description: 'bills due in the month (0 when not included)' }),
    expenses: Type.Integer({ description: 'expense transactions, paid bills included (0 when not included)' }),
  }),
  messageId: Type.String(),
});
