import type { Updateable } from 'kysely';
import { invalidField, notFound } from '../../../core/http/errors.js';
import type { FinanceContext, FinanceDeps, Q } from '../../context.js';
import type { Contract, ContractsTable } from '../../db/schema.js';
import { recordFinanceEvent } from '../../events.js';
import {
  DEFAULT_CURRENCY,
  checkPeriod,
  invalidTransition,
  optionalText,
  requiredText,
  toCents,
} from '../../http/values.js';
import { presentContract } from './contracts.presenter.js';
import * as repo from './contracts.repository.js';
import type { ContractCreateBody, ContractListQuery, ContractUpdateBody } from './contracts.schema.js';

/** 422 when the contract would end before it starts. */
function checkDates(startDate: string, endDate: string | null) {
  if (endDate !== null && endDate < startDate) throw invalidField('endDate', 'must not be before startDate');
}

/**
 * Contracts of the current account. New contracts are active and record `contract.created`;
 * `cancel` (active -> cancelled, records `contract.cancelled`) is the only status change; cancelling
 * a cancelled contract is a 409 that changes nothing.
 */
export class ContractsService {
  constructor(private readonly deps: FinanceDeps) {}

  async list(ctx: FinanceContext, query: ContractListQuery) {
    checkPeriod(query);
    const { page, limit, ...filter } = query;
    return repo.listContracts(this.deps.db, ctx.accountId, filter, { limit, offset: (page - 1) * limit });
  }

  async get(ctx: FinanceContext, id: number, q: Q = this.deps.db, lock = false): Promise<Contract> {
    const row = await repo.findContract(q, ctx.accountId, id, lock && this.deps.dialect === 'postgres');
    if (!row) throw notFound('Contract');
    return row;
  }

  async create(ctx: FinanceContext, body: ContractCreateBody): Promise<Contract> {
    const party = requiredText('party', body.party);
    const valueCents = toCents('value', body.value);
    const endDate = body.endDate ?? null;
    checkDates(body.startDate, endDate);
    const now = Date.now();
    return this.deps.db.transaction().execute(async (trx) => {
      const row = await repo.insertContract(trx, {
        account_id: ctx.accountId,
        party,
        description: optionalText(body.description) ?? null,
        value_cents: valueCents,
        currency: body.currency ?? DEFAULT_CURRENCY,
        start_date: body.startDate,
        end_date: endDate,
        status: 'active',
        cancelled_at: null,
        created_at: now,
        updated_at: now,
      });
      await recordFinanceEvent(trx, ctx.accountId, 'contract.created', presentContract(row));
      return row;
    });
  }

  /** PUT and PATCH: changes the fields sent, in any status (the status changes through cancel). */
  async update(ctx: FinanceContext, id: number, body: ContractUpdateBody): Promise<Contract> {
    const values: Updateable<ContractsTable> = {
      ...(body.party !== undefined ? { party: requiredText('party', body.party) } : {}),
      ...(body.description !== undefined ? { description: optionalText(body.description) } : {}),
      ...(body.value !== undefined ? { value_cents: toCents('value', body.value) } : {}),
      ...(body.currency !== undefined ? { currency: body.currency } : {}),
      ...(body.startDate !== undefined ? { start_date: body.startDate } : {}),
      ...(body.endDate !== undefined ? { end_date: body.endDate } : {}),
      updated_at: Date.now(),
    };
    return this.deps.db.transaction().execute(async (trx) => {
      const before = await this.get(ctx, id, trx, true);
      checkDates(body.startDate ?? before.start_date, body.endDate !== undefined ? body.endDate : before.end_date);
      const row = await repo.updateContract(trx, ctx.accountId, before.id, values);
      if (!row) throw notFound('Contract'); // read under lock just above: cannot happen
      return row;
    });
  }

  /** active -> cancelled (cancelledAt now); records `contract.cancelled`. */
  async cancel(ctx: FinanceContext, id: number): Promise<Contract> {
    return this.deps.db.transaction().execute(async (trx) => {
      const row = await repo.cancelContract(trx, ctx.accountId, id, Date.now());
      if (!row) {
        const current = await this.get(ctx, id, trx);
        throw invalidTransition('contract', current.status, ['active'], 'cancelled');
      }
      await recordFinanceEvent(trx, ctx.accountId, 'contract.cancelled', presentContract(row));
      return row;
    });
  }

  async delete(ctx: FinanceContext, id: number): Promise<void> {
    const deleted = await this.deps.db.transaction().execute((trx) => repo.deleteContract(trx, ctx.accountId, id));
    if (!deleted) throw notFound('Contract');
  }
}
