import type { Insertable } from 'kysely';
import type { FinanceDeps, Q } from '../context.js';
import type { NotificationsTable } from '../db/schema.js';
import type { NotificationsService } from '../modules/notifications/notifications.service.js';
import { DEFAULT_DAYS_BEFORE_DUE, MAX_DAYS_BEFORE_DUE } from '../modules/notifications/notifications.schema.js';
import * as repo from './daily-alerts.repository.js';
import type { BillAlertCandidate } from './daily-alerts.repository.js';
import { notificationWords } from '../modules/notifications/notifications.i18n.js';
import { addDays, utcDay } from '../calendar.js';

const BATCH = 500;

/** What one run did. */
export interface DailyJobSummary {
  /** The UTC day the run was for ('YYYY-MM-DD'). */
  day: string;
  /** The account it covered, or null for every account (the background's run). */
  accountId: number | null;
  billDueSoon: number;
  billOverdue: number;
  invoicesOverdue: number;
  accountantReports: number;
}

/** What the job needs from the data and accountant modules. */
export interface DailyAlertsServices {
  notifications: NotificationsService;
  invoices: { markOverdue(q: Q, accountId: number, invoiceId: number): Promise<unknown> };
  accountant: { sendDueAutomaticReports(now: number, accountId?: number): Promise<number> };
}

/**
 * The finance daily job. "Today" is the UTC calendar day of `now` (a bill due on D is due soon
 * from D - daysBeforeDue to D and overdue from D + 1, in UTC). For every account (or one):
 * - `bill_due_soon` once per open bill and member when 0 <= due date - today <= the member's
 *   daysBeforeDue (and billDueSoon is on); `bill_overdue` once per open bill past due (billOverdue on).
 *   "Once" is the dedupe key `<type>:<bill id>`, unique per account and user, so running twice or
 *   on two instances creates nothing new;
 * - issued invoices past due become overdue through `InvoicesService.markOverdue` (which records
 *   `invoice.overdue` once: only from issued);
 * - automatic accountant reports due today are sent (claimed per account and month).
 * The background runs it once a UTC day as the recurring job `finance.daily` (core/jobs: one run
 * across instances, taken over after a dead instance's lease); administrators run it for their
 * own account on demand (POST /api/notifications/run-daily-job).
 */
export class DailyAlertsJob {
  constructor(
    private readonly deps: FinanceDeps,
    private readonly services: DailyAlertsServices,
    private readonly clock: () => number = Date.now,
  ) {}

  /** One run for every account (`{}`) or one (`{accountId}`), as of `now`. Idempotent. */
  async run(scope: { accountId?: number }, now: number = this.clock()): Promise<DailyJobSummary> {
    const today = utcDay(now);
    const cutoffs = Array.from({ length: MAX_DAYS_BEFORE_DUE + 1 }, (_, days) => addDays(today, days));
    const billDueSoon = await this.notifyBills('bill_due_soon', now, (q, after) =>
      repo.dueSoonCandidates(q, {
        accountId: scope.accountId,
        today,
        cutoffs,
        defaultDays: DEFAULT_DAYS_BEFORE_DUE,
        after,
        limit: BATCH,
      }),
    );
    const billOverdue = await this.notifyBills('bill_overdue', now, (q, after) =>
      repo.overdueCandidates(q, { accountId: scope.accountId, today, after, limit: BATCH }),
    );
    const invoicesOverdue = await this.markInvoicesOverdue(scope.accountId, today);
    const accountantReports = await this.services.accountant.sendDueAutomaticReports(now, scope.accountId);
    return {
      day: today,
      accountId: scope.accountId ?? null,
      billDueSoon,
      billOverdue,
      invoicesOverdue,
      accountantReports,
    };
  }

  /** Pages through the (bill, member) pairs not yet notified and inserts one batch per page. */
  private async notifyBills(
    type: 'bill_due_soon' | 'bill_overdue',
    now: number,
    page: (q: Q, after: repo.Cursor | null) => Promise<BillAlertCandidate[]>,
  ): Promise<number> {
    let created = 0;
    let after: repo.Cursor | null = null;
    for (;;) {
      const rows = await page(this.deps.db, after);
      if (rows.length === 0) return created;
      const notifications = rows.map((row) => billNotification(type, row, now));
      created += await this.deps.db
        .transaction()
        .execute((trx) => this.services.notifications.insertMany(trx, notifications));
      if (rows.length < BATCH) return created;
      const last = rows[rows.length - 1];
      after = { billId: last.bill_id, userId: last.user_id };
    }
  }

  /** Issued invoices past due -> overdue, one short transaction each (markOverdue records the event). */
  private async markInvoicesOverdue(accountId: number | undefined, today: string): Promise<number> {
    let marked = 0;
    let afterId = 0;
    for (;;) {
      const rows = await repo.overdueInvoices(this.deps.db, { accountId, today, afterId, limit: BATCH });
      for (const invoice of rows) {
        const changed = await this.deps.db
          .transaction()
          .execute((trx) => this.services.invoices.markOverdue(trx, invoice.account_id, invoice.id));
        if (changed) marked++;
      }
      if (rows.length < BATCH) return marked;
      afterId = rows[rows.length - 1].id;
    }
  }
}

function billNotification(
  type: 'bill_due_soon' | 'bill_overdue',
  bill: BillAlertCandidate,
  now: number,
): Insertable<NotificationsTable> {
  const words = notificationWords(bill.locale);
  const notice = {
    what: bill.description ? `${bill.supplier} (${bill.description})` : bill.supplier,
    amountCents: Number(bill.amount_cents),
    currency: bill.currency,
    dueDate: bill.due_date,
  };
  const dueSoon = type === 'bill_due_soon';
  return {
    account_id: bill.account_id,
    user_id: bill.user_id,
    type,
    // In the account's language, stored as written.
    title: dueSoon ? words.billDueSoonTitle : words.billOverdueTitle,
    message: dueSoon ? words.billDueSoon(notice) : words.billOverdue(notice),
    read: 0,
    read_at: null,
    data: JSON.stringify({
      billId: String(bill.bill_id),
      supplier: bill.supplier,
      amount: bill.amount_cents / 100,
      currency: bill.currency,
      dueDate: bill.due_date,
    }),
    dedupe_key: `${type}:${bill.bill_id}`,
    created_at: now,
  };
}
