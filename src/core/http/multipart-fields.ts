import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { Static, TObject } from '@sinclair/typebox';
import { validationFailed, type FieldIssue } from './errors.js';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

/**
 * Multipart text fields are all strings, so they are validated with type coercion
 * (`"true"` -> true, `"3"` -> 3, `"a"` -> ["a"]), unlike JSON bodies.
 */
const ajv = addFormats(
  new Ajv({
    allErrors: true,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
    coerceTypes: 'array',
    verbose: true,
  }),
);
const compiled = new WeakMap<TObject, ValidateFunction>();

/**
 * Ajv's errors as Fastify reports a body's: the error handler words them in the request's language,
 * as it does for a JSON body.
 */
class FieldsInvalid extends Error {
  readonly statusCode = 422;
  readonly validationContext = 'body';
  constructor(readonly validation: ErrorObject[]) {
    super('Invalid request');
  }
}

function isJsonProperty(schema: unknown): boolean {
  const s = schema as { type?: unknown; items?: { type?: unknown }; anyOf?: unknown[] } | undefined;
  if (!s) return false;
  if (s.type === 'object') return true;
  if (s.type === 'array' && s.items?.type === 'object') return true;
  return Array.isArray(s.anyOf) && s.anyOf.some(isJsonProperty);
}

/**
 * Validates multipart text fields against the JSON body schema of the same route and returns
 * the typed body, or throws the same 422 `validation_failed` a JSON body would get. Properties
 * whose schema is an object (or an array of objects), such as `content_attributes`, are sent as
 * JSON text in a form and parsed here.
 */
export function validateFields<T extends TObject>(schema: T, fields: Record<string, string | string[]>): Static<T> {
  const data: Record<string, unknown> = { ...fields };
  const problems: FieldIssue[] = [];
  for (const [name, value] of Object.entries(data)) {
    if (typeof value !== 'string' || !isJsonProperty(schema.properties[name])) continue;
    try {
      data[name] = JSON.parse(value);
    } catch {
      problems.push({ field: name, message: 'must be JSON text' });
    }
  }
  if (problems.length > 0) throw validationFailed(problems);

  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (!validate(data)) throw new FieldsInvalid(validate.errors ?? []);
  return data as Static<T>;
}
