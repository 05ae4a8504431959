import type { PaidRecord } from '../../listeners/notifications.listener.js';
import type { Updateable } from 'kysely';
import { notFound } from '../../../core/http/errors.js';
import type { FinanceContext, FinanceDeps, Q, Trx } from '../../context.js';
import type { Bill, BillStatus, BillsTable } from '../../db/schema.js';
import { recordFinanceEvent } from '../../events.js';
import {
  DEFAULT_CURRENCY,
  checkPeriod,
  invalidTransition,
  optionalText,
  requiredText,
  toCents,
} from '../../http/values.js';
import { utcDay } from '../../calendar.js';
import type { TransactionsService } from '../transactions/transactions.service.js';
import { presentBill } from './bills.presenter.js';
import * as repo from './bills.repository.js';
import type { BillCreateBody, BillListQuery, BillUpdateBody } from './bills.schema.js';

/**
 * Bills (payables) of the current account. New bills are open. `pay` (open -> paid) records the
 * payment as an expense transaction linked to the bill (with its `transaction.created`) and the
 * internal `bill.paid` event (notifications), all in the payment's database transaction, so a paid
 * bill is among the expenses of the month it was paid in. `cancel` takes an open bill to cancelled,
 * or undoes a payment: paid -> cancelled, its expense removed. Anything else is a 409 that changes
 * nothing. Editing a paid bill carries the change to its expense; deleting a bill removes it.
 */
export class BillsService {
  constructor(
    private readonly deps: FinanceDeps,
    /** A paid bill's expense is a transaction: recorded and removed through the transactions module. */
    private readonly transactions: TransactionsService,
  ) {}

  async list(ctx: FinanceContext, query: BillListQuery) {
    checkPeriod(query);
    const { page, limit, ...filter } = query;
    return repo.listBills(this.deps.db, ctx.accountId, filter, { limit, offset: (page - 1) * limit });
  }

  /** The paid bill a payment notice describes (notifications listener), by id within the account. */
  async paidRecord(q: Q, accountId: number, id: number): Promise<PaidRecord | undefined> {
    const row = await repo.findBill(q, accountId, id);
    return row && { party: row.supplier, amountCents: row.amount_cents, currency: row.currency };
  }

  async get(ctx: FinanceContext, id: number, q: Q = this.deps.db): Promise<Bill> {
    const row = await repo.findBill(q, ctx.accountId, id);
    if (!row) throw notFound('Bill');
    return row;
  }

  async create(ctx: FinanceContext, body: BillCreateBody): Promise<Bill> {
    const supplier = requiredText('supplier', body.supplier);
    const amountCents = toCents('amount', body.amount);
    const now = Date.now();
    return this.deps.db.transaction().execute((trx) =>
      repo.insertBill(trx, {
        account_id: ctx.accountId,
        supplier,
        description: optionalText(body.description) ?? null,
        category: optionalText(body.category) ?? null,
        amount_cents: amountCents,
        currency: body.currency ?? DEFAULT_CURRENCY,
        due_date: body.dueDate,
        status: 'open',
        paid_at: null,
        created_at: now,
        updated_at: now,
      }),
    );
  }

  /**
   * PUT and PATCH: changes the fields sent, in any status (the status itself changes through
   * actions). On a paid bill the change reaches its expense in the same database transaction.
   */
  async update(ctx: FinanceContext, id: number, body: BillUpdateBody): Promise<Bill> {
    const values: Updateable<BillsTable> = {
      ...(body.supplier !== undefined ? { supplier: requiredText('supplier', body.supplier) } : {}),
      ...(body.description !== undefined ? { description: optionalText(body.description) } : {}),
      ...(body.category !== undefined ? { category: optionalText(body.category) } : {}),
      ...(body.amount !== undefined ? { amount_cents: toCents('amount', body.amount) } : {}),
      ...(body.currency !== undefined ? { currency: body.currency } : {}),
      ...(body.dueDate !== undefined ? { due_date: body.dueDate } : {}),
      updated_at: Date.now(),
    };
    const row = await this.deps.db.transaction().execute(async (trx) => {
      const after = await repo.updateBill(trx, ctx.accountId, id, values);
      if (after?.status === 'paid')
        await this.transactions.syncBillPayment(trx, after, {
          amount: 'amount_cents' in values,
          currency: 'currency' in values,
          category: 'category' in values,
          description: 'supplier' in values || 'description' in values,
        });
      return after;
    });
    if (!row) throw notFound('Bill');
    return row;
  }

  /**
   * open -> paid (paid_at now). In the same database transaction: the expense transaction of the
   * payment (the bill's cents and currency, dated the UTC day of the payment, `bill_id` the bill;
   * records `transaction.created`) and `bill.paid` with the bill as `data`.
   */
  async pay(ctx: FinanceContext, id: number): Promise<Bill> {
    return this.transition(ctx, id, ['open'], 'paid', async (trx, now) => {
      const row = await repo.transitionBill(trx, ctx.accountId, id, ['open'], {
        status: 'paid',
        paid_at: now,
        updated_at: now,
      });
      if (!row) return undefined;
      await this.transactions.recordBillPayment(trx, row, utcDay(now), now);
      await recordFinanceEvent(trx, ctx.accountId, 'bill.paid', presentBill(row));
      return row;
    });
  }

  /**
   * open -> cancelled; or paid -> cancelled, which undoes the payment: its expense transaction is
   * removed in the same database transaction and `paidAt` goes back to null.
   */
  async cancel(ctx: FinanceContext, id: number): Promise<Bill> {
    return this.transition(ctx, id, ['open', 'paid'], 'cancelled', async (trx, now) => {
      const row = await repo.transitionBill(trx, ctx.accountId, id, ['open', 'paid'], {
        status: 'cancelled',
        paid_at: null,
        updated_at: now,
      });
      if (row) await this.transactions.removeBillPayment(trx, ctx.accountId, id);
      return row;
    });
  }

  /** Deletes the bill and, when it was paid, the expense of its payment. */
  async delete(ctx: FinanceContext, id: number): Promise<void> {
    const deleted = await this.deps.db.transaction().execute(async (trx) => {
      await this.transactions.removeBillPayment(trx, ctx.accountId, id);
      return repo.deleteBill(trx, ctx.accountId, id);
    });
    if (!deleted) throw notFound('Bill');
  }

  /** Runs a conditional status change; when it matched nothing, tells 404 from 409. */
  private async transition(
    ctx: FinanceContext,
    id: number,
    from: readonly BillStatus[],
    done: 'paid' | 'cancelled',
    change: (trx: Trx, now: number) => Promise<Bill | undefined>,
  ): Promise<Bill> {
    return this.deps.db.transaction().execute(async (trx) => {
      const row = await change(trx, Date.now());
      if (row) return row;
      const current = await this.get(ctx, id, trx);
      throw invalidTransition('bill', current.status, from, done);
    });
  }
}
