import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;

const base: Options = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false };

/**
 * Two validators: query strings, path params and headers arrive as text, so they are coerced
 * (`"5"` -> 5, `"a"` -> `["a"]`); JSON bodies are taken as sent, so `{"name": 42}` is a 422
 * rather than silently becoming `"42"`.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<FastifySchema> {
  const coercing = addFormats(new Ajv({ ...base, coerceTypes: 'array' }));
  const strict = addFormats(new Ajv({ ...base, coerceTypes: false }));
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<FastifySchema>>;
  };
}
