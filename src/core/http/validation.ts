import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import { compilePruner } from './body-shape.js';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

const base: Options = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false };

/** An absolute http(s) URL: what may be linked or fetched (never `javascript:`, `data:`, `file:`...). */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** An IANA time zone name the runtime knows (`America/Sao_Paulo`, `UTC`); offsets and abbreviations like `GMT+3` are not. */
export function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value) || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** Ajv with the standard formats and the project's own (`http-url`, `time-zone`). */
function withFormats(ajv: Ajv): Ajv {
  addFormats(ajv);
  ajv.addFormat('http-url', { type: 'string', validate: isHttpUrl });
  ajv.addFormat('time-zone', { type: 'string', validate: isTimeZone });
  return ajv;
}

type Validate = ReturnType<FastifySchemaCompiler<FastifySchema>> & { errors?: unknown };

/**
 * Two validators: query strings, path params and headers arrive as text, so they are coerced
 * (`"5"` -> 5, `"a"` -> `["a"]`); JSON bodies are taken as sent, so `{"name": 42}` is a 422
 * rather than silently becoming `"42"`. Body fields the schema does not name are dropped first
 * (body-shape.ts), so services only ever receive the fields their route allows.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<FastifySchema> {
  const coercing = withFormats(new Ajv({ ...base, coerceTypes: 'array' }));
  const strict = withFormats(new Ajv({ ...base, coerceTypes: false }));
  return ({ schema, httpPart }) => {
    if (httpPart !== 'body') return coercing.compile(schema as object) as Validate;
    const validate = strict.compile(schema as object) as Validate;
    const prune = compilePruner(schema);
    if (!prune) return validate;
    const pruneThenValidate = ((data: unknown) => {
      prune(data);
      const valid = validate(data);
      pruneThenValidate.errors = validate.errors;
      return valid;
    }) as Validate;
    return pruneThenValidate;
  };
}
