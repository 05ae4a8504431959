import { forbidden, HttpError, invalidField, notFound } from '../../../core/http/errors.js';
import { assertStaff, type AccountContext, type ChatDeps, type Q } from '../../context.js';
import { compileContactFilter } from '../contacts/contacts.filter.js';
import { compileConversationFilter } from '../conversations/conversations.filter.js';
import type { CustomAttributeCriteria } from '../../filters/criteria.js';
import type { CustomFilter, FilterType } from './custom-filters.migration.js';
import * as repo from './custom-filters.repository.js';
import type {
  CustomFilterBody,
  CustomFilterListQuery,
  CustomFilterPatch,
  SavedCriterion,
  SavedQuery,
} from './custom-filters.schema.js';
import { t } from '../../../core/i18n/catalogue.js';

/** Chatwoot's limit of saved filters per user and account. */
export const MAX_FILTERS_PER_USER = 50;

/** The list's type when none is asked for (Chatwoot's default). */
const DEFAULT_FILTER_TYPE: FilterType = 'conversation';

const limitReached = () =>
  new HttpError(
    422,
    'limit_reached',
    t('Limit reached. The maximum number of allowed custom filters for a user per account is %{max}.', {
      max: MAX_FILTERS_PER_USER,
    }),
  );

/** The type a body names: `filter_type`, else `type`, else the query string's `filter_type`. */
const typeOf = (body: CustomFilterPatch, queryType: FilterType | undefined): FilterType | undefined =>
  body.filter_type ?? body.type ?? queryType;

/** The user a filter belongs to: only users save filters (bots are refused by the routes already). */
function ownerOf(ctx: AccountContext): number {
  assertStaff(ctx);
  if (ctx.userId === null) throw forbidden('Only users have saved filters');
  return ctx.userId;
}

function cleanName(raw: string): string {
  const name = raw.trim();
  if (name === '') throw invalidField('name', "can't be blank");
  return name;
}

/** A criterion as stored: its known fields picked one by one. */
function pick(c: SavedCriterion): SavedCriterion {
  const out: SavedCriterion = { attribute_key: c.attribute_key, filter_operator: c.filter_operator };
  if (c.values !== undefined) out.values = c.values;
  if (c.query_operator !== undefined) out.query_operator = c.query_operator;
  if (c.attribute_model !== undefined) out.attribute_model = c.attribute_model;
  if (c.custom_attribute_type !== undefined) out.custom_attribute_type = c.custom_attribute_type;
  return out;
}

function storedQuery(row: CustomFilter): SavedQuery {
  try {
    const value = JSON.parse(row.query) as SavedQuery;
    return { payload: Array.isArray(value?.payload) ? value.payload : [] };
  } catch {
    return { payload: [] };
  }
}

/**
 * Saved filters (Chatwoot's custom views). A filter belongs to the user who saved it: nobody else
 * sees it, administrators included (an id of another user's filter is a 404, as one of another
 * account). Its query is checked against the filter of its type (the keys, operators and values the
 * filter endpoint would accept, defined custom attributes included), so a saved filter can be
 * applied as it is; a bad query is a 422 and nothing is stored.
 */
export class CustomFiltersService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly customAttributes: CustomAttributeCriteria,
  ) {}

  list(ctx: AccountContext, query: CustomFilterListQuery): Promise<CustomFilter[]> {
    const userId = ownerOf(ctx);
    return repo.listFilters(this.deps.db, ctx.accountId, userId, query.filter_type ?? DEFAULT_FILTER_TYPE);
  }

  get(ctx: AccountContext, id: number): Promise<CustomFilter> {
    return this.find(this.deps.db, ctx.accountId, ownerOf(ctx), id);
  }

  /** `queryType` is the query string's `filter_type`, the third place the type is read from. */
  async create(ctx: AccountContext, body: CustomFilterBody, queryType?: FilterType): Promise<CustomFilter> {
    const userId = ownerOf(ctx);
    const name = cleanName(body.name);
    const filterType = typeOf(body, queryType) ?? DEFAULT_FILTER_TYPE;
    return this.deps.db.transaction().execute(async (trx) => {
      const query = await this.checkQuery(trx, ctx.accountId, filterType, body.query);
      if ((await repo.countFilters(trx, ctx.accountId, userId)) >= MAX_FILTERS_PER_USER) throw limitReached();
      const now = Date.now();
      return repo.insertFilter(trx, {
        account_id: ctx.accountId,
        user_id: userId,
        name,
        filter_type: filterType,
        query,
        created_at: now,
        updated_at: now,
      });
    });
  }

  async update(
    ctx: AccountContext,
    id: number,
    body: CustomFilterPatch,
    queryType?: FilterType,
  ): Promise<CustomFilter> {
    const userId = ownerOf(ctx);
    const name = body.name === undefined ? undefined : cleanName(body.name);
    return this.deps.db.transaction().execute(async (trx) => {
      const current = await this.find(trx, ctx.accountId, userId, id);
      const filterType = typeOf(body, queryType) ?? current.filter_type;
      // A new query, or the saved one under a new type, must pass that type's filter.
      const query =
        body.query !== undefined || filterType !== current.filter_type
          ? await this.checkQuery(trx, ctx.accountId, filterType, body.query ?? storedQuery(current))
          : undefined;
      if (name === undefined && query === undefined && filterType === current.filter_type) return current;
      return repo.updateFilter(trx, ctx.accountId, userId, id, {
        name,
        filter_type: filterType,
        query,
        updated_at: Date.now(),
      });
    });
  }

  async delete(ctx: AccountContext, id: number): Promise<void> {
    const userId = ownerOf(ctx);
    await this.deps.db.transaction().execute(async (trx) => {
      await this.find(trx, ctx.accountId, userId, id);
      await repo.deleteFilter(trx, ctx.accountId, userId, id);
    });
  }

  /** The query as stored (JSON), once the filter of `type` accepts it (422 naming `query.payload.<i>...` otherwise). */
  private async checkQuery(q: Q, accountId: number, type: FilterType, query: SavedQuery): Promise<string> {
    const criteria = query.payload;
    const options = { accountId, dialect: this.deps.dialect, field: 'query.payload' };
    if (type === 'conversation') {
      const extraAttribute = await this.customAttributes.criteriaFor(accountId, 'conversations', criteria, q);
      compileConversationFilter(criteria, { ...options, extraAttribute });
    } else {
      const extraAttribute = await this.customAttributes.criteriaFor(accountId, 'contacts', criteria, q);
      compileContactFilter(criteria, { ...options, extraAttribute });
    }
    return JSON.stringify({ payload: criteria.map(pick) });
  }

  private async find(q: Q, accountId: number, userId: number, id: number): Promise<CustomFilter> {
    const row = await repo.findFilter(q, accountId, userId, id);
    if (!row) throw notFound('Custom filter');
    return row;
  }
}
