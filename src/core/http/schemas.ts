import { Type, type TSchema } from '@sinclair/typebox';
import { FIRST_PAGE_KEYWORD } from './validation.js';

/** Schemas shared by both services' routes. */

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A free-form JSON object (custom/additional attributes, channel settings). */
export const JsonObject = Type.Record(Type.String(), Type.Unknown());

/** An absolute http(s) URL (links shown to people, addresses the service calls). */
export const HttpUrl = (options: { maxLength?: number; description?: string } = {}) =>
  Type.String({
    format: 'http-url',
    maxLength: options.maxLength ?? 2048,
    examples: ['https://example.com/hooks/ponte'],
    ...(options.description ? { description: options.description } : {}),
  });

/** An IANA time zone name (`America/Sao_Paulo`). */
export const TimeZone = Type.String({
  format: 'time-zone',
  maxLength: 64,
  description: 'IANA time zone, e.g. America/Sao_Paulo',
  examples: ['America/Sao_Paulo'],
});

export const IdParam = Type.Integer({ minimum: 1, maximum: 2147483647 });

export const ChatErrorBody = Type.Object(
  {
    error: Type.String(),
    code: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
  },
  { description: 'Error body of the conversation service' },
);

/** A page number from 1; `page=0` reads as page 1 (Rails paginators do so; validation.ts FIRST_PAGE_KEYWORD). */
export const PageQuery = Type.Integer({ minimum: 0, maximum: 100000, default: 1, [FIRST_PAGE_KEYWORD]: true });
