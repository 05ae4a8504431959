import fc from 'fast-check';
import type { App } from '../../src/core/http/app.types.js';

/**
 * Schema-driven request fuzzing for the services' OpenAPI documents (test/fuzz.test.ts).
 *
 * Each operation of a document becomes a fast-check property over `fc.gen()`: the generator draws
 * path parameters, a query string, credentials and a body from the operation's own schemas, then
 * bends them (wrong types, boundary numbers, huge and odd strings, deep nesting written as JSON
 * text, missing and unknown fields, other content types, malformed JSON). The property is that
 * the service never answers 5xx, and that every answer >= 400 carries the service's error body.
 *
 * Bodies are built as JSON *text* (see `jsonText`): fragments that JavaScript values cannot carry
 * (lone surrogates, `-0`, `1e309`, numbers beyond 2^53, `__proto__` members, duplicate keys,
 * nesting thousands deep) are spliced in verbatim as `Raw` fragments or `Members` lists.
 */

// ---------------------------------------------------------------------------------------------
// The OpenAPI document

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  contentMediaType?: string;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  /** `METHOD /path/{param}` as in the document. */
  key: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  pathParams: Parameter[];
  query: Parameter[];
  /** Header parameters the document names (credentials aside). */
  headers: Parameter[];
  jsonBody?: JsonSchema;
  multipartBody?: JsonSchema;
  /** The security schemes of the operation (empty: no credential needed). */
  security: string[];
}

interface OpenApiOperation {
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  security?: Record<string, unknown>[];
}

/** Every operation of an OpenAPI document (methods other than the five are ignored). */
export function operationsOf(doc: { paths: Record<string, Record<string, OpenApiOperation>> }): Operation[] {
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [lower, op] of Object.entries(ops)) {
      const method = lower.toUpperCase();
      if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) continue;
      const params = (op.parameters ?? []).map((p) => ({
        name: p.name,
        in: p.in as Parameter['in'],
        required: p.required === true,
        schema: p.schema ?? {},
      }));
      const content = op.requestBody?.content ?? {};
      out.push({
        key: `${method} ${path}`,
        method: method as Operation['method'],
        path,
        pathParams: params.filter((p) => p.in === 'path'),
        query: params.filter((p) => p.in === 'query'),
        headers: params.filter((p) => p.in === 'header'),
        jsonBody: content['application/json']?.schema,
        multipartBody: content['multipart/form-data']?.schema,
        security: (op.security ?? []).flatMap((s) => Object.keys(s)),
      });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Drawing from fc.gen()

/*
 * `g(builder, ...args)` caches the arbitrary it builds by the builder's identity, and shrinking
 * replays a recorded value only when the same arbitrary instance asks for it again. A fresh
 * closure per call (`g(() => arb)`) therefore never shrinks (every replay draws anew, forever)
 * and grows the cache without end. So every arbitrary drawn here is built once per key and kept
 * in this registry; `g` sees one stable builder and a number.
 */
const registry: fc.Arbitrary<unknown>[] = [];
const registryIndex = new Map<string, number>();
const fromRegistry = (i: number) => registry[i];
const schemaIds = new WeakMap<object, number>();
let nextSchemaId = 0;

/** A number naming this schema object (for registry keys). */
export function schemaId(schema: object): number {
  let id = schemaIds.get(schema);
  if (id === undefined) {
    id = nextSchemaId++;
    schemaIds.set(schema, id);
  }
  return id;
}

/** Draws from the arbitrary `make` builds, built once per `key`. */
export function draw<T>(g: fc.GeneratorValue, key: string, make: () => fc.Arbitrary<T>): T {
  let i = registryIndex.get(key);
  if (i === undefined) {
    i = registry.push(make()) - 1;
    registryIndex.set(key, i);
  }
  return g(fromRegistry, i) as T;
}

// ---------------------------------------------------------------------------------------------
// JSON text

/** A piece of JSON text written into the body as it is. */
export class Raw {
  constructor(readonly text: string) {}
}

/** An object written member by member: keeps duplicate keys and `__proto__` exactly as listed. */
export class Members {
  constructor(readonly members: [string, Json][]) {}
}

/** A string made when the body is written (a new e-mail address each time, say). */
export class Fresh {
  constructor(readonly make: () => string) {}
}

export type Json = null | boolean | number | string | Raw | Members | Fresh | Json[] | { [key: string]: Json };

/** Serializes a value that may hold `Raw` and `Members` parts. */
export function jsonText(value: Json): string {
  if (value instanceof Raw) return value.text;
  if (value instanceof Fresh) return JSON.stringify(value.make());
  if (value instanceof Members)
    return `{${value.members.map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .map((k) => `${JSON.stringify(k)}:${jsonText((value as Record<string, Json>)[k])}`)
      .join(',')}}`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return 'null';
  return JSON.stringify(value) ?? 'null';
}

const isPlainObject = (v: unknown): v is Record<string, Json> =>
  v !== null &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  !(v instanceof Raw) &&
  !(v instanceof Members) &&
  !(v instanceof Fresh);

/** Sets a member as an own property, even when the key is `__proto__`. */
function withMember(obj: Record<string, Json>, key: string, value: Json): Record<string, Json> {
  const copy: Record<string, Json> = {};
  for (const k of Object.keys(obj))
    Object.defineProperty(copy, k, { value: obj[k], enumerable: true, writable: true, configurable: true });
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

function withoutMember(obj: Record<string, Json>, key: string): Record<string, Json> {
  const copy: Record<string, Json> = {};
  for (const k of Object.keys(obj))
    if (k !== key)
      Object.defineProperty(copy, k, { value: obj[k], enumerable: true, writable: true, configurable: true });
  return copy;
}

/** Nesting `depth` levels deep, written directly as text (no recursion anywhere). */
export function nestedText(depth: number, shape: 'array' | 'object' | 'mixed'): string {
  if (shape === 'array') return `${'['.repeat(depth)}1${']'.repeat(depth)}`;
  if (shape === 'object') return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const half = Math.ceil(depth / 2);
  return `${'[{"a":'.repeat(half)}1${'}]'.repeat(half)}`;
}

// ---------------------------------------------------------------------------------------------
// Values

/** What a generator knows about the service under test. */
export interface GenContext {
  /** Meaningful values for a field of this name (existing ids, known e-mails, event names), or none. */
  hints(name: string | undefined): Json[] | undefined;
  /** Changes whenever the hints may have changed (seeded data rebuilt): arbitraries are rebuilt then. */
  version(): number;
}

const validKey = (schema: JsonSchema, ctx: GenContext, name?: string) =>
  `valid|${schemaId(schema)}|${name ?? ''}|${ctx.version()}`;
const nastyKey = (schema: JsonSchema, ctx: GenContext, name?: string) =>
  `nasty|${schemaId(schema)}|${name ?? ''}|${ctx.version()}`;

const typesOf = (schema: JsonSchema): string[] => {
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type) return [schema.type];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return [...new Set(alternatives.flatMap(typesOf))];
  if (schema.enum)
    return [...new Set(schema.enum.map((v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)))];
  return [];
};

const anyJson = (): fc.Arbitrary<Json> => fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>;

const EMAILS = ['user@example.test', 'a@b.co', 'UPPER@Example.TEST', 'first.last+tag@sub.example.test'];

/** A value the schema accepts (or close to it: formats and patterns are followed loosely). */
export function validArb(schema: JsonSchema, ctx: GenContext, name?: string, depth = 0): fc.Arbitrary<Json> {
  let base: fc.Arbitrary<Json>;
  if (schema.const !== undefined) base = fc.constant(schema.const as Json);
  else if (schema.enum && schema.enum.length > 0) base = fc.constantFrom(...(schema.enum as Json[]));
  else if (schema.anyOf?.length || schema.oneOf?.length) {
    base = fc.oneof(...(schema.anyOf ?? schema.oneOf)!.map((s) => validArb(s, ctx, name, depth)));
  } else {
    const types = typesOf(schema);
    base =
      types.length === 0 ? anyJson() : fc.oneof(...types.map((type) => validOfType(type, schema, ctx, name, depth)));
  }
  const hinted = schema.enum || schema.const !== undefined ? undefined : ctx.hints(name);
  return hinted && hinted.length > 0
    ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...hinted) }, { weight: 1, arbitrary: base })
    : base;
}

function validOfType(
  type: string,
  schema: JsonSchema,
  ctx: GenContext,
  name: string | undefined,
  depth: number,
): fc.Arbitrary<Json> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const lo = Math.max(schema.minimum ?? -1000, Number.MIN_SAFE_INTEGER);
      const hi = Math.min(schema.maximum ?? 1_000_000, Number.MAX_SAFE_INTEGER);
      if (lo > hi) return fc.constant(lo);
      return fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: lo, max: Math.min(hi, lo + 10) }) },
        { weight: 1, arbitrary: fc.integer({ min: lo, max: hi }) },
      );
    }
    case 'number': {
      const lo = schema.minimum ?? -1e6;
      const hi = Math.min(schema.maximum ?? 1e9, 1e12);
      if (lo > hi) return fc.constant(lo);
      const choices: fc.Arbitrary<Json>[] = [fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true })];
      const intLo = Math.ceil(lo);
      const intHi = Math.floor(Math.min(hi, intLo + 10_000));
      if (intLo <= intHi) choices.push(fc.integer({ min: intLo, max: intHi }));
      const centLo = Math.ceil(lo * 100);
      const centHi = Math.floor(Math.min(hi, 1e9) * 100);
      if (centLo <= centHi) choices.push(fc.integer({ min: centLo, max: centHi }).map((n) => n / 100));
      return fc.oneof(...choices);
    }
    case 'string':
      return validString(schema);
    case 'array': {
      const min = schema.minItems ?? 0;
      const max = Math.max(min, Math.min(schema.maxItems ?? 3, 3));
      // Hints name whole fields, so the items of an array field go without them.
      const items = schema.items ? validArb(schema.items, ctx, undefined, depth + 1) : anyJson();
      return fc.array(items, { minLength: min, maxLength: max });
    }
    case 'object': {
      if (depth > 6) return fc.constant({});
      const props = Object.entries(schema.properties ?? {});
      if (props.length > 0) {
        const required = (schema.required ?? []).filter((k) => schema.properties![k]);
        return fc.record(Object.fromEntries(props.map(([k, s]) => [k, validArb(s, ctx, k, depth + 1)])), {
          requiredKeys: required,
        }) as fc.Arbitrary<Json>;
      }
      if (schema.additionalProperties === false) return fc.constant({});
      const values =
        typeof schema.additionalProperties === 'object'
          ? validArb(schema.additionalProperties, ctx, undefined, depth + 1)
          : anyJson();
      const maxKeys = Math.min(schema.maxProperties ?? 4, 4);
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), values, {
        maxKeys,
        minKeys: Math.min(schema.minProperties ?? 0, maxKeys),
      }) as fc.Arbitrary<Json>;
    }
    default:
      return anyJson();
  }
}

function validString(schema: JsonSchema): fc.Arbitrary<Json> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 10_000;
  if (min > max) return fc.constant('x'.repeat(min));
  // Never `.filter` here: a filter that cannot pass makes fast-check retry forever. Values of the
  // wrong length fall back to a plain string of the smallest allowed length instead.
  const fallback = 'x'.repeat(Math.max(min, 1) <= max ? Math.max(min, 1) : min);
  const fit = (arb: fc.Arbitrary<string>): fc.Arbitrary<Json> =>
    arb.map((s) => (s.length >= min && s.length <= max ? s : fallback));
  if (schema.format === 'email') return fit(fc.oneof(fc.constantFrom(...EMAILS), fc.emailAddress()));
  if (schema.format === 'date') {
    return fc
      .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2199-12-31T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  }
  if (schema.format === 'date-time') {
    return fc
      .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2199-12-31T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString());
  }
  if (schema.format === 'uri' || schema.format === 'url' || schema.format === 'http-url') {
    return fit(
      fc.oneof(
        fc.constantFrom('https://example.test/hook', 'http://shop.example.test', 'https://example.test/a?b=c#d'),
        fc.webUrl({ validSchemes: ['http', 'https'] }),
      ),
    );
  }
  if (schema.format === 'time-zone')
    return fc.constantFrom(
      'UTC',
      'America/Sao_Paulo',
      'Europe/Berlin',
      'Asia/Kolkata',
      'Pacific/Chatham',
      'Etc/GMT+12',
    );
  if (schema.format === 'uuid') return fc.uuid();
  const top = Math.max(min, Math.min(max, 40));
  const plain: fc.WeightedArbitrary<Json>[] = [
    { weight: 6, arbitrary: fc.string({ minLength: min, maxLength: top, unit: 'grapheme-ascii' }) },
    { weight: 2, arbitrary: fit(fc.string({ minLength: min, maxLength: top, unit: 'grapheme' })) },
  ];
  if (max <= 100_000 && max > top) plain.push({ weight: 1, arbitrary: fc.constant('x'.repeat(max)) });
  if (schema.pattern) {
    let re: RegExp | undefined;
    try {
      re = new RegExp(schema.pattern);
    } catch {
      re = undefined;
    }
    if (re)
      return fc.oneof({ weight: 4, arbitrary: fit(fc.stringMatching(re)) }, ...plain.map((p) => ({ ...p, weight: 1 })));
  }
  return fc.oneof(...plain);
}

const raw = (text: string) => new Raw(text);

/** Numbers at and past the edges of integers, doubles and the JSON grammar. */
export const BOUNDARY_NUMBERS: Json[] = [
  0,
  -1,
  1,
  0.5,
  -0.01,
  0.001,
  100.005,
  2147483647,
  2147483648,
  -2147483648,
  -2147483649,
  4294967296,
  9007199254740991,
  raw('9007199254740993'),
  raw('-9007199254740993'),
  raw('1e308'),
  raw('-1e308'),
  raw('1e309'),
  raw('-1e309'),
  raw('-0'),
  raw('-0.0'),
  raw('1e-400'),
  raw('123456789012345678901234567890.5'),
  raw('1.0'),
  raw('1E2'),
  999999999999.99,
  1e15,
  5e-324,
  'NaN',
  'Infinity',
  '-Infinity',
  '1',
  '0x10',
  ' 7 ',
  '1e3',
];

/** Strings that tend to break parsers, collations, LIKE patterns, URL builders and logs. */
export const NASTY_STRINGS: Json[] = [
  '',
  ' ',
  '   ',
  'null',
  'undefined',
  'true',
  'false',
  '0',
  '-1',
  '1e400',
  'NaN',
  '[]',
  '{}',
  '🙂',
  '👩🏽‍🚀👨‍👩‍👧‍👦🏳️‍🌈',
  'مرحبا بالعالم',
  'שלום עולם',
  '\u202Eevil\u202C',
  '\u200B\u200C\u200D\uFEFF',
  'e\u0301\u0301\u0301',
  'Ⅻ ǅ İ ß ﬁ',
  '١٢٣',
  '１２３',
  'a\u0000b',
  '\u0000',
  '\r\n\t',
  'line\nbreak',
  raw('"\\ud800"'),
  raw('"\\udfff tail"'),
  raw('"x\\ud83d"'),
  raw('"\\ud83d\\ude00"'),
  raw('"\\u0000\\u0001\\u001f"'),
  "' OR '1'='1",
  "'; DROP TABLE contacts; --",
  '" OR ""="',
  '%',
  '_',
  '%_%',
  '\\',
  '\\%',
  '*',
  '?',
  '$1',
  '${7*7}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '../../../etc/passwd',
  'C:\\Windows\\system32',
  '%00',
  '%ZZ',
  '&amp;',
  'a&b=c',
  'user@example.test',
  'not-an-email',
  '@',
  'a@',
  '@b',
  'https://example.com',
  'http://127.0.0.1:5432/',
  'javascript:alert(1)',
  'file:///etc/passwd',
  'ftp://x',
  '2025-02-30',
  '0000-00-00',
  '9999-12-31',
  '2025-13-01',
  '1970-01-01',
  '2025-03-10T25:61:00Z',
  '+5511999990000',
  '+',
  'BRL',
  'brl',
  'UTC',
  'Mars/Olympus',
  'a'.repeat(256),
  'a'.repeat(1001),
  'é'.repeat(300),
];

const HUGE_UNITS = ['a', 'é', '🙂', '\u0000', ' ', '%', '"', '\\', '\u202E'];

/** Strings of 1 KB to ~100 KB. */
export const hugeStringArb: fc.Arbitrary<Json> = fc
  .tuple(fc.constantFrom(...HUGE_UNITS), fc.integer({ min: 1_000, max: 100_000 }))
  .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length)));

/** Arrays and objects nested around the service's limit, then far past it. */
export const deepArb: fc.Arbitrary<Json> = fc
  .tuple(
    fc.oneof(
      { weight: 2, arbitrary: fc.integer({ min: 60, max: 70 }) },
      { weight: 4, arbitrary: fc.integer({ min: 100, max: 3000 }) },
      { weight: 1, arbitrary: fc.integer({ min: 3001, max: 20_000 }) },
    ),
    fc.constantFrom('array' as const, 'object' as const, 'mixed' as const),
  )
  .map(([depth, shape]) => raw(nestedText(depth, shape)));

const PROTO_OBJECTS: Json[] = [
  new Members([['__proto__', { isAdmin: true, role: 'administrator' }]]),
  new Members([['constructor', { prototype: { isAdmin: true } }]]),
  new Members([
    ['a', 1],
    ['a', 2],
  ]),
  new Members([['__proto__', null]]),
  new Members([
    ['toString', 'x'],
    ['hasOwnProperty', 1],
    ['valueOf', {}],
  ]),
];

/** Unknown members a client might smuggle in. */
const EXTRA_KEYS = [
  'id',
  'account_id',
  'accountId',
  'created_at',
  'updated_at',
  'createdAt',
  'user_id',
  'userId',
  'role',
  'admin',
  'is_admin',
  'password_hash',
  'access_token',
  'display_id',
  'status',
  'deleted_at',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '',
  ' ',
  '$where',
  'a.b',
  'a[b]',
  '🙂',
  'x'.repeat(300),
];

function wrongTypes(schema: JsonSchema): Json[] {
  const allowed = new Set(typesOf(schema).map((t) => (t === 'integer' ? 'number' : t)));
  const candidates: [string, Json][] = [
    ['boolean', true],
    ['boolean', false],
    ['number', 12345],
    ['number', -7.5],
    ['string', 'text'],
    ['string', '12'],
    ['array', []],
    ['array', [1, 'a', null]],
    ['object', {}],
    ['object', { a: 1 }],
    ['null', null],
  ];
  const wrong = candidates.filter(([type]) => !allowed.has(type)).map(([, v]) => v);
  return wrong.length > 0 ? wrong : candidates.map(([, v]) => v);
}

/** A value meant to upset the field: wrong types, edges, odd text, nesting, smuggled members. */
export function nastyArb(schema: JsonSchema, ctx: GenContext, name?: string): fc.Arbitrary<Json> {
  const types = typesOf(schema);
  const numeric = types.includes('integer') || types.includes('number');
  const textual = types.includes('string');
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...wrongTypes(schema)) },
    { weight: numeric ? 5 : 1, arbitrary: fc.constantFrom(...BOUNDARY_NUMBERS) },
    { weight: textual ? 5 : 1, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
    { weight: 1, arbitrary: hugeStringArb },
    { weight: 1, arbitrary: deepArb },
    { weight: 1, arbitrary: fc.string({ maxLength: 30, unit: 'binary' }) as fc.Arbitrary<Json> },
    { weight: 1, arbitrary: anyJson() },
    { weight: 1, arbitrary: validArb(schema, ctx, name).map((v) => [v, v] as Json) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTO_OBJECTS) },
  );
}

/** Replaces one value somewhere inside `value` (descending through the schema) with a nasty one. */
function mutateDeep(
  g: fc.GeneratorValue,
  schema: JsonSchema,
  value: Json,
  ctx: GenContext,
  name: string | undefined,
  depth: number,
): Json {
  const props = schema.properties ?? {};
  if (isPlainObject(value) && depth > 0 && g(fc.nat, { max: 4 }) === 0) return mangleObject(g, schema, value, ctx);
  if (isPlainObject(value) && depth < 5) {
    const keys = [...new Set([...Object.keys(value), ...Object.keys(props)])];
    if (keys.length > 0 && g(fc.boolean)) {
      const key = g(fc.constantFrom, ...keys);
      const sub = props[key] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : {});
      const current = Object.prototype.hasOwnProperty.call(value, key)
        ? value[key]
        : draw(g, validKey(sub, ctx, key), () => validArb(sub, ctx, key));
      return withMember(value, key, mutateDeep(g, sub, current, ctx, key, depth + 1));
    }
  }
  if (Array.isArray(value) && value.length > 0 && depth < 5 && g(fc.boolean)) {
    const i = g(fc.nat, { max: value.length - 1 });
    const copy = [...value];
    copy[i] = mutateDeep(g, schema.items ?? {}, value[i], ctx, name, depth + 1);
    return copy;
  }
  const target = schema.anyOf?.find((s) => typesOf(s).includes('object') || typesOf(s).includes('array')) ?? schema;
  return draw(g, nastyKey(target, ctx, name), () => nastyArb(target, ctx, name));
}

/** Object-level damage: a missing required member, smuggled members, a `__proto__` member. */
function mangleObject(g: fc.GeneratorValue, schema: JsonSchema, value: Json, ctx: GenContext): Json {
  if (!isPlainObject(value)) return value;
  let out: Record<string, Json> = value;
  const required = (schema.required ?? []).filter((k) => k in out);
  const choice = g(fc.constantFrom, 'drop', 'extra', 'proto', 'empty-required');
  if ((choice === 'drop' || choice === 'empty-required') && required.length > 0) {
    const key = g(fc.constantFrom, ...required);
    return choice === 'drop'
      ? withoutMember(out, key)
      : withMember(out, key, g(fc.constantFrom, '', null, [], {}, ' '));
  }
  if (choice === 'proto') {
    const members = Object.keys(out).map((k) => [k, out[k]] as [string, Json]);
    const at = g(fc.nat, { max: members.length });
    members.splice(at, 0, [
      g(fc.constantFrom, '__proto__', 'constructor'),
      g(fc.constantFrom, ...PROTO_OBJECTS, { isAdmin: true } as Json),
    ]);
    return new Members(members);
  }
  const count = g(fc.integer, { min: 1, max: 4 });
  for (let i = 0; i < count; i++) {
    const key = draw(g, 'extra-key', () => fc.oneof(fc.constantFrom(...EXTRA_KEYS), fc.string({ maxLength: 10 })));
    out = withMember(
      out,
      key,
      draw(g, `extra-value|${ctx.version()}`, () =>
        fc.oneof(fc.constantFrom<Json>(1, 'x', null, true, { nested: { id: 1, account_id: 2 } }), nastyArb({}, ctx)),
      ),
    );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Bodies

export interface BodyPart {
  payload?: string | Buffer;
  contentType?: string;
}

/** Envelopes that are not the JSON the route expects. */
const ODD_ENVELOPES: [string | undefined, string | Buffer][] = [
  ['text/plain', 'hello'],
  ['text/plain', '{"name":"x"}'],
  ['application/x-www-form-urlencoded', 'name=a&email=b%40c.d&amount=1'],
  ['application/xml', '<?xml version="1.0"?><a><b>1</b></a>'],
  ['application/octet-stream', Buffer.from([0, 1, 2, 255])],
  ['multipart/form-data', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n'],
  ['multipart/form-data; boundary=abc', 'not multipart at all'],
  ['multipart/form-data; boundary=abc', '--abc\r\nContent-Disposition: form-data; name="content"\r\n\r\nunterminated'],
  ['application/json; charset=utf-16', '{}'],
  ['application/json; charset=latin1', '{"name":"caf\u00e9"}'],
  ['application/vnd.api+json', '{}'],
  ['APPLICATION/JSON', '{}'],
  ['application/json;', '{}'],
  ['application/json;;;;', '{}'],
  ['text/json', '{}'],
  ['application/jsonx', '{}'],
  ['application/json', '{"a":'],
  ['application/json', "{'a':1}"],
  ['application/json', '{a:1}'],
  ['application/json', 'NaN'],
  ['application/json', 'undefined'],
  ['application/json', '[1,]'],
  ['application/json', '{"a":1,}'],
  ['application/json', '\uFEFF{}'],
  ['application/json', '{"a":1}{"b":2}'],
  ['application/json', '{"a":"\\x41"}'],
  ['application/json', '{"a":"\\u12"}'],
  ['application/json', '"\\ud800"'],
  ['application/json', '{"a":"unterminated}'],
  ['application/json', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0x80, 0x22, 0x7d])],
  ['application/json', Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d])],
  ['application/json', '   '],
  ['application/json', '\u0000'],
  ['application/json', '{"__proto__":{"admin":true}}'],
  ['application/json', '{"a":{"constructor":{"prototype":{"admin":true}}}}'],
  ['application/json', '{"a":{"b":{"c":[{"__proto__":{"x":1}}]}}}'],
  [undefined, '{"name":"no content type"}'],
];

/** A multipart body: the schema's fields as text parts, and some files with odd names and types. */
function multipartArb(schema: JsonSchema, ctx: GenContext): fc.Arbitrary<BodyPart> {
  const fields = Object.entries(schema.properties ?? {}).filter(
    ([, s]) => !(s.type === 'array' && s.items?.contentMediaType),
  );
  const fieldArb =
    fields.length === 0
      ? fc.constant([] as [string, string][])
      : fc.array(
          fc
            .constantFrom(...fields)
            .chain(([name, s]) =>
              fc
                .oneof(validArb(s, ctx, name), nastyArb(s, ctx, name))
                .map((v) => [name, typeof v === 'string' ? v : jsonText(v)] as [string, string]),
            ),
          { maxLength: 4 },
        );
  const fileArb = fc.record({
    field: fc.constantFrom('file', 'file[]', 'attachments[]', 'attachment', 'other', '', 'a"b'),
    filename: fc.constantFrom(
      'a.png',
      'notes.txt',
      'table.csv',
      'doc.pdf',
      'page.html',
      '../../etc/passwd',
      '🙂.pdf',
      'no-extension',
      '.htaccess',
      '',
      `${'a'.repeat(300)}.txt`,
      'a.PNG',
      'x.svg',
    ),
    type: fc.constantFrom(
      'image/png',
      'text/plain',
      'application/pdf',
      'text/csv',
      'text/html',
      'image/svg+xml',
      'video/x-html',
      'application/octet-stream',
      'audio/mpeg',
      '',
      'image/png; charset=utf-8',
    ),
    data: fc.oneof(
      fc.constant(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')),
      fc.constant(Buffer.from('%PDF-1.4 fuzz')),
      fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)),
      fc.constant(Buffer.alloc(0)),
    ),
  });
  return fc
    .record({
      fields: fieldArb,
      files: fc.array(fileArb, { maxLength: 3 }),
      boundary: fc.constantFrom('fuzzBoundary', '----WebKitFormBoundary7MA4YWxkTrZu0gW', 'x'),
      damage: fc.constantFrom(
        'none',
        'none',
        'none',
        'no-closing',
        'wrong-boundary',
        'no-boundary-param',
        'no-disposition',
      ),
    })
    .map(({ fields: textParts, files, boundary, damage }) => {
      const chunks: Buffer[] = [];
      const head = (s: string) => chunks.push(Buffer.from(s, 'utf8'));
      for (const [name, value] of textParts) {
        head(`--${boundary}\r\n`);
        head(damage === 'no-disposition' ? '\r\n' : `Content-Disposition: form-data; name="${name}"\r\n\r\n`);
        head(`${value}\r\n`);
      }
      for (const f of files) {
        head(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.filename}"\r\n`);
        if (f.type) head(`Content-Type: ${f.type}\r\n`);
        head('\r\n');
        chunks.push(f.data);
        head('\r\n');
      }
      if (damage !== 'no-closing') head(`--${boundary}--\r\n`);
      const declared = damage === 'wrong-boundary' ? 'somethingElse' : boundary;
      return {
        payload: Buffer.concat(chunks),
        contentType:
          damage === 'no-boundary-param' ? 'multipart/form-data' : `multipart/form-data; boundary=${declared}`,
      };
    });
}

/** The body of one request to the operation (no body at all for most bodiless operations). */
export function bodyPart(g: fc.GeneratorValue, op: Operation, ctx: GenContext): BodyPart {
  const json = (value: Json): BodyPart => ({ payload: jsonText(value), contentType: 'application/json' });
  const schema = op.jsonBody;
  if (!schema) {
    if (op.method === 'GET') return {};
    const kind = g(fc.constantFrom, 'none', 'none', 'none', 'none', 'none', 'none', 'json', 'odd');
    if (kind === 'none') return {};
    if (kind === 'odd') {
      const [contentType, payload] = g(fc.constantFrom, ...ODD_ENVELOPES);
      return { contentType, payload };
    }
    return json(draw(g, 'bodiless-json', () => fc.oneof(anyJson(), fc.constantFrom(...PROTO_OBJECTS), deepArb)));
  }
  const kind = draw(g, `body-kind|${op.multipartBody ? 'multipart' : 'json'}`, () =>
    fc.constantFrom(
      ...[
        ...Array(10).fill('valid'),
        ...Array(8).fill('field'),
        ...Array(3).fill('object'),
        'wrapped',
        'not-object',
        'not-object',
        'deep',
        'huge',
        'random',
        'odd',
        'odd',
        'empty',
        ...(op.multipartBody ? ['multipart', 'multipart', 'multipart'] : []),
      ],
    ),
  );
  const valid = (): Json => draw(g, validKey(schema, ctx), () => validArb(schema, ctx));
  switch (kind) {
    case 'valid':
      return json(valid());
    case 'field':
      return json(mutateDeep(g, schema, valid(), ctx, undefined, 0));
    case 'object':
      return json(mangleObject(g, schema, valid(), ctx));
    case 'wrapped': {
      // Rails-style `{"resource": {...}}`, under the resource's name or another one.
      const segment =
        op.path
          .split('/')
          .filter((s) => s && !s.startsWith('{'))
          .pop() ?? 'body';
      const key = g(fc.constantFrom, segment.replace(/s$/, ''), segment, 'data', '__proto__');
      const inner = g(fc.boolean) ? valid() : mutateDeep(g, schema, valid(), ctx, undefined, 0);
      return json(key === '__proto__' ? new Members([[key, inner]]) : { [key]: inner });
    }
    case 'not-object': {
      const v = valid();
      return json(g(fc.constantFrom, [v] as Json, [v, v], [], null, 0, -1, 'a string', true, [[v]], raw('1e309')));
    }
    case 'deep': {
      const nest = draw(g, 'deep', () => deepArb);
      const base = valid();
      const keys = Object.keys(schema.properties ?? {});
      if (!isPlainObject(base) || keys.length === 0 || !g(fc.boolean)) return json(nest);
      return json(withMember(base, g(fc.constantFrom, ...keys), nest));
    }
    case 'huge': {
      const keys = Object.keys(schema.properties ?? {});
      const big = draw(g, 'huge', () => hugeStringArb);
      if (g(fc.nat, { max: 9 }) === 0) return json('x'.repeat(2_200_000)); // past every body limit
      const base = valid();
      return json(isPlainObject(base) && keys.length > 0 ? withMember(base, g(fc.constantFrom, ...keys), big) : big);
    }
    case 'random':
      return json(draw(g, 'json', () => fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<Json>));
    case 'multipart':
      return draw(g, `multipart|${schemaId(op.multipartBody!)}|${ctx.version()}`, () =>
        multipartArb(op.multipartBody!, ctx),
      );
    case 'empty':
      return g(
        fc.constantFrom,
        { contentType: 'application/json', payload: '' },
        {},
        { contentType: 'application/json', payload: '{}' },
      );
    default: {
      const [contentType, payload] = g(fc.constantFrom, ...ODD_ENVELOPES);
      return { contentType, payload };
    }
  }
}

// ---------------------------------------------------------------------------------------------
// URLs

/** encodeURIComponent that writes a lone surrogate as the (invalid) UTF-8 bytes of its code unit. */
export function encodeSegment(s: string): string {
  let out = '';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff)
      out +=
        `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
    else out += encodeURIComponent(ch);
  }
  return out;
}

/** Path segments (already URL-encoded) that an `{id}` should refuse cleanly. */
export const NASTY_SEGMENTS: string[] = [
  '0',
  '-1',
  '-0',
  '+1',
  '01',
  '1.5',
  '1e3',
  '1e308',
  '0x1F',
  ' 1',
  '1 ',
  '2147483647',
  '2147483648',
  '4294967297',
  '9007199254740993',
  '99999999999999999999999',
  '9'.repeat(400),
  'abc',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  'true',
  '%00',
  '%',
  '%ZZ',
  '%C0%AF',
  '%E0%A4%A',
  '%F0%9F%98%80',
  '%EF%BC%91',
  '%D9%A1',
  '%ED%A0%80',
  '..',
  '.',
  '%2e%2e',
  '%2F',
  '1%2F2',
  '1;DROP',
  "1'",
  '1%27%20OR%20%271%27%3D%271',
  '%20',
  '~',
  '*',
  '$',
  '[1]',
  '%7B%7D',
  'a'.repeat(600),
];

export function nastySegmentArb(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...NASTY_SEGMENTS) },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 20, unit: 'grapheme' }).map(encodeSegment) },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 10, unit: 'binary' }).map(encodeSegment) },
    { weight: 1, arbitrary: fc.integer({ min: -100, max: 100 }).map(String) },
  );
}

/** A query string drawn from the operation's query parameters, plus some that are not there. */
export function queryString(g: fc.GeneratorValue, op: Operation, ctx: GenContext): string {
  const pairs: string[] = [];
  const text = (v: Json) =>
    typeof v === 'string' ? v : v instanceof Raw ? v.text : v instanceof Fresh ? v.make() : jsonText(v);
  for (const p of op.query) {
    if (!g(fc.boolean) && !(p.required && g(fc.boolean))) continue;
    const bad = g(fc.nat, { max: 3 }) === 0;
    const types = typesOf(p.schema);
    const key = encodeSegment(p.name);
    if (types.includes('array') && !bad) {
      const values = draw(g, validKey(p.schema, ctx, p.name), () => validArb(p.schema, ctx, p.name)) as Json[];
      const spelling = g(fc.constantFrom, 'repeat', 'brackets');
      for (const v of Array.isArray(values) ? values : [values])
        pairs.push(`${key}${spelling === 'brackets' ? '[]' : ''}=${encodeSegment(text(v))}`);
      continue;
    }
    const value = bad
      ? draw(g, nastyKey(p.schema, ctx, p.name), () => nastyArb(p.schema, ctx, p.name))
      : draw(g, validKey(p.schema, ctx, p.name), () => validArb(p.schema, ctx, p.name));
    pairs.push(`${key}=${encodeSegment(text(value))}`);
    if (g(fc.nat, { max: 9 }) === 0) pairs.push(`${key}=${encodeSegment(text(value))}`); // the same key twice
  }
  const extras = g(fc.nat, { max: 9 }) < 2 ? g(fc.integer, { min: 1, max: 3 }) : 0;
  for (let i = 0; i < extras; i++) {
    const piece = draw(g, 'query-extra', () =>
      fc.oneof(
        fc.constantFrom(
          '__proto__=1',
          'constructor=1',
          'a[b][c]=1',
          'labels[]=',
          'page[]=1',
          'page=1&page=2',
          '=1',
          '&&',
          '=',
          '%',
          'a=%',
          'a=%E0%A4%A',
          'a=%00',
          'q=%25%5F',
          'sort=-id',
          'limit=-1',
          'per_page=100000',
          'x'.repeat(2000) + '=1',
          'a=' + 'b'.repeat(5000),
        ),
        fc
          .tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 20, unit: 'grapheme' }))
          .map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(v)}`),
      ),
    );
    pairs.push(piece);
  }
  return pairs.length > 0 ? `?${pairs.join('&')}` : g(fc.nat, { max: 19 }) === 0 ? '?' : '';
}

// ---------------------------------------------------------------------------------------------
// Running

export interface FuzzRequest {
  method: Operation['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  remoteAddress?: string;
}

export interface FuzzAnswer {
  status: number;
  body: string;
  /** What the service logged at error level while answering (the cause of a 5xx), if anything. */
  serverError?: string;
}

/** Everything a fuzz run needs to know about one service. */
export interface FuzzTarget {
  name: string;
  /** How many times the seeded account had to be rebuilt from scratch (for the run's summary). */
  reseeds?: number;
  app(): App;
  ctx: GenContext;
  /** The path segment (URL-encoded) for a path parameter. */
  segment(g: fc.GeneratorValue, op: Operation, param: Parameter): string;
  /** Credential headers for the request. */
  credentials(g: fc.GeneratorValue, op: Operation): Record<string, string>;
  remoteAddress?(): string;
  /** True when an answer >= 400 has the service's error body. */
  isErrorBody(body: unknown): boolean;
  /** Runs after every answer (reseeding what a request destroyed, defusing what it set up). */
  after?(op: Operation, req: FuzzRequest, answer: FuzzAnswer): Promise<void>;
  /** Known secrets -> the label printed instead of them. */
  secrets(): Map<string, string>;
}

/** Header values must be bytes: anything outside printable ASCII becomes `?`. */
const asHeader = (v: Json): string =>
  (typeof v === 'string' ? v : jsonText(v)).replace(/[^\x20-\x7e]/g, '?').slice(0, 8000);

const RANGES = [
  'bytes=0-1',
  'bytes=0-0',
  'bytes=5-2',
  'bytes=-1',
  'bytes=-0',
  'bytes=999999999-',
  'bytes=0-1,3-4',
  'bytes=1-99999999999999999999',
  'bytes=',
  'items=0-1',
  'garbage',
];

export function buildRequest(g: fc.GeneratorValue, target: FuzzTarget, op: Operation): FuzzRequest {
  let path = op.path;
  for (const p of op.pathParams) path = path.replace(`{${p.name}}`, () => target.segment(g, op, p));
  const url = path + queryString(g, op, target.ctx);
  const headers: Record<string, string> = {};
  for (const p of op.headers) {
    if (!g(fc.boolean)) continue;
    const bad = g(fc.boolean);
    const value = bad
      ? draw(g, nastyKey(p.schema, target.ctx, p.name), () => nastyArb(p.schema, target.ctx, p.name))
      : draw(g, validKey(p.schema, target.ctx, p.name), () => validArb(p.schema, target.ctx, p.name));
    headers[p.name.toLowerCase()] = asHeader(value);
  }
  if (op.method === 'GET' && g(fc.nat, { max: 9 }) === 0) headers.range = g(fc.constantFrom, ...RANGES);
  Object.assign(headers, target.credentials(g, op));
  const body = bodyPart(g, op, target.ctx);
  if (body.contentType !== undefined) headers['content-type'] = body.contentType;
  return { method: op.method, url, headers, payload: body.payload, remoteAddress: target.remoteAddress?.() };
}

/**
 * Records what the app logs at error level. Apps built without a logger share no logger object
 * (each gets its own no-op logger, and every request logger is that same object), so wrapping its
 * `error` method sees the error handler's "request failed" entries of this app only.
 */
export function captureServerErrors(app: App): { take(): string | undefined; restore(): void } {
  const log = app.log as unknown as Record<string, unknown>;
  const original = log.error;
  let last: string | undefined;
  const describe = (args: unknown[]) =>
    args
      .map((a) => {
        if (a instanceof Error) return a.stack ?? String(a);
        const err = (a as { err?: unknown } | null)?.err;
        if (err instanceof Error)
          return `${err.stack ?? String(err)}${(err as { code?: string }).code ? ` (code ${(err as { code?: string }).code})` : ''}`;
        return typeof a === 'string' ? a : JSON.stringify(a);
      })
      .join(' ');
  try {
    log.error = (...args: unknown[]) => {
      last = describe(args);
      if (typeof original === 'function') (original as (...a: unknown[]) => void).apply(log, args);
    };
  } catch {
    /* a frozen logger: no server errors in the report then */
  }
  return {
    take() {
      const value = last;
      last = undefined;
      return value;
    },
    restore() {
      try {
        log.error = original;
      } catch {
        /* as above */
      }
    },
  };
}

const REQUEST_TIMEOUT_MS = 15_000;
/** FUZZ_TRACE=1 prints every request and answer (to stderr). */
const TRACE = process.env.FUZZ_TRACE === '1';

export async function send(app: App, req: FuzzRequest): Promise<{ status: number; body: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)), REQUEST_TIMEOUT_MS);
  });
  try {
    const res = await Promise.race([
      app.inject({
        method: req.method,
        url: req.url,
        headers: req.headers,
        ...(req.payload !== undefined ? { payload: req.payload } : {}),
        ...(req.remoteAddress ? { remoteAddress: req.remoteAddress } : {}),
      }),
      timeout,
    ]);
    return { status: res.statusCode, body: res.body };
  } finally {
    clearTimeout(timer);
  }
}

/** Why the answer breaks the rules, or undefined when it keeps them. */
export function judge(target: FuzzTarget, answer: { status: number; body: string }): string | undefined {
  if (answer.status >= 500) return `answered ${answer.status}`;
  if (answer.status < 400) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.body);
  } catch {
    return `answered ${answer.status} with a body that is not JSON`;
  }
  return target.isErrorBody(parsed) ? undefined : `answered ${answer.status} without the ${target.name} error body`;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars in all)` : s);

/** A request as text, secrets replaced by their labels, long bodies clipped. */
export function describeRequest(target: FuzzTarget, req: FuzzRequest): string {
  const secrets = target.secrets();
  const hide = (s: string) => {
    let out = s;
    for (const [secret, label] of secrets) if (secret) out = out.split(secret).join(label);
    return out;
  };
  const lines = [`${req.method} ${clip(hide(req.url), 600)}`];
  for (const [k, v] of Object.entries(req.headers)) lines.push(`${k}: ${clip(hide(v), 200)}`);
  if (req.payload !== undefined) {
    const text =
      typeof req.payload === 'string' ? req.payload : `<${req.payload.length} bytes> ${req.payload.toString('latin1')}`;
    lines.push('', clip(hide(text), 1500));
  }
  return lines.join('\n');
}

export interface Finding {
  operation: string;
  problem: string;
  /** The error code the answer carried, if any. */
  code?: string;
  request: string;
  status: number;
  answer: string;
  serverError?: string;
}

export interface OperationResult {
  operation: string;
  runs: number;
  /** How many answers had each status (0: the request did not complete). */
  statuses: Record<number, number>;
  /** The minimal failing case fast-check shrank to, if the property failed. */
  failure?: Finding & { seed: number; shrinks: number };
  /** Every distinct breach seen on the way (before shrinking), keyed by problem and server error. */
  findings: Finding[];
}

/** Stable 32-bit seed for an operation, from the run's base seed. */
export function operationSeed(base: number, key: string): number {
  let h = (base ^ 0x9e3779b9) >>> 0;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return h | 0;
}

/** Fuzzes one operation: `numRuns` generated requests, shrinking the first that breaks the rules. */
export async function fuzzOperation(
  target: FuzzTarget,
  op: Operation,
  options: { numRuns: number; seed: number; survey?: boolean },
): Promise<OperationResult> {
  const capture = captureServerErrors(target.app());
  const findings = new Map<string, Finding>();
  let last: Finding | undefined;
  let runs = 0;
  const statuses: Record<number, number> = {};
  try {
    const property = fc.asyncProperty(fc.gen(), async (g) => {
      runs++;
      const req = buildRequest(g, target, op);
      if (TRACE)
        process.stderr.write(
          `[fuzz trace] ${new Date().toISOString().slice(11, 23)} ${clip(describeRequest(target, req), 600).replace(/\n/g, ' | ')}\n`,
        );
      let answer: FuzzAnswer;
      try {
        const res = await send(target.app(), req);
        answer = { ...res, serverError: capture.take() };
      } catch (err) {
        answer = { status: 0, body: '', serverError: err instanceof Error ? (err.stack ?? err.message) : String(err) };
      }
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      if (TRACE) process.stderr.write(`  <- ${answer.status} ${clip(answer.body, 300)}\n`);
      await target.after?.(op, req, answer);
      const problem = answer.status === 0 ? 'the request did not complete' : judge(target, answer);
      if (!problem) return;
      const finding: Finding = {
        operation: op.key,
        problem,
        code: codeOf(answer.body),
        request: describeRequest(target, req),
        status: answer.status,
        answer: clip(answer.body, 500),
        serverError: answer.serverError,
      };
      const id = signature(finding);
      if (!findings.has(id)) findings.set(id, finding);
      last = finding;
      // A survey records every breach and carries on; otherwise the first one fails the property.
      if (!options.survey) throw new Error(problem);
    });
    const details = await fc.check(property, {
      numRuns: options.numRuns,
      seed: options.seed,
      endOnFailure: false,
      // A guard against a shrink that never ends: what was found by then is reported.
      interruptAfterTimeLimit: 30_000,
      markInterruptAsFailure: false,
    });
    return {
      operation: op.key,
      runs,
      statuses,
      findings: [...findings.values()],
      ...(details.failed && last ? { failure: { ...last, seed: details.seed, shrinks: details.numShrinks } } : {}),
    };
  } finally {
    capture.restore();
  }
}

function codeOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { code?: unknown; error?: { code?: unknown } } | null;
    const code = parsed?.error?.code ?? parsed?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** What tells one breach from another: the problem, and the cause the server logged or the answer's code. */
export function signature(f: Finding): string {
  const cause = (f.serverError ?? '').split('\n')[0];
  if (cause) return `${f.problem}: ${cause}`;
  return f.code ? `${f.problem} (code ${f.code})` : f.problem;
}

/** Every distinct breach a survey saw, with the operations it was seen on and one request each. */
export function formatSurvey(target: FuzzTarget, results: OperationResult[]): string {
  const bySignature = new Map<string, Finding[]>();
  for (const f of results.flatMap((r) => r.findings))
    bySignature.set(signature(f), [...(bySignature.get(signature(f)) ?? []), f]);
  const blocks = [...bySignature.entries()].map(([key, fs]) => {
    const shortest = [...fs].sort((a, b) => a.request.length - b.request.length)[0];
    return [
      `* ${key} -- ${fs.length} operation(s): ${[...new Set(fs.map((f) => f.operation))].join(', ')}`,
      indent(shortest.request),
      indent(`-> ${shortest.status} ${shortest.answer}`),
      ...(shortest.serverError ? [indent(clip(shortest.serverError, 1500))] : []),
    ].join('\n');
  });
  return [`${target.name}: ${bySignature.size} distinct breach(es) seen`, '', ...blocks].join('\n\n');
}

/** The report of a service's failures, readable in a CI log: distinct breaches first, then each operation. */
export function formatReport(
  target: FuzzTarget,
  results: OperationResult[],
  replay: (r: OperationResult) => string,
): string {
  const failed = results.filter((r) => r.failure);
  const bySignature = new Map<string, OperationResult[]>();
  for (const r of failed) {
    const key = signature(r.failure!);
    bySignature.set(key, [...(bySignature.get(key) ?? []), r]);
  }
  const summary = [...bySignature.entries()].map(([key, rs]) => {
    const shortest = [...rs].sort((a, b) => a.failure!.request.length - b.failure!.request.length)[0].failure!;
    return [
      `* ${key} -- ${rs.length} operation(s): ${rs.map((r) => r.operation).join(', ')}`,
      indent(shortest.request),
      indent(`-> ${shortest.status} ${shortest.answer}`),
    ].join('\n');
  });
  const blocks = failed.map((r) => {
    const f = r.failure!;
    const others = r.findings.filter((x) => signature(x) !== signature(f));
    return [
      `--- ${r.operation}: ${f.problem} (after ${f.shrinks} shrinks; operation seed ${f.seed})`,
      `replay: ${replay(r)}`,
      'minimal request:',
      indent(f.request),
      `answer: ${f.status} ${f.answer}`,
      ...(f.serverError ? ['server error:', indent(clip(f.serverError, 2000))] : []),
      ...others.map((o) => `also seen: ${signature(o)}\n${indent(clip(o.request, 400))}`),
    ].join('\n');
  });
  return [
    `${target.name}: ${failed.length} operation(s) broke the rules, ${bySignature.size} distinct breach(es)`,
    '',
    ...summary,
    '',
    ...blocks,
  ].join('\n');
}

const indent = (s: string) =>
  s
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
