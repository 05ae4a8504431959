import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../../core/http/schemas.js';
import { IdPathParam, PageQuery } from '../../http/envelope.js';
import { Currency, DateString, Money, Name, Note, PeriodQuery, StringEnum } from '../../http/values.js';

export const INVOICE_STATUSES = ['draft', 'issued', 'paid', 'overdue', 'cancelled'] as const;
const Status = StringEnum(INVOICE_STATUSES, 'draft, issued, paid, overdue or cancelled');

export const InvoiceSchema = Type.Object({
  id: Type.String(),
  customer: Type.String(),
  description: Nullable(Type.String()),
  amount: Type.Number({ description: 'decimal, at most 2 decimals' }),
  currency: Type.String(),
  dueDate: Type.String({ description: 'YYYY-MM-DD' }),
  status: Status,
  issuedAt: Nullable(Type.String({ description: 'ISO 8601' })),
  paidAt: Nullable(Type.String({ description: 'ISO 8601' })),
  overdueAt: Nullable(Type.String({ description: 'ISO 8601' })),
  createdAt: Type.String({ description: 'ISO 8601' }),
  updatedAt: Type.String({ description: 'ISO 8601' }),
});

const fields = {
  customer: Name,
  description: Type.Optional(Nullable(Note)),
  amount: Money(),
  currency: Type.Optional(Currency),
  dueDate: DateString(),
};

export const InvoiceCreateBody = Type.Object({
  ...fields,
  status: Type.Optional(StringEnum(['draft', 'issued'] as const, "'draft' (default) or 'issued' (issue at once)")),
});
export type InvoiceCreateBody = Static<typeof InvoiceCreateBody>;

/** PUT and PATCH: any of the fields (at least one); omitted fields are kept, null clears a nullable one. */
export const InvoiceUpdateBody = Type.Partial(Type.Object(fields), { minProperties: 1 });
export type InvoiceUpdateBody = Static<typeof InvoiceUpdateBody>;

export const InvoiceListQuery = Type.Object({
  ...PageQuery(20, 100).properties,
  ...PeriodQuery,
  status: Type.Optional(Status),
});
export type InvoiceListQuery = Static<typeof InvoiceListQuery>;

export const InvoiceListSchema = Type.Object({
  items: Type.Array(InvoiceSchema),
  total: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
});

export const InvoiceParams = Type.Object({ id: IdPathParam });
