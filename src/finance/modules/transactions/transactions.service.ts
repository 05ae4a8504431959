import type { Updateable } from 'kysely';
import { HttpError, notFound } from '../../../core/http/errors.js';
import { t, type Phrase } from '../../../core/i18n/catalogue.js';
import type { FinanceContext, FinanceDeps, Q, Trx } from '../../context.js';
import type { Bill, Transaction, TransactionsTable } from '../../db/schema.js';
import { recordFinanceEvent, type ChangedAttribute } from '../../events.js';
import { DEFAULT_CURRENCY, checkPeriod, optionalText, toCents } from '../../http/values.js';
import { presentTransaction } from './transactions.presenter.js';
import * as repo from './transactions.repository.js';
import type { TransactionCreateBody, TransactionListQuery, TransactionUpdateBody } from './transactions.schema.js';

/** The fields an update may change, in API names, with their columns. */
const EDITABLE = [
  ['kind', 'kind'],
  ['amount', 'amount_cents'],
  ['currency', 'currency'],
  ['date', 'date'],
  ['category', 'category'],
  ['description', 'description'],
  ['status', 'status'],
] as const;

type EditableColumn = (typeof EDITABLE)[number][1];

/**
 * The fields of a bill's expense that the bill decides: changing them on the transaction would make
 * the expense disagree with the bill it pays (or, for the status, drop a paid bill from the
 * expenses). The date (the day it was paid), category and description stay editable.
 */
const SET_BY_BILL: readonly EditableColumn[] = ['kind', 'amount_cents', 'currency', 'status'];

/** The longest description the API accepts (http/values.ts `Note`). */
const MAX_DESCRIPTION = 2000;

/** What the expense of a bill's payment says: the supplier, then the bill's description if any. */
export const billExpenseDescription = (bill: Pick<Bill, 'supplier' | 'description'>) =>
  (bill.description ? `${bill.supplier}: ${bill.description}` : bill.supplier).slice(0, MAX_DESCRIPTION);

const linkedToBill = (billId: number, reason: Phrase, fields: string[]) =>
  new HttpError(
    409,
    'linked_to_bill',
    t('This expense records the payment of bill %{bill}: %{reason}', { bill: billId, reason }),
    fields.map((field) => ({ field, message: t('is set by bill %{bill}', { bill: billId }) })),
  );

/**
 * Income and expense transactions of the current account. Creating records `transaction.created`;
 * an update that changes anything records `transaction.updated` with `changed_attributes`, in the
 * same database transaction as the change.
 *
 * Paying a bill records its expense here (`recordBillPayment`, in the payment's transaction), with
 * `bill_id` naming the bill. Such an expense follows its bill: its kind, amount, currency and status
 * cannot be changed through this API, nor can it be deleted (409 `linked_to_bill`); the bill's own
 * actions change it (`syncBillPayment`, `removeBillPayment`).
 */
export class TransactionsService {
  constructor(private readonly deps: FinanceDeps) {}

  async list(ctx: FinanceContext, query: TransactionListQuery) {
    checkPeriod(query);
    const { page, limit, ...filter } = query;
    return repo.listTransactions(this.deps.db, ctx.accountId, filter, { limit, offset: (page - 1) * limit });
  }

  async get(ctx: FinanceContext, id: number, q: Q = this.deps.db, lock = false): Promise<Transaction> {
    const row = await repo.findTransaction(q, ctx.accountId, id, lock && this.isPostgres);
    if (!row) throw notFound('Transaction');
    return row;
  }

  async create(ctx: FinanceContext, body: TransactionCreateBody): Promise<Transaction> {
    const amountCents = toCents('amount', body.amount);
    const now = Date.now();
    return this.deps.db.transaction().execute(async (trx) => {
      const row = await repo.insertTransaction(trx, {
        account_id: ctx.accountId,
        kind: body.kind,
        amount_cents: amountCents,
        currency: body.currency ?? DEFAULT_CURRENCY,
        date: body.date,
        category: optionalText(body.category) ?? null,
        description: optionalText(body.description) ?? null,
        status: body.status ?? 'completed',
        bill_id: null,
        created_at: now,
        updated_at: now,
      });
      await recordFinanceEvent(trx, ctx.accountId, 'transaction.created', presentTransaction(row));
      return row;
    });
  }

  /** PUT and PATCH: changes the fields sent; nothing recorded when nothing changes. */
  async update(ctx: FinanceContext, id: number, body: TransactionUpdateBody): Promise<Transaction> {
    const values: Updateable<TransactionsTable> = {
      ...(body.kind !== undefined ? { kind: body.kind } : {}),
      ...(body.amount !== undefined ? { amount_cents: toCents('amount', body.amount) } : {}),
      ...(body.currency !== undefined ? { currency: body.currency } : {}),
      ...(body.date !== undefined ? { date: body.date } : {}),
      ...(body.category !== undefined ? { category: optionalText(body.category) } : {}),
      ...(body.description !== undefined ? { description: optionalText(body.description) } : {}),
      ...(body.status !== undefined ? { status: body.status } : {}),
    };
    return this.deps.db.transaction().execute(async (trx) => {
      const before = await this.get(ctx, id, trx, true);
      if (before.bill_id !== null) {
        const refused = EDITABLE.filter(
          ([, column]) => SET_BY_BILL.includes(column) && column in values && values[column] !== before[column],
        ).map(([field]) => field);
        if (refused.length > 0)
          throw linkedToBill(
            before.bill_id,
            t(
              'its %{fields} follow the bill. Change the bill, or undo the payment with POST /api/bills/%{bill}/cancel',
              { fields: refused.join(', '), bill: before.bill_id },
            ),
            refused,
          );
      }
      return this.applyChanges(trx, ctx.accountId, before, values);
    });
  }

  async delete(ctx: FinanceContext, id: number): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const row = await this.get(ctx, id, trx, true);
      if (row.bill_id !== null)
        throw linkedToBill(
          row.bill_id,
          t('undo the payment with POST /api/bills/%{bill}/cancel instead (or delete the bill)', { bill: row.bill_id }),
          ['billId'],
        );
      if (!(await repo.deleteTransaction(trx, ctx.accountId, id))) throw notFound('Transaction');
    });
  }

  /**
   * Records the expense of a bill's payment in the payment's own database transaction (with its
   * `transaction.created`): kind expense, the bill's exact cents and currency, dated `day` (the UTC
   * day it was paid), completed.
   */
  async recordBillPayment(trx: Trx, bill: Bill, day: string, now: number): Promise<Transaction> {
    const row = await repo.insertTransaction(trx, {
      account_id: bill.account_id,
      kind: 'expense',
      amount_cents: bill.amount_cents,
      currency: bill.currency,
      date: day,
      category: bill.category,
      description: billExpenseDescription(bill),
      status: 'completed',
      bill_id: bill.id,
      created_at: now,
      updated_at: now,
    });
    await recordFinanceEvent(trx, bill.account_id, 'transaction.created', presentTransaction(row));
    return row;
  }

  /**
   * A paid bill changed: its expense takes the new amount, currency, category and description
   * (only the fields `changed` names, so an expense description edited by hand stays unless the
   * bill's supplier or description changed). Records `transaction.updated` when something changed.
   * Nothing happens for a bill without an expense (paid before bills recorded one).
   */
  async syncBillPayment(
    trx: Trx,
    bill: Bill,
    changed: { amount?: boolean; currency?: boolean; category?: boolean; description?: boolean },
  ): Promise<void> {
    const before = await repo.findBillExpense(trx, bill.account_id, bill.id, this.isPostgres);
    if (!before) return;
    const values: Updateable<TransactionsTable> = {
      ...(changed.amount ? { amount_cents: bill.amount_cents } : {}),
      ...(changed.currency ? { currency: bill.currency } : {}),
      ...(changed.category ? { category: bill.category } : {}),
      ...(changed.description ? { description: billExpenseDescription(bill) } : {}),
    };
    await this.applyChanges(trx, bill.account_id, before, values);
  }

  /** Undoes the expense of a bill's payment (the bill was cancelled or deleted); false when it had none. */
  async removeBillPayment(trx: Trx, accountId: number, billId: number): Promise<boolean> {
    return repo.deleteBillExpense(trx, accountId, billId);
  }

  private get isPostgres() {
    return this.deps.dialect === 'postgres';
  }

  /** Writes the fields of `values` that differ from `before`, with `transaction.updated`; `before` when none does. */
  private async applyChanges(
    trx: Trx,
    accountId: number,
    before: Transaction,
    values: Updateable<TransactionsTable>,
  ): Promise<Transaction> {
    const changed = EDITABLE.filter(([, column]) => column in values && values[column] !== before[column]);
    if (changed.length === 0) return before;
    const after = await repo.updateTransaction(trx, accountId, before.id, { ...values, updated_at: Date.now() });
    if (!after) throw notFound('Transaction'); // read under lock by the caller: cannot happen
    const previous = presentTransaction(before);
    const current = presentTransaction(after);
    const changes: ChangedAttribute[] = changed.map(([field]) => ({
      [field]: { previous_value: previous[field], current_value: current[field] },
    }));
    await recordFinanceEvent(trx, accountId, 'transaction.updated', current, changes);
    return after;
  }
}
