import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import { compileBlankQueryDropper, compilePruner, compileRailsReader } from './body-shape.js';
import { isTimestampText, TIMESTAMP_FORMAT } from './timestamps.js';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

// verbose: errors carry the schema that failed, for readable messages (validation-messages.ts).
const base: Options = { allErrors: true, useDefaults: true, removeAdditional: false, strict: false, verbose: true };

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

/**
 * Schema keyword of page numbers: `0` reads as the first page, as Rails paginators read it (the
 * schema allows 0; the value handed on is 1). See PageQuery in schemas.ts.
 */
export const FIRST_PAGE_KEYWORD = 'x-zero-is-first-page';

/** Ajv with the standard formats and the project's own (`http-url`, `time-zone`, `timestamp`), and the page keyword. */
function withFormats(ajv: Ajv): Ajv {
  addFormats(ajv);
  ajv.addFormat('http-url', { type: 'string', validate: isHttpUrl });
  ajv.addFormat('time-zone', { type: 'string', validate: isTimeZone });
  ajv.addFormat(TIMESTAMP_FORMAT, { type: 'string', validate: isTimestampText });
  ajv.addKeyword({
    keyword: FIRST_PAGE_KEYWORD,
    modifying: true,
    schemaType: 'boolean',
    validate: (
      on: boolean,
      data: unknown,
      _schema?: unknown,
      where?: { parentData: Record<string | number, unknown>; parentDataProperty: string | number },
    ) => {
      if (on && data === 0 && where?.parentData) where.parentData[where.parentDataProperty] = 1;
      return true;
    },
  });
  return ajv;
}

export interface ValidatorOptions {
  /**
   * Read JSON bodies as Rails reads parameters (body-shape.ts `compileRailsReader`): numeric text
   * for numbers, "true"/"false" for booleans, one value for a list, "" as not given; and in query
   * strings too, an empty value of an optional parameter as not given (`compileBlankQueryDropper`).
   * The conversation service (Chatwoot's clients) turns it on; the finance service takes requests as sent.
   */
  railsBodies?: boolean;
}

type Validate = ReturnType<FastifySchemaCompiler<FastifySchema>> & { errors?: unknown };

/**
 * Two validators: query strings, path params and headers arrive as text, so they are coerced
 * (`"5"` -> 5, `"a"` -> `["a"]`); JSON bodies are not coerced by Ajv, so `{"name": 42}` is a 422
 * rather than silently becoming `"42"`. Body fields the schema does not name are dropped first
 * (body-shape.ts), so services only ever receive the fields their route allows; with
 * `railsBodies`, the body is then read as Rails reads it (one schema-driven pass, the same for
 * every route), and what still does not fit the schema is a 422 as before.
 */
export function createValidatorCompiler(options: ValidatorOptions = {}): FastifySchemaCompiler<FastifySchema> {
  const coercing = withFormats(new Ajv({ ...base, coerceTypes: 'array' }));
  const strict = withFormats(new Ajv({ ...base, coerceTypes: false }));
  const compileNow: FastifySchemaCompiler<FastifySchema> = ({ schema, httpPart }) => {
    if (httpPart !== 'body') {
      const validate = coercing.compile(schema as object) as Validate;
      const dropBlanks =
        options.railsBodies && httpPart === 'querystring' ? compileBlankQueryDropper(schema) : undefined;
      if (!dropBlanks) return validate;
      const dropThenValidate = ((data: unknown) => {
        dropBlanks(data);
        const valid = validate(data);
        dropThenValidate.errors = validate.errors;
        return valid;
      }) as Validate;
      return dropThenValidate;
    }
    const validate = strict.compile(schema as object) as Validate;
    const prune = compilePruner(schema);
    const read = options.railsBodies ? compileRailsReader(schema) : undefined;
    if (!prune && !read) return validate;
    const prepareThenValidate = ((data: unknown) => {
      prune?.(data);
      // The reader converts in place below the top level; a top-level object stays the same object.
      if (read && data !== null && typeof data === 'object' && !Array.isArray(data)) read(data);
      const valid = validate(data);
      prepareThenValidate.errors = validate.errors;
      return valid;
    }) as Validate;
    return prepareThenValidate;
  };
  return (route) => lazily(() => compileNow(route) as Validate);
}

/**
 * Compiles on the first request instead of at startup: a service has a few hundred schemas, and
 * compiling them all was most of its start time, for routes a given deployment may never see.
 * (Every route's schemas are compiled by the suite, which calls every route.)
 */
function lazily(compile: () => Validate): Validate {
  let compiled: Validate | undefined;
  const validate = ((data: unknown) => {
    compiled ??= compile();
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  }) as Validate;
  return validate;
}

/**
 * Fastify's own response serializers (fast-json-stringify), built on a route's first answer with
 * each status instead of at startup, for the same reason as the validators above.
 */
export function lazySerializers(): SerializerSelector.SerializerFactory {
  const factory = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    return (route) => {
      let serialize: SerializerSelector.Serializer | undefined;
      return (doc) => (serialize ??= compile(route))(doc);
    };
  };
}
