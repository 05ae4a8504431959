import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../../core/http/schemas.js';
import { FILTER_TYPES } from './custom-filters.migration.js';

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

const FilterTypeSchema = literals(FILTER_TYPES);

/**
 * One criterion, as the filter endpoints take it. `attribute_model` and `custom_attribute_type`
 * are what Chatwoot's dashboard keeps beside each criterion to show the filter again; they are
 * stored as given and play no part in the filter.
 */
const Criterion = Type.Object({
  attribute_key: Type.String({ minLength: 1, maxLength: 64 }),
  filter_operator: Type.String({ minLength: 1, maxLength: 64 }),
  values: Type.Optional(
    Type.Array(Type.Union([Type.String({ maxLength: 255 }), Type.Number(), Type.Boolean(), Type.Null()]), {
      maxItems: 100,
    }),
  ),
  query_operator: Type.Optional(Nullable(Type.String({ maxLength: 8 }))),
  attribute_model: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
  custom_attribute_type: Type.Optional(Nullable(Type.String({ maxLength: 32 }))),
});
export type SavedCriterion = Static<typeof Criterion>;

const Query = Type.Object(
  { payload: Type.Array(Criterion, { minItems: 1, maxItems: 50 }) },
  {
    description:
      "The criteria as POST {A}/conversations/filter or {A}/contacts/filter take them; checked against that filter's keys and operators",
  },
);
export type SavedQuery = Static<typeof Query>;

/**
 * The type of a filter comes from `filter_type`, else `type` (Chatwoot's API document and its n8n
 * node name it so), else the query string's `filter_type`, else `conversation` (docs/spec/decisions.md §10).
 */
export const CustomFilterBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  filter_type: Type.Optional(FilterTypeSchema),
  type: Type.Optional(Type.Union([FilterTypeSchema], { description: 'filter_type under the name Chatwoot documents' })),
  query: Query,
});
export type CustomFilterBody = Static<typeof CustomFilterBody>;

export const CustomFilterPatch = Type.Partial(CustomFilterBody);
export type CustomFilterPatch = Static<typeof CustomFilterPatch>;

export const CustomFilterListQuery = Type.Object({
  filter_type: Type.Optional(
    Type.Union([FilterTypeSchema], { description: 'conversation (the default, as in Chatwoot) or contact' }),
  ),
});
export type CustomFilterListQuery = Static<typeof CustomFilterListQuery>;

export const CustomFilterSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  filter_type: FilterTypeSchema,
  query: Type.Object({ payload: Type.Array(Type.Record(Type.String(), Type.Unknown())) }),
  created_at: Type.String({ description: 'ISO 8601' }),
  updated_at: Type.String({ description: 'ISO 8601' }),
});
