import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../../core/http/schemas.js';
import { IdPathParam, PageQuery } from '../../http/envelope.js';
import { Category, Currency, DateString, Money, Name, Note, PeriodQuery, StringEnum } from '../../http/values.js';

export const BILL_STATUSES = ['open', 'paid', 'cancelled'] as const;
const Status = StringEnum(BILL_STATUSES, 'open, paid or cancelled');

export const BillSchema = Type.Object({
  id: Type.String(),
  supplier: Type.String(),
  description: Nullable(Type.String()),
  category: Nullable(Type.String()),
  amount: Type.Number({ description: 'decimal, at most 2 decimals' }),
  currency: Type.String(),
  dueDate: Type.String({ description: 'YYYY-MM-DD' }),
  status: Status,
  paidAt: Nullable(Type.String({ description: 'ISO 8601' })),
  createdAt: Type.String({ description: 'ISO 8601' }),
  updatedAt: Type.String({ description: 'ISO 8601' }),
});

const fields = {
  supplier: Name,
  description: Type.Optional(Nullable(Note)),
  category: Type.Optional(Nullable(Category)),
  amount: Money(),
  currency: Type.Optional(Currency),
  dueDate: DateString(),
};

/** A new bill is open; it becomes paid or cancelled through its actions. */
export const BillCreateBody = Type.Object(fields);
export type BillCreateBody = Static<typeof BillCreateBody>;

/** PUT and PATCH: any of the fields (at least one); omitted fields are kept, null clears a nullable one. */
export const BillUpdateBody = Type.Partial(Type.Object(fields), { minProperties: 1 });
export type BillUpdateBody = Static<typeof BillUpdateBody>;

export const BillListQuery = Type.Object({
  ...PageQuery(20, 100).properties,
  ...PeriodQuery,
  status: Type.Optional(Status),
});
export type BillListQuery = Static<typeof BillListQuery>;

export const BillListSchema = Type.Object({
  items: Type.Array(BillSchema),
  total: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
});

export const BillParams = Type.Object({ id: IdPathParam });
