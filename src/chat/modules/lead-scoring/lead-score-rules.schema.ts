import { Type, type Static } from '@sinclair/typebox';
import { JsonObject, Nullable } from '../../../core/http/schemas.js';

/**
 * Rule bodies (`{lead_score_rule: {...}}` or bare). Types are checked here; meaning (a known
 * event_type, condition keys and operators, points between -100 and 100) in the service, so that
 * each refusal names its field.
 */
const RuleFields = {
  name: Type.String({ maxLength: 255 }),
  description: Nullable(Type.String({ maxLength: 5000 })),
  event_type: Type.String({ maxLength: 64 }),
  event_subtype: Nullable(Type.String({ maxLength: 255 })),
  conditions: Nullable(JsonObject),
  points: Type.Integer(),
  enabled: Type.Boolean(),
  priority: Type.Integer({ minimum: -1000000, maximum: 1000000 }),
  cooldown_minutes: Type.Integer({ minimum: 0, maximum: 5256000 }),
};

export const RuleCreateBody = Type.Object({
  ...Type.Partial(Type.Object(RuleFields)).properties,
  event_type: RuleFields.event_type,
  points: RuleFields.points,
});
export type RuleCreateBody = Static<typeof RuleCreateBody>;

export const RuleUpdateBody = Type.Partial(Type.Object(RuleFields));
export type RuleUpdateBody = Static<typeof RuleUpdateBody>;

export const RuleSchema = Type.Object({
  id: Type.Integer(),
  account_id: Type.Integer(),
  name: Type.String(),
  description: Nullable(Type.String()),
  event_type: Type.String(),
  event_subtype: Nullable(Type.String()),
  conditions: JsonObject,
  points: Type.Integer(),
  enabled: Type.Boolean(),
  priority: Type.Integer(),
  cooldown_minutes: Type.Integer(),
  created_at: Type.String(),
  updated_at: Type.String(),
});
