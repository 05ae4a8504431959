import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../../core/http/schemas.js';

/** Chatwoot's label titles: letters, digits, `-` and `_` (any script); stored lower-cased. */
export const LABEL_TITLE_PATTERN = '^[\\p{L}\\p{N}_-]+$';
export const DEFAULT_LABEL_COLOR = '#1f93ff';

const LabelFields = {
  title: Type.String({
    minLength: 1,
    maxLength: 255,
    pattern: LABEL_TITLE_PATTERN,
    description: 'Letters, digits, - and _; stored lower-cased; unique in the account',
  }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 10000 }))),
  color: Type.Optional(
    Type.String({
      pattern: '^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$',
      description: 'Hex color, e.g. #1f93ff',
      examples: ['#1f93ff'],
    }),
  ),
  show_on_sidebar: Type.Optional(Type.Boolean()),
};

export const LabelCreateBody = Type.Object(LabelFields);
export type LabelCreateBody = Static<typeof LabelCreateBody>;

export const LabelUpdateBody = Type.Partial(Type.Object(LabelFields));
export type LabelUpdateBody = Static<typeof LabelUpdateBody>;

export const LabelSchema = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  description: Nullable(Type.String()),
  color: Type.String(),
  show_on_sidebar: Type.Boolean(),
});

export const LabelListSchema = Type.Object({ payload: Type.Array(LabelSchema) });
