import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../../core/http/schemas.js';
import { ATTRIBUTE_MODELS, DISPLAY_TYPES } from './custom-attributes.migration.js';

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));

/** Chatwoot's clients send the enum's name or its number (as a number or as text). */
const DisplayTypeInput = Type.Union(
  [literals([...DISPLAY_TYPES, ...DISPLAY_TYPES.map((_, i) => String(i))]), Type.Integer({ minimum: 0, maximum: 7 })],
  { description: 'text, number, currency, percent, link, date, list, checkbox; or its number 0-7 (Chatwoot)' },
);
const ModelInput = Type.Union([literals([...ATTRIBUTE_MODELS, '0', '1']), Type.Integer({ minimum: 0, maximum: 1 })], {
  description: 'conversation_attribute or contact_attribute; or 0 / 1 (Chatwoot)',
});

const DisplayName = Type.String({ minLength: 1, maxLength: 255 });
const Description = Nullable(Type.String({ maxLength: 2000 }));
const Values = Nullable(
  Type.Array(Type.String({ maxLength: 255 }), {
    maxItems: 200,
    description: 'The choices of a list (required and non-empty for list; ignored by the other types)',
  }),
);
const RegexPattern = Nullable(
  Type.String({ maxLength: 255, description: 'A JavaScript regular expression clients check text values with' }),
);
const RegexCue = Nullable(Type.String({ maxLength: 255, description: 'What clients show when the pattern fails' }));
const DefaultValue = Nullable(
  Type.Union([Type.String({ maxLength: 255 }), Type.Number(), Type.Boolean()], {
    description: 'Stored and shown; must fit the display type',
  }),
);

export const DefinitionCreateBody = Type.Object({
  attribute_display_name: DisplayName,
  attribute_display_type: DisplayTypeInput,
  attribute_key: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'snake_case (lowercase letters, digits, underscores), unique in the account and model',
  }),
  attribute_model: ModelInput,
  attribute_description: Type.Optional(Description),
  attribute_values: Type.Optional(Values),
  regex_pattern: Type.Optional(RegexPattern),
  regex_cue: Type.Optional(RegexCue),
  default_value: Type.Optional(DefaultValue),
});
export type DefinitionCreateBody = Static<typeof DefinitionCreateBody>;

/** Key, model and display type never change: they may be sent again, but only as they are (422 otherwise). */
export const DefinitionUpdateBody = Type.Partial(DefinitionCreateBody);
export type DefinitionUpdateBody = Static<typeof DefinitionUpdateBody>;

export const DefinitionListQuery = Type.Object({
  attribute_model: Type.Optional(
    Type.Union([literals([...ATTRIBUTE_MODELS, '0', '1'])], {
      description: 'Only this model: conversation_attribute (0) or contact_attribute (1)',
    }),
  ),
});
export type DefinitionListQuery = Static<typeof DefinitionListQuery>;

export const DefinitionSchema = Type.Object({
  id: Type.Integer(),
  attribute_display_name: Type.String(),
  attribute_display_type: literals(DISPLAY_TYPES),
  attribute_description: Nullable(Type.String()),
  attribute_key: Type.String(),
  attribute_model: literals(ATTRIBUTE_MODELS),
  attribute_values: Type.Array(Type.String()),
  regex_pattern: Nullable(Type.String()),
  regex_cue: Nullable(Type.String()),
  default_value: Nullable(Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
  created_at: Type.String({ description: 'ISO 8601' }),
  updated_at: Type.String({ description: 'ISO 8601' }),
});

export const DefinitionListSchema = Type.Object({ data: Type.Array(DefinitionSchema) });
