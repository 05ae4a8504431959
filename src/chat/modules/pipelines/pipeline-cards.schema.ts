import { Type, type Static } from '@sinclair/typebox';
import { IdParam, JsonObject, Nullable, PageQuery } from '../../../core/http/schemas.js';
import { TimestampInput } from '../../../core/http/timestamps.js';

/* Requests */

/** Money as a JSON number or a decimal string ("1234.56"); read exactly (pipeline-cards.money.ts). */
export const Money = Type.Union([
  Type.Number({ minimum: 0, maximum: 999999999999.999 }),
  Type.String({ pattern: '^\\s*\\d{1,12}(\\.\\d{0,6})?\\s*$', maxLength: 40 }),
]);
const Currency = Type.String({ pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 code, e.g. BRL' });
const Attributes = Type.Record(Type.String({ maxLength: 255 }), Type.Unknown(), { maxProperties: 200 });
const Title = Type.String({ minLength: 1, maxLength: 255 });
const Text = Type.String({ maxLength: 10000 });
const StageId = Type.String({ minLength: 1, maxLength: 100, description: 'A stage id, {pipeline_id}_{slug}' });
const DateOnly = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
/** The close date as a time: its UTC date becomes expected_close_date (expected_close_date wins). */
const Deadline = TimestampInput('The expected close date; its UTC date becomes expected_close_date');

const ItemDetails = Type.Object({
  title: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  value: Type.Optional(Money),
  currency: Type.Optional(Currency),
});

/** NooviChat's name for a card's value (its n8n node and MCP server send it). */
const ExpectedRevenue = Type.Union([Money], { description: 'value, as NooviChat names it' });

export const CardCreateBody = Type.Object({
  title: Title,
  pipeline_id: IdParam,
  pipeline_stage: StageId,
  contact_id: Type.Optional(Nullable(IdParam)),
  conversation_display_id: Type.Optional(Nullable(IdParam)),
  owner_id: Type.Optional(Nullable(IdParam)),
  item_details: Type.Optional(ItemDetails),
  value: Type.Optional(Money),
  expected_revenue: Type.Optional(ExpectedRevenue),
  currency: Type.Optional(Currency),
  deadline: Type.Optional(Nullable(Deadline)),
  expected_close_date: Type.Optional(Nullable(DateOnly)),
  custom_attributes: Type.Optional(Attributes),
});
export type CardCreateBody = Static<typeof CardCreateBody>;

export const CardUpdateBody = Type.Object({
  title: Type.Optional(Title),
  value: Type.Optional(Money),
  expected_revenue: Type.Optional(ExpectedRevenue),
  currency: Type.Optional(Currency),
  item_details: Type.Optional(ItemDetails),
  owner_id: Type.Optional(Nullable(IdParam)),
  contact_id: Type.Optional(Nullable(IdParam)),
  conversation_display_id: Type.Optional(Nullable(IdParam)),
  expected_close_date: Type.Optional(Nullable(DateOnly)),
  deadline: Type.Optional(Nullable(Deadline)),
  custom_attributes: Type.Optional(Attributes),
  lead_score: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'Manual override' })),
});
export type CardUpdateBody = Static<typeof CardUpdateBody>;

export const CardListQuery = Type.Object({
  pipeline_id: Type.Optional(IdParam),
  stage_id: Type.Optional(StageId),
  pipeline_stage: Type.Optional(Type.Union([StageId], { description: 'stage_id, as NooviChat names it' })),
  status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('won'), Type.Literal('lost')])),
  owner_id: Type.Optional(IdParam),
  contact_id: Type.Optional(IdParam),
  q: Type.Optional(Type.String({ maxLength: 255, description: 'Title or contact name contains' })),
  page: PageQuery,
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: '25 when not given' })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 500, description: 'per_page, as NooviChat names it (pages hold at most 100)' }),
  ),
});
export type CardListQuery = Static<typeof CardListQuery>;

export const PageOnlyQuery = Type.Object({
  page: PageQuery,
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});
export type PageOnlyQuery = Static<typeof PageOnlyQuery>;

export const MoveBody = Type.Object({
  pipeline_stage: StageId,
  expected_version: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 2147483647, description: 'The stage_version the client saw' }),
  ),
});
export type MoveBody = Static<typeof MoveBody>;

export const MAX_REORDER = 1000;
export const ReorderBody = Type.Object({
  card_ids: Type.Array(IdParam, { minItems: 1, maxItems: MAX_REORDER, description: 'Every open card of one stage' }),
});
export type ReorderBody = Static<typeof ReorderBody>;

export const WonBody = Type.Object({ won_value: Type.Optional(Money), won_note: Type.Optional(Nullable(Text)) });
export type WonBody = Static<typeof WonBody>;

export const LostBody = Type.Object({
  lost_reason: Type.Optional(Nullable(Text)),
  reason: Type.Optional(Nullable(Text)),
});
export type LostBody = Static<typeof LostBody>;

/** A discard's reason (`reason`, as NooviChat's MCP sends it, or `deleted_reason`). */
export const DiscardBody = Type.Object({
  reason: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  deleted_reason: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
});
export type DiscardBody = Static<typeof DiscardBody>;

/** A manual score (`score`, as NooviChat's MCP sends it, or `lead_score`, as PATCH takes it). */
const Score = Type.Integer({ minimum: 0, maximum: 100 });
export const ScoreOverrideBody = Type.Object({
  score: Type.Optional(Score),
  lead_score: Type.Optional(Score),
});
export type ScoreOverrideBody = Static<typeof ScoreOverrideBody>;

export const NoteBody = Type.Object({ content: Type.String({ minLength: 1, maxLength: 10000 }) });
export type NoteBody = Static<typeof NoteBody>;

export const AssignBody = Type.Object({ owner_id: Nullable(IdParam) });
export type AssignBody = Static<typeof AssignBody>;

export const MAX_BULK = 200;
const BulkIds = Type.Array(IdParam, { minItems: 1, maxItems: MAX_BULK });
export const BulkAssignBody = Type.Object({
  card_ids: Type.Optional(BulkIds),
  item_ids: Type.Optional(BulkIds),
  owner_id: Nullable(IdParam),
});
export type BulkAssignBody = Static<typeof BulkAssignBody>;

const ChecklistItem = Type.Object({
  id: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Integer()])),
  name: Type.String({ minLength: 1, maxLength: 255 }),
  checked: Type.Boolean(),
  points: Type.Optional(Type.Integer({ minimum: -100, maximum: 100 })),
  required: Type.Optional(Type.Boolean()),
  category: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  notes: Type.Optional(Nullable(Text)),
});
export type ChecklistItem = Static<typeof ChecklistItem>;

export const ChecklistBody = Type.Object({
  qualification_checklist: Type.Record(Type.String({ minLength: 1, maxLength: 100 }), ChecklistItem, {
    maxProperties: 100,
  }),
});
export type ChecklistBody = Static<typeof ChecklistBody>;

/* Responses */

const Ref = Type.Object({ id: Type.Integer(), name: Type.String() });

export const CardSchema = Type.Object({
  id: Type.Integer(),
  account_id: Type.Integer(),
  title: Type.String(),
  value: Type.Number(),
  currency: Type.String(),
  status: Type.String({ description: 'open, won or lost' }),
  stage: Type.Object({ id: Type.String(), name: Type.String() }),
  pipeline: Ref,
  contact: Nullable(Ref),
  owner: Nullable(Ref),
  conversation: Nullable(Type.Object({ id: Type.Integer({ description: 'The conversation number' }) })),
  item_details: Type.Object({ title: Nullable(Type.String()), value: Type.Number(), currency: Type.String() }),
  position: Type.Integer(),
  stage_version: Type.Integer(),
  stage_entered_at: Type.String(),
  lead_score: Type.Integer(),
  lead_score_category: Type.String(),
  lead_score_overridden: Type.Boolean(),
  expected_close_date: Nullable(Type.String()),
  custom_attributes: JsonObject,
  qualification_checklist: JsonObject,
  qualified: Type.Boolean(),
  won_note: Nullable(Type.String()),
  lost_reason: Nullable(Type.String()),
  closed_at: Nullable(Type.String()),
  deleted_at: Nullable(Type.String()),
  deleted_reason: Nullable(Type.String({ description: 'Why the card was discarded, while it is' })),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const TimelineEntrySchema = Type.Object(
  {
    id: Type.Integer(),
    type: Type.String(),
    data: JsonObject,
    performed_by: Nullable(
      Type.Object({ id: Nullable(Type.Integer()), name: Nullable(Type.String()), type: Type.String() }),
    ),
    created_at: Type.String(),
  },
  { additionalProperties: true },
);

export const CardAttachmentSchema = Type.Object({
  id: Type.Integer(),
  file_name: Type.String(),
  content_type: Type.String(),
  file_size: Type.Integer(),
  data_url: Type.String(),
  uploaded_by: Nullable(Ref),
  created_at: Type.String(),
});

export const ScoreSchema = Type.Object({
  lead_score: Type.Integer(),
  category: Type.String(),
  category_label: Type.String(),
  overridden: Type.Boolean(),
  factors: Type.Array(Type.Object({ rule_id: Nullable(Type.Integer()), name: Type.String(), points: Type.Integer() })),
});

export const CardDetailSchema = Type.Composite([
  CardSchema,
  Type.Object({
    timeline: Type.Array(TimelineEntrySchema),
    score: ScoreSchema,
    attachments: Type.Array(CardAttachmentSchema),
  }),
]);

export const DeletedAttachmentSchema = Type.Object({
  data: Type.Object({ id: Type.Integer(), deleted: Type.Boolean() }),
});
