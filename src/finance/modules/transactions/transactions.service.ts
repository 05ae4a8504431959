import type { Updateable } from 'kysely';
import { notFound } from '../../../core/http/errors.js';
import type { FinanceContext, FinanceDeps, Q } from '../../context.js';
import type { Transaction, TransactionsTable } from '../../db/schema.js';
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

/**
 * Income and expense transactions of the current account. Creating records `transaction.created`;
 * an update that changes anything records `transaction.updated` with `changed_attributes`, in the
 * same database transaction as the change.
 */
export class TransactionsService {
  constructor(private readonly deps: FinanceDeps) {}

  async list(ctx: FinanceContext, query: TransactionListQuery) {
    checkPeriod(query);
    const { page, limit, ...filter } = query;
    return repo.listTransactions(this.deps.db, ctx.accountId, filter, { limit, offset: (page - 1) * limit });
  }

  async get(ctx: FinanceContext, id: number, q: Q = this.deps.db, lock = false): Promise<Transaction> {
    const row = await repo.findTransaction(q, ctx.accountId, id, lock && this.deps.dialect === 'postgres');
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
      const changed = EDITABLE.filter(([, column]) => column in values && values[column] !== before[column]);
      if (changed.length === 0) return before;
      const after = await repo.updateTransaction(trx, ctx.accountId, before.id, { ...values, updated_at: Date.now() });
      if (!after) throw notFound('Transaction'); // read under lock just above: cannot happen
      const previous = presentTransaction(before);
      const current = presentTransaction(after);
      const changes: ChangedAttribute[] = changed.map(([field]) => ({
        [field]: { previous_value: previous[field], current_value: current[field] },
      }));
      await recordFinanceEvent(trx, ctx.accountId, 'transaction.updated', current, changes);
      return after;
    });
  }

  async delete(ctx: FinanceContext, id: number): Promise<void> {
    const deleted = await this.deps.db.transaction().execute((trx) => repo.deleteTransaction(trx, ctx.accountId, id));
    if (!deleted) throw notFound('Transaction');
  }
}
