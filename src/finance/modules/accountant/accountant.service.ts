import { HttpError, invalidField, notFound } from '../../../core/http/errors.js';
import { daysInMonth, monthRange, previousMonth, utcDay, utcMonth } from '../../calendar.js';
import type { FinanceContext, FinanceDeps, Trx } from '../../context.js';
import type { AccountantSettings } from '../../db/schema.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import { smtpNotConfigured, type SmtpService } from '../smtp/smtp.service.js';
import * as reports from './accountant-report.repository.js';
import {
  buildCsv,
  buildHtml,
  buildText,
  csvFileName,
  reportSubject,
  type CurrencyTotals,
  type ReportData,
} from './accountant-report.js';
import { accountantWords } from './accountant.i18n.js';
import * as repo from './accountant.repository.js';
import type { AccountantSaveBody } from './accountant.schema.js';
import { render } from '../../../core/i18n/catalogue.js';

/** The most rows one section of the CSV lists. */
export const MAX_REPORT_ROWS = 10_000;

export const accountantNotConfigured = () =>
  new HttpError(
    422,
    'accountant_not_configured',
    'The accountant is not configured for this account: save it with POST /api/email/accountant',
  );

export interface SentReport {
  referenceMonth: string;
  email: string;
  /** Per currency, by currency code; empty when the month has no transaction. */
  totals: CurrencyTotals[];
  /** Rows of each CSV section (0 when not included). */
  counts: { transactions: number; bills: number; expenses: number };
  messageId: string;
}

const flag = (value: boolean | undefined, current: number | undefined, fallback: boolean) =>
  value !== undefined ? (value ? 1 : 0) : (current ?? (fallback ? 1 : 0));

/**
 * The accountant's contact and report options (one per account), and the monthly report: totals
 * and lists of the finance data, sent through the account's SMTP configuration with a CSV
 * attachment, then an `accountant_sent` notification for the members who want it.
 */
export class AccountantService {
  constructor(
    private readonly deps: FinanceDeps,
    private readonly smtp: SmtpService,
    private readonly accounts: AccountsService,
    private readonly notifications: NotificationsService,
    private readonly clock: () => number = Date.now,
  ) {}

  async get(ctx: FinanceContext): Promise<AccountantSettings | null> {
    return (await repo.findAccountant(this.deps.db, ctx.accountId)) ?? null;
  }

  /** Creates or replaces the configuration; omitted options keep their value (defaults on the first save). */
  async save(ctx: FinanceContext, body: AccountantSaveBody): Promise<AccountantSettings> {
    const email = body.email.trim();
    if (email === '') throw invalidField('email', 'must not be blank');
    return this.deps.db.transaction().execute(async (trx) => {
      const existing = await repo.findAccountant(trx, ctx.accountId);
      const now = this.clock();
      const values = {
        email,
        name: body.name !== undefined ? body.name?.trim() || null : (existing?.name ?? null),
        auto_send: flag(body.autoSend, existing?.auto_send, false),
        send_day: body.sendDay ?? existing?.send_day ?? 1,
        include_transactions: flag(body.includeTransactions, existing?.include_transactions, true),
        include_bills: flag(body.includeBills, existing?.include_bills, true),
        include_expenses: flag(body.includeExpenses, existing?.include_expenses, true),
        updated_at: now,
      };
      if (existing) return repo.updateAccountant(trx, ctx.accountId, values);
      return repo.insertAccountant(trx, {
        ...values,
        account_id: ctx.accountId,
        last_auto_sent_month: null,
        created_at: now,
      });
    });
  }

  async delete(ctx: FinanceContext): Promise<void> {
    const deleted = await this.deps.db.transaction().execute((trx) => repo.deleteAccountant(trx, ctx.accountId));
    if (!deleted) throw notFound('Accountant configuration');
  }

  /**
   * Sends the report of `referenceMonth` now. 422 for a future month (UTC), without an accountant
   * configuration, or without SMTP; nothing is sent then, and nothing is recorded when sending fails.
   */
  async send(ctx: FinanceContext, referenceMonth: string): Promise<SentReport> {
    if (referenceMonth > utcMonth(this.clock())) throw invalidField('referenceMonth', 'must not be a future month');
    const settings = await repo.findAccountant(this.deps.db, ctx.accountId);
    if (!settings) throw accountantNotConfigured();
    if (!(await this.smtp.get(ctx))) throw smtpNotConfigured();
    return this.sendReport(settings, referenceMonth, false);
  }

  /**
   * The daily job's part: for each account (or the one given) with automatic sending on, sends the
   * previous month's report on the first run on or after its send day (clamped to the month's last
   * day) of the current month (UTC). The month is claimed with a conditional UPDATE before sending,
   * so several instances send it once; a failed send gives the claim back (the next daily run
   * tries again) and is logged. Returns how many reports were sent.
   */
  async sendDueAutomaticReports(now: number, accountId?: number): Promise<number> {
    const today = utcDay(now);
    const month = today.slice(0, 7);
    const reportMonth = previousMonth(month);
    const dayOfMonth = Number(today.slice(8, 10));
    let sent = 0;
    for (const candidate of await repo.listAutoSendPending(this.deps.db, reportMonth, accountId)) {
      if (Math.min(candidate.send_day, daysInMonth(month)) > dayOfMonth) continue;
      try {
        const report = await this.sendReport(candidate, reportMonth, true, (trx) =>
          repo.claimAutoSend(trx, candidate.account_id, reportMonth, now),
        );
        if (report) sent++;
      } catch (err) {
        await repo.releaseAutoSend(this.deps.db, candidate.account_id, reportMonth, candidate.last_auto_sent_month);
        this.deps.logger.warn(
          { err, accountId: candidate.account_id, referenceMonth: reportMonth },
          'automatic accountant report not sent',
        );
        await this.notifyAutoSendFailed(candidate.account_id, reportMonth, err).catch((notifyErr: unknown) =>
          this.deps.logger.error(
            { err: notifyErr, accountId: candidate.account_id },
            'could not notify the failed accountant report',
          ),
        );
      }
    }
    return sent;
  }

  /**
   * Tells the account's administrators (a `system` notification, once per month: the next days'
   * retries do not repeat it) that the automatic report could not be sent, and why.
   */
  private async notifyAutoSendFailed(accountId: number, referenceMonth: string, err: unknown): Promise<void> {
    const language = await this.accounts.languageOf(accountId);
    const words = accountantWords(language);
    const reason = err instanceof HttpError ? render(err.text, language) : words.unexpectedError;
    await this.deps.db.transaction().execute((trx) =>
      this.notifications.notifyMembers(trx, {
        accountId,
        type: 'system',
        preference: null,
        adminsOnly: true,
        title: words.failedTitle,
        message: words.failedMessage(referenceMonth, reason),
        data: JSON.stringify({ referenceMonth, code: err instanceof HttpError ? err.code : 'internal_error' }),
        dedupeKey: `system:accountant_auto_failed:${referenceMonth}`,
        createdAt: this.clock(),
      }),
    );
  }

  /**
   * Builds the report, then queues its e-mail (core's durable mail queue) in one transaction with
   * `claim` (the automatic send's claim of the month, when given: null when another run has it),
   * and sends it right away so the caller learns the outcome (422 smtp_send_failed). A process that
   * dies in between leaves the e-mail queued: the mail worker sends it.
   */
  private async sendReport(settings: AccountantSettings, referenceMonth: string, automatic: false): Promise<SentReport>;
  private async sendReport(
    settings: AccountantSettings,
    referenceMonth: string,
    automatic: true,
    claim: (trx: Trx) => Promise<unknown>,
  ): Promise<SentReport | null>;
  private async sendReport(
    settings: AccountantSettings,
    referenceMonth: string,
    automatic: boolean,
    claim?: (trx: Trx) => Promise<unknown>,
  ): Promise<SentReport | null> {
    const accountId = settings.account_id;
    // Reports go through the account's own SMTP server (its From, its reputation).
    if (!(await this.smtp.isConfigured(accountId))) throw smtpNotConfigured();
    const report = await this.buildReport(settings, referenceMonth);
    const to = settings.name ? `"${settings.name.replace(/["\\\r\n]/g, '')}" <${settings.email}>` : settings.email;
    const emailId = await this.deps.db.transaction().execute(async (trx) => {
      if (claim && !(await claim(trx))) return null;
      return this.smtp.queue(trx, {
        accountId,
        source: `accountant_report:${referenceMonth}`,
        to,
        subject: reportSubject(report),
        text: buildText(report),
        html: buildHtml(report),
        attachments: [
          {
            filename: csvFileName(referenceMonth, report.language),
            content: buildCsv(report),
            contentType: 'text/csv; charset=utf-8',
          },
        ],
      });
    });
    if (emailId === null) return null;
    await this.smtp.deliverNow(emailId);
    const words = accountantWords(report.language);
    await this.deps.db.transaction().execute((trx) =>
      this.notifications.notifyMembers(trx, {
        accountId,
        type: 'accountant_sent',
        preference: 'accountant_sent',
        title: words.sentTitle(automatic),
        message: words.sentMessage(referenceMonth, settings.email),
        data: JSON.stringify({ referenceMonth, email: settings.email, automatic }),
        // The automatic report is sent once a month; each manual send is its own notification.
        dedupeKey: automatic ? `accountant_sent:auto:${referenceMonth}` : null,
        createdAt: this.clock(),
      }),
    );
    return {
      referenceMonth,
      email: settings.email,
      totals: report.totals,
      counts: {
        transactions: report.transactions?.length ?? 0,
        bills: report.bills?.length ?? 0,
        expenses: report.expenses?.length ?? 0,
      },
      messageId: emailId,
    };
  }

  /**
   * Totals per currency always; each list when its include flag is on (at most MAX_REPORT_ROWS rows
   * each). Every transaction is listed once: with the expenses in their own section, the
   * transactions section lists the income only.
   */
  private async buildReport(settings: AccountantSettings, referenceMonth: string): Promise<ReportData> {
    const db = this.deps.db;
    const accountId = settings.account_id;
    const { first, next } = monthRange(referenceMonth);
    const withExpenses = settings.include_expenses === 1;
    const [account, sums, transactions, bills, expenses] = await Promise.all([
      this.accounts.get(accountId),
      reports.monthTotals(db, accountId, first, next),
      settings.include_transactions
        ? reports.monthTransactions(db, accountId, first, next, MAX_REPORT_ROWS, withExpenses ? 'income' : undefined)
        : null,
      settings.include_bills ? reports.monthBills(db, accountId, first, next, MAX_REPORT_ROWS) : null,
      withExpenses ? reports.monthTransactions(db, accountId, first, next, MAX_REPORT_ROWS, 'expense') : null,
    ]);
    const byCurrency = new Map<string, CurrencyTotals>();
    for (const sum of sums) {
      const totals = byCurrency.get(sum.currency) ?? {
        currency: sum.currency,
        incomeCents: 0,
        expensesCents: 0,
        balanceCents: 0,
      };
      const cents = Number(sum.total_cents);
      if (sum.kind === 'income') totals.incomeCents += cents;
      else totals.expensesCents += cents;
      totals.balanceCents = totals.incomeCents - totals.expensesCents;
      byCurrency.set(sum.currency, totals);
    }
    return {
      accountName: account?.name ?? `Account ${accountId}`,
      language: account?.locale ?? 'en',
      referenceMonth,
      totals: [...byCurrency.values()].sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0)),
      transactions,
      bills,
      expenses,
      maxRows: MAX_REPORT_ROWS,
    };
  }
}
