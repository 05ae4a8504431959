import { Type, type TSchema } from '@sinclair/typebox';
import { english, render, type Text } from '../../core/i18n/catalogue.js';
import type { Language } from '../../core/i18n/language.js';

/**
 * The finance envelope: every success is `{success: true, data, message?}`; every error is
 * `{success: false, message, error: {code, details?}}` (written by core's `financeErrorBody`).
 */

/** The texts of the success messages `ok` wrote (in English), until the answer is serialized. */
const messages = new WeakMap<object, Text>();

/**
 * A success; its message is a text of the catalogue, written in English here and in the request's
 * language when the answer is sent (`localizeMessage`, the finance app's preSerialization hook).
 */
export function ok<T>(data: T, message?: Text): { success: true; data: T; message?: string } {
  if (message === undefined) return { success: true, data };
  const body = { success: true as const, data, message: english(message) };
  messages.set(body, message);
  return body;
}

/** Writes the message of a success `ok` made in `language`; any other payload is left as it is. */
export function localizeMessage(payload: unknown, language: Language): void {
  const text = typeof payload === 'object' && payload !== null ? messages.get(payload) : undefined;
  if (text !== undefined) (payload as { message: string }).message = render(text, language);
}

/** Response schema of a success carrying `data` of the given schema. */
export const Envelope = <T extends TSchema>(data: T, description?: string) =>
  Type.Object(
    { success: Type.Literal(true), data, message: Type.Optional(Type.String()) },
    description ? { description } : {},
  );

/** A success that carries only a message (`data` is null). */
export const MessageEnvelope = Envelope(Type.Null());

export const FinanceErrorBody = Type.Object(
  {
    success: Type.Literal(false),
    message: Type.String(),
    error: Type.Object({
      code: Type.String(),
      details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
    }),
  },
  { description: 'Error body of the finance service' },
);

/** Error responses for a route's schema: `errorResponses(401, 403, 404, 422)`. */
export function errorResponses(...statuses: number[]): Record<number, typeof FinanceErrorBody> {
  return Object.fromEntries(statuses.map((s) => [s, FinanceErrorBody]));
}

/** An id in the API: a positive integer written as a string (numbers are accepted too in bodies). */
export const IdString = Type.String({ pattern: '^[1-9][0-9]{0,9}$', maxLength: 10, description: 'id (string)' });

/** Path parameter of an id (coerced from the path text). */
export const IdPathParam = Type.Integer({ minimum: 1, maximum: 2147483647 });

/** Query parameters of a paginated list: `page` from 1, `limit` up to `maxLimit`. */
export const PageQuery = (defaultLimit = 20, maxLimit = 100) =>
  Type.Object({
    page: Type.Integer({ minimum: 1, maximum: 100000, default: 1 }),
    limit: Type.Integer({ minimum: 1, maximum: maxLimit, default: defaultLimit }),
  });

/** The security requirement of routes that need an access token (OpenAPI). */
export const bearer = [{ bearer: [] }];
