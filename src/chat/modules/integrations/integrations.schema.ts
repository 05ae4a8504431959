import { Type, type Static } from '@sinclair/typebox';
import { IdParam, Nullable } from '../../../core/http/schemas.js';
import { MAX_MESSAGE_CONTENT } from '../messages/messages.schema.js';

const Id = (description: string) => Type.Integer({ minimum: 1, maximum: 2147483647, description });

const STATUS_TEXT = ['enabled', 'disabled', 'true', 'false', '1', '0'] as const;

/** Chatwoot sends 1/0; true/false and enabled/disabled are read the same way. */
const HookStatusInput = Type.Union(
  [
    Type.Boolean(),
    Type.Integer({ minimum: 0, maximum: 1 }),
    Type.Unsafe<(typeof STATUS_TEXT)[number]>({ type: 'string', enum: [...STATUS_TEXT] }),
  ],
  { description: '1 (enabled, the default) or 0 (disabled); true/false and "enabled"/"disabled" too' },
);
export type HookStatusInput = Static<typeof HookStatusInput>;

const Settings = Type.Record(Type.String(), Type.Unknown(), {
  description:
    "The app's settings (see settings_fields in the app catalogue); secret ones are write-only. On update, " +
    'the fields given replace the stored ones, null or "" resets a field to its default, the others stay.',
});

export const HookCreateBody = Type.Object({
  app_id: Type.String({ minLength: 1, maxLength: 100, description: 'An app of the catalogue: openai' }),
  inbox_id: Type.Optional(Nullable(Id('Limit the hook to the conversations of this inbox (default: the account)'))),
  status: Type.Optional(HookStatusInput),
  settings: Type.Optional(Settings),
});
export type HookCreateBody = Static<typeof HookCreateBody>;

export const HookUpdateBody = Type.Object({
  status: Type.Optional(HookStatusInput),
  settings: Type.Optional(Settings),
});
export type HookUpdateBody = Static<typeof HookUpdateBody>;

export const HookSchema = Type.Object({
  id: Type.Integer(),
  app_id: Type.String(),
  inbox_id: Nullable(Type.Integer()),
  account_id: Type.Integer(),
  status: Type.Boolean({ description: 'Whether the hook is enabled' }),
  hook_type: Type.String({ description: 'account, or inbox when limited to one inbox' }),
  settings: Type.Record(Type.String(), Type.String(), { description: 'The effective non-secret settings' }),
  created_at: Type.String({ description: 'ISO 8601' }),
  updated_at: Type.String({ description: 'ISO 8601' }),
});

export const AppSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  hook_type: Type.String(),
  enabled: Type.Boolean({ description: 'openai: the account has an enabled hook; webhook: it has a webhook' }),
  allow_multiple_hooks: Type.Boolean(),
  hooks: Type.Array(HookSchema),
  settings_fields: Type.Array(
    Type.Object({
      name: Type.String(),
      description: Type.String(),
      required: Type.Boolean(),
      secret: Type.Boolean({ description: 'Write-only: accepted, stored encrypted, never returned' }),
      default: Nullable(Type.String()),
    }),
  ),
  managed_at: Type.Optional(Type.String({ description: 'Where its records are managed, when not as hooks' })),
});

export const AppParams = Type.Object({ accountId: IdParam, id: Type.String({ minLength: 1, maxLength: 100 }) });

/** The text events, on `data.content`; the conversation events, on `data.conversation_display_id`. */
export const TEXT_EVENTS = [
  'rephrase',
  'fix_spelling_grammar',
  'shorten',
  'expand',
  'make_friendly',
  'make_formal',
  'simplify',
] as const;
export const CONVERSATION_EVENTS = ['reply_suggestion', 'summarize'] as const;
export type AssistantEvent = (typeof TEXT_EVENTS)[number] | (typeof CONVERSATION_EVENTS)[number];

export const ProcessBody = Type.Object({
  event: Type.Object({
    name: Type.String({
      minLength: 1,
      maxLength: 64,
      description: `One of: ${[...CONVERSATION_EVENTS, ...TEXT_EVENTS].join(', ')}`,
    }),
    data: Type.Optional(
      Type.Object({
        content: Type.Optional(
          Type.String({ maxLength: MAX_MESSAGE_CONTENT, description: 'The text to work on (text events)' }),
        ),
        conversation_display_id: Type.Optional(Id('The conversation to work on (reply_suggestion, summarize)')),
        conversation_id: Type.Optional(Id('Same as conversation_display_id')),
      }),
    ),
  }),
});
export type ProcessBody = Static<typeof ProcessBody>;

export const ProcessAnswer = Type.Object({
  message: Type.String({ description: "The assistant's text" }),
});
