import { toIso } from '../../../core/time.js';
import { centsText } from '../../calendar.js';
import type { AccountantSettings } from '../../db/schema.js';
import type { SentReport } from './accountant.service.js';

export const presentAccountant = (s: AccountantSettings) => ({
  email: s.email,
  name: s.name,
  autoSend: s.auto_send === 1,
  sendDay: s.send_day,
  includeTransactions: s.include_transactions === 1,
  includeBills: s.include_bills === 1,
  includeExpenses: s.include_expenses === 1,
  lastAutoSentMonth: s.last_auto_sent_month,
  updatedAt: toIso(s.updated_at),
});

/** Cents as the API's decimal number (through the exact text, so 0.1 + 0.2 never shows up). */
const amount = (cents: number) => Number(centsText(cents));

export const presentSentReport = (r: SentReport) => ({
  referenceMonth: r.referenceMonth,
  email: r.email,
  totals: r.totals.map((t) => ({
    currency: t.currency,
    income: amount(t.incomeCents),
    expenses: amount(t.expensesCents),
    balance: amount(t.balanceCents),
  })),
  counts: r.counts,
  messageId: r.messageId,
});
