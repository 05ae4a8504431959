import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../../core/http/schemas.js';

/* Requests */

const Color = Type.String({
  pattern: '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$',
  description: 'Hex colour, #rrggbb',
  examples: ['#1f93ff'],
});

export const MAX_STAGES = 50;

const StageInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  color: Type.Optional(Nullable(Color)),
  position: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: '1 = first' })),
});
export type StageInput = Static<typeof StageInput>;

/**
 * Stages as a hash keyed by temporary ids (never an array); on update, a key that is an existing
 * stage id keeps that stage (and its cards).
 */
const StagesHash = Type.Record(Type.String({ minLength: 1, maxLength: 100 }), StageInput, {
  minProperties: 1,
  maxProperties: MAX_STAGES,
  description:
    'A hash keyed by temporary ids ({"new_1": {"name": "Lead", "position": 1}}); on update, existing stage ids keep their stage',
});

export const PipelineCreateBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 10000 }))),
  stages: StagesHash,
});
export type PipelineCreateBody = Static<typeof PipelineCreateBody>;

export const PipelineUpdateBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  description: Type.Optional(Nullable(Type.String({ maxLength: 10000 }))),
  stages: Type.Optional(StagesHash),
});
export type PipelineUpdateBody = Static<typeof PipelineUpdateBody>;

/* Responses */

export const StageSchema = Type.Object({
  id: Type.String({ description: '{pipeline_id}_{slug}' }),
  name: Type.String(),
  color: Nullable(Type.String()),
  position: Type.Integer({ description: '0 = first' }),
  cards_count: Type.Integer(),
  total_value: Type.Number(),
});

export const PipelineSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Nullable(Type.String()),
  stages: Type.Array(StageSchema),
  cards_count: Type.Integer(),
  total_value: Type.Number(),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const ListMeta = Type.Object({
  total: Type.Integer(),
  page: Type.Integer(),
  per_page: Type.Integer(),
});

export const DeletedSchema = Type.Object({ data: Type.Object({ id: Type.Integer(), deleted: Type.Boolean() }) });
