import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../../core/http/schemas.js';
import { IdPathParam, PageQuery } from '../../http/envelope.js';
import { Currency, DateString, Money, Name, Note, PeriodQuery, StringEnum } from '../../http/values.js';

export const CONTRACT_STATUSES = ['active', 'cancelled'] as const;
const Status = StringEnum(CONTRACT_STATUSES, 'active or cancelled');

export const ContractSchema = Type.Object({
  id: Type.String(),
  party: Type.String(),
  description: Nullable(Type.String()),
  value: Type.Number({ description: 'decimal, at most 2 decimals' }),
  currency: Type.String(),
  startDate: Type.String({ description: 'YYYY-MM-DD' }),
  endDate: Nullable(Type.String({ description: 'YYYY-MM-DD; null when open-ended' })),
  status: Status,
  cancelledAt: Nullable(Type.String({ description: 'ISO 8601' })),
  createdAt: Type.String({ description: 'ISO 8601' }),
  updatedAt: Type.String({ description: 'ISO 8601' }),
});

const fields = {
  party: Name,
  description: Type.Optional(Nullable(Note)),
  value: Money({ minimum: 0, description: 'decimal with at most 2 decimals (0 allowed)' }),
  currency: Type.Optional(Currency),
  startDate: DateString(),
  endDate: Type.Optional(Nullable(DateString("'YYYY-MM-DD', not before startDate; null when open-ended"))),
};

/** A new contract is active; it is cancelled through its action. */
export const ContractCreateBody = Type.Object(fields);
export type ContractCreateBody = Static<typeof ContractCreateBody>;

/** PUT and PATCH: any of the fields (at least one); omitted fields are kept, null clears a nullable one. */
export const ContractUpdateBody = Type.Partial(Type.Object(fields), { minProperties: 1 });
export type ContractUpdateBody = Static<typeof ContractUpdateBody>;

export const ContractListQuery = Type.Object({
  ...PageQuery(20, 100).properties,
  ...PeriodQuery,
  status: Type.Optional(Status),
});
export type ContractListQuery = Static<typeof ContractListQuery>;

export const ContractListSchema = Type.Object({
  items: Type.Array(ContractSchema),
  total: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
});

export const ContractParams = Type.Object({ id: IdPathParam });
