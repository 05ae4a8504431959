import type { PaidRecord } from '../../listeners/notifications.listener.js';
import type { Updateable } from 'kysely';
import { notFound } from '../../../core/http/errors.js';
import type { FinanceContext, FinanceDeps, Q, Trx } from '../../context.js';
import type { Invoice, InvoiceStatus, InvoicesTable } from '../../db/schema.js';
import { recordFinanceEvent } from '../../events.js';
import {
  DEFAULT_CURRENCY,
  checkPeriod,
  invalidTransition,
  optionalText,
  requiredText,
  toCents,
} from '../../http/values.js';
import { presentInvoice } from './invoices.presenter.js';
import * as repo from './invoices.repository.js';
import type { InvoiceCreateBody, InvoiceListQuery, InvoiceUpdateBody } from './invoices.schema.js';

const PAYABLE: readonly InvoiceStatus[] = ['issued', 'overdue'];
const CANCELLABLE: readonly InvoiceStatus[] = ['draft', 'issued', 'overdue'];

/**
 * Invoices (receivables) of the current account. Life cycle: draft -> issued (issue) ->
 * paid (pay, also from overdue) | overdue (the daily job, `markOverdue`); draft, issued and overdue
 * can be cancelled. Creating records `invoice.created`, paying `invoice.paid`, going overdue
 * `invoice.overdue` (once), each in the same transaction as the change. Refused transitions are
 * 409 `invalid_transition` and change nothing.
 */
export class InvoicesService {
  constructor(private readonly deps: FinanceDeps) {}

  async list(ctx: FinanceContext, query: InvoiceListQuery) {
    checkPeriod(query);
    const { page, limit, ...filter } = query;
    return repo.listInvoices(this.deps.db, ctx.accountId, filter, { limit, offset: (page - 1) * limit });
  }

  /** The paid invoice a payment notice describes (notifications listener), by id within the account. */
  async paidRecord(q: Q, accountId: number, id: number): Promise<PaidRecord | undefined> {
    const row = await repo.findInvoice(q, accountId, id);
    return row && { party: row.customer, amountCents: row.amount_cents, currency: row.currency };
  }

  async get(ctx: FinanceContext, id: number, q: Q = this.deps.db): Promise<Invoice> {
    const row = await repo.findInvoice(q, ctx.accountId, id);
    if (!row) throw notFound('Invoice');
    return row;
  }

  async create(ctx: FinanceContext, body: InvoiceCreateBody): Promise<Invoice> {
    const customer = requiredText('customer', body.customer);
    const amountCents = toCents('amount', body.amount);
    const now = Date.now();
    const status = body.status ?? 'draft';
    return this.deps.db.transaction().execute(async (trx) => {
      const row = await repo.insertInvoice(trx, {
        account_id: ctx.accountId,
        customer,
        description: optionalText(body.description) ?? null,
        amount_cents: amountCents,
        currency: body.currency ?? DEFAULT_CURRENCY,
        due_date: body.dueDate,
        status,
        issued_at: status === 'issued' ? now : null,
        paid_at: null,
        overdue_at: null,
        created_at: now,
        updated_at: now,
      });
      await recordFinanceEvent(trx, ctx.accountId, 'invoice.created', presentInvoice(row));
      return row;
    });
  }

  /** PUT and PATCH: changes the fields sent, in any status (the status itself changes through actions). */
  async update(ctx: FinanceContext, id: number, body: InvoiceUpdateBody): Promise<Invoice> {
    const values: Updateable<InvoicesTable> = {
      ...(body.customer !== undefined ? { customer: requiredText('customer', body.customer) } : {}),
      ...(body.description !== undefined ? { description: optionalText(body.description) } : {}),
      ...(body.amount !== undefined ? { amount_cents: toCents('amount', body.amount) } : {}),
      ...(body.currency !== undefined ? { currency: body.currency } : {}),
      ...(body.dueDate !== undefined ? { due_date: body.dueDate } : {}),
      updated_at: Date.now(),
    };
    const row = await this.deps.db.transaction().execute((trx) => repo.updateInvoice(trx, ctx.accountId, id, values));
    if (!row) throw notFound('Invoice');
    return row;
  }

  /** draft -> issued (issuedAt now). */
  issue(ctx: FinanceContext, id: number): Promise<Invoice> {
    return this.transition(ctx, id, ['draft'], 'issued', (trx, now) =>
      repo.transitionInvoice(trx, ctx.accountId, id, ['draft'], { status: 'issued', issued_at: now, updated_at: now }),
    );
  }

  /** issued | overdue -> paid (paidAt now); records `invoice.paid`. */
  pay(ctx: FinanceContext, id: number): Promise<Invoice> {
    return this.transition(ctx, id, PAYABLE, 'paid', async (trx, now) => {
      const row = await repo.transitionInvoice(trx, ctx.accountId, id, PAYABLE, {
        status: 'paid',
        paid_at: now,
        updated_at: now,
      });
      if (row) await recordFinanceEvent(trx, ctx.accountId, 'invoice.paid', presentInvoice(row));
      return row;
    });
  }

  /** draft | issued | overdue -> cancelled. */
  cancel(ctx: FinanceContext, id: number): Promise<Invoice> {
    return this.transition(ctx, id, CANCELLABLE, 'cancelled', (trx, now) =>
      repo.transitionInvoice(trx, ctx.accountId, id, CANCELLABLE, { status: 'cancelled', updated_at: now }),
    );
  }

  /**
   * For the daily job, inside its transaction `q`: issued -> overdue (overdueAt now) and records
   * `invoice.overdue`. Only from issued, so it happens once per invoice; returns null (and records
   * nothing) when the invoice is not the account's or not issued.
   */
  async markOverdue(q: Trx, accountId: number, invoiceId: number): Promise<Invoice | null> {
    const now = Date.now();
    const row = await repo.transitionInvoice(q, accountId, invoiceId, ['issued'], {
      status: 'overdue',
      overdue_at: now,
      updated_at: now,
    });
    if (!row) return null;
    await recordFinanceEvent(q, accountId, 'invoice.overdue', presentInvoice(row));
    return row;
  }

  async delete(ctx: FinanceContext, id: number): Promise<void> {
    const deleted = await this.deps.db.transaction().execute((trx) => repo.deleteInvoice(trx, ctx.accountId, id));
    if (!deleted) throw notFound('Invoice');
  }

  /** Runs a conditional status change; when it matched nothing, tells 404 from 409. */
  private transition(
    ctx: FinanceContext,
    id: number,
    from: readonly InvoiceStatus[],
    done: 'issued' | 'paid' | 'cancelled',
    change: (trx: Trx, now: number) => Promise<Invoice | undefined>,
  ): Promise<Invoice> {
    return this.deps.db.transaction().execute(async (trx) => {
      const row = await change(trx, Date.now());
      if (row) return row;
      const current = await this.get(ctx, id, trx);
      throw invalidTransition('invoice', current.status, from, done);
    });
  }
}
