import { Type, type TSchema } from '@sinclair/typebox';

/** Schemas shared by both services' routes. */

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A free-form JSON object (custom/additional attributes, channel settings). */
export const JsonObject = Type.Record(Type.String(), Type.Unknown());

export const IdParam = Type.Integer({ minimum: 1, maximum: 2147483647 });

export const ChatErrorBody = Type.Object(
  {
    error: Type.String(),
    code: Type.String(),
    details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
  },
  { description: 'Error body of the conversation service' },
);

export const PageQuery = Type.Integer({ minimum: 1, maximum: 100000, default: 1 });
