import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../../core/http/schemas.js';
import { IdPathParam, PageQuery } from '../../http/envelope.js';
import { Category, Currency, DateString, Money, Note, PeriodQuery, StringEnum } from '../../http/values.js';

export const TRANSACTION_KINDS = ['income', 'expense'] as const;
export const TRANSACTION_STATUSES = ['pending', 'completed', 'cancelled'] as const;

const Kind = StringEnum(TRANSACTION_KINDS, 'income or expense');
const Status = StringEnum(TRANSACTION_STATUSES, 'pending, completed or cancelled');

export const TransactionSchema = Type.Object({
  id: Type.String(),
  kind: Kind,
  amount: Type.Number({ description: 'decimal, at most 2 decimals; always positive (the kind gives the direction)' }),
  currency: Type.String(),
  date: Type.String({ description: 'YYYY-MM-DD' }),
  category: Nullable(Type.String()),
  description: Nullable(Type.String()),
  status: Status,
  billId: Nullable(
    Type.String({
      description:
        'the bill whose payment this expense records (set by POST /api/bills/{id}/pay); null for other transactions',
    }),
  ),
  createdAt: Type.String({ description: 'ISO 8601' }),
  updatedAt: Type.String({ description: 'ISO 8601' }),
});

const fields = {
  kind: Kind,
  amount: Money(),
  currency: Type.Optional(Currency),
  date: DateString(),
  category: Type.Optional(Nullable(Category)),
  description: Type.Optional(Nullable(Note)),
  status: Type.Optional(Status),
};

export const TransactionCreateBody = Type.Object(fields);
export type TransactionCreateBody = Static<typeof TransactionCreateBody>;

/** PUT and PATCH: any of the fields (at least one); omitted fields are kept, null clears a nullable one. */
export const TransactionUpdateBody = Type.Partial(Type.Object(fields), { minProperties: 1 });
export type TransactionUpdateBody = Static<typeof TransactionUpdateBody>;

export const TransactionListQuery = Type.Object({
  ...PageQuery(20, 100).properties,
  ...PeriodQuery,
  status: Type.Optional(Status),
  kind: Type.Optional(Kind),
  category: Type.Optional(Category),
});
export type TransactionListQuery = Static<typeof TransactionListQuery>;

export const TransactionListSchema = Type.Object({
  items: Type.Array(TransactionSchema),
  total: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
});

export const TransactionParams = Type.Object({ id: IdPathParam });
