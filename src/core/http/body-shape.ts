/**
 * Two guards on JSON bodies that hold for every route of both services, so no route can forget them:
 *
 * - `nestingDepthExceeds`: a body nested deeper than a limit is refused before it is parsed (a
 *   deeply nested value costs stack in every later recursive walk: validation, JSON columns,
 *   serialisation).
 * - `compilePruner`: fields a route's body schema does not name are dropped before validation, as
 *   Rails drops unpermitted parameters. A service therefore only ever sees the fields its schema
 *   allows, and a protected column (`id`, `account_id`, `created_at`, a token...) can never travel
 *   from a request into an insert or update by accident. An object schema that states
 *   `additionalProperties` (false to refuse extras with a 422, or a schema for free-form maps such
 *   as `custom_attributes`) is left to the validator.
 */

/** The deepest nesting of objects and arrays a JSON body may have. */
export const MAX_JSON_DEPTH = 64;

/** True when the JSON text opens more than `limit` objects/arrays inside each other. O(n), no parsing. */
export function nestingDepthExceeds(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return false;
}

interface SchemaNode {
  type?: unknown;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: unknown;
  patternProperties?: unknown;
  items?: SchemaNode | SchemaNode[];
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
}

type Pruner = (value: unknown) => void;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A function that removes, in place, the object fields the schema does not name (recursively
 * through `properties`, `items`, and the object branch of a nullable or union type). Returns
 * undefined when the schema has nothing to prune.
 */
export function compilePruner(schema: unknown): Pruner | undefined {
  return build(schema as SchemaNode, 0);
}

function build(node: SchemaNode | undefined, depth: number): Pruner | undefined {
  if (!node || typeof node !== 'object' || depth > 32) return undefined;
  if (node.properties) return objectPruner(node, depth);
  if (node.items && !Array.isArray(node.items)) {
    const item = build(node.items, depth + 1);
    return item && ((value) => Array.isArray(value) && value.forEach(item));
  }
  const alternatives = node.anyOf ?? node.oneOf ?? node.allOf;
  if (alternatives) {
    // Only unambiguous unions are followed: a single object alternative (T | null) and a single
    // array alternative; anything wider is left to the validator as it is.
    const objects = alternatives.filter((a) => a.properties);
    const arrays = alternatives.filter((a) => a.items);
    const forObject = objects.length === 1 ? build(objects[0], depth + 1) : undefined;
    const forArray = arrays.length === 1 ? build(arrays[0], depth + 1) : undefined;
    if (!forObject && !forArray) return undefined;
    return (value) => {
      if (Array.isArray(value)) forArray?.(value);
      else if (isPlainObject(value)) forObject?.(value);
    };
  }
  return undefined;
}

function objectPruner(node: SchemaNode, depth: number): Pruner {
  const properties = node.properties!;
  const open = node.additionalProperties !== undefined || node.patternProperties !== undefined;
  const known = new Set(Object.keys(properties));
  const children: [string, Pruner][] = [];
  for (const [name, child] of Object.entries(properties)) {
    const prune = build(child, depth + 1);
    if (prune) children.push([name, prune]);
  }
  return (value) => {
    if (!isPlainObject(value)) return;
    if (!open) for (const key of Object.keys(value)) if (!known.has(key)) delete value[key];
    for (const [name, prune] of children) if (Object.hasOwn(value, name)) prune(value[name]);
  };
}

/**
 * Reading a JSON body as Rails reads request parameters (the conversation service's clients are
 * written against Rails): before validation, guided by the route's body schema,
 *
 * - a field whose schema wants an integer or a number accepts its decimal text (`"12"` -> 12);
 * - a boolean field accepts `"true"` / `"false"` (any case);
 * - an array field given one value holds that value (`"vip"` -> `["vip"]`);
 * - `""` in a field the object does not require means the field was not given (Rails casts it to
 *   nil; form-like clients send `""` for every optional field left empty).
 *
 * A value is only converted when the schema does not already accept it as sent, and only into a
 * type the schema accepts; anything that does not convert is left for the validator to refuse.
 * Free-form maps (`additionalProperties`, `patternProperties`) are not entered: their values are data.
 */
export type RailsReader = (value: unknown) => unknown;

type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';

interface ReadNode extends SchemaNode {
  const?: unknown;
  enum?: unknown[];
  required?: string[];
}

const INTEGER_TEXT = /^\s*-?\d{1,15}\s*$/;
const NUMBER_TEXT = /^\s*-?\d{1,15}(\.\d+)?([eE][+-]?\d{1,3})?\s*$/;

function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

/** The JSON types a schema accepts, or undefined when it constrains none (`{}`, Unknown). */
function acceptedTypes(node: ReadNode, depth = 0): Set<JsonType> | undefined {
  if (depth > 32) return undefined;
  const alternatives = node.anyOf ?? node.oneOf;
  if (alternatives) {
    const out = new Set<JsonType>();
    for (const alternative of alternatives) {
      const types = acceptedTypes(alternative as ReadNode, depth + 1);
      if (!types) return undefined;
      types.forEach((t) => out.add(t));
    }
    return out;
  }
  if (node.const !== undefined) return new Set([jsonTypeOf(node.const)]);
  if (node.enum) return new Set(node.enum.map(jsonTypeOf));
  if (typeof node.type === 'string') return new Set([node.type as JsonType]);
  if (Array.isArray(node.type)) return new Set(node.type as JsonType[]);
  if (node.properties) return new Set(['object']);
  if (node.items) return new Set(['array']);
  return undefined;
}

const accepts = (types: Set<JsonType>, type: JsonType) =>
  types.has(type) || (type === 'integer' && types.has('number'));

/** A scalar converted into one of the types the schema accepts, or `undefined` when none fits. */
function convertScalar(value: unknown, types: Set<JsonType>): { value: unknown } | undefined {
  if (typeof value !== 'string') return undefined;
  if (types.has('integer') && INTEGER_TEXT.test(value)) return { value: Number(value) };
  if (types.has('number') && NUMBER_TEXT.test(value)) return { value: Number(value) };
  if (types.has('boolean')) {
    const text = value.trim().toLowerCase();
    if (text === 'true') return { value: true };
    if (text === 'false') return { value: false };
  }
  return undefined;
}

/** Compiles the reader of a body schema; undefined when the schema has nothing it would convert. */
export function compileRailsReader(schema: unknown): RailsReader | undefined {
  return buildReader(schema as ReadNode, 0);
}

function buildReader(node: ReadNode | undefined, depth: number): RailsReader | undefined {
  if (!node || typeof node !== 'object' || depth > 32) return undefined;
  const types = acceptedTypes(node);
  if (!types) return undefined;
  const alternatives = (node.anyOf ?? node.oneOf) as ReadNode[] | undefined;
  // The structured alternative a value of that shape is read with (T | null and the like).
  const objectNode = alternatives ? alternatives.find((a) => a.properties) : node.properties ? node : undefined;
  const arrayNode = alternatives ? alternatives.find((a) => a.items) : node.items ? node : undefined;
  const forObject = objectNode ? objectReader(objectNode, depth) : undefined;
  const forArray = arrayNode ? arrayReader(arrayNode, depth) : undefined;
  const scalarTarget = [...types].some((t) => t === 'integer' || t === 'number' || t === 'boolean');
  if (!forObject && !forArray && !scalarTarget && !types.has('array')) return undefined;
  return (value) => {
    const type = jsonTypeOf(value);
    if (type === 'array') return forArray ? forArray(value) : value;
    if (type === 'object' && (forObject || accepts(types, type))) return forObject ? forObject(value) : value;
    if (accepts(types, type)) return value;
    const converted = convertScalar(value, types);
    if (converted) return converted.value;
    // One value where a list is expected: a list of that one value (its items read in turn).
    if (types.has('array') && type !== 'null') return forArray ? forArray([value]) : [value];
    return value;
  };
}

function arrayReader(node: ReadNode, depth: number): RailsReader | undefined {
  if (Array.isArray(node.items)) return undefined;
  const item = buildReader(node.items as ReadNode, depth + 1);
  return (value) => (item ? (value as unknown[]).map(item) : value);
}

function objectReader(node: ReadNode, depth: number): RailsReader | undefined {
  const required = new Set(node.required ?? []);
  const fields: [string, RailsReader | undefined, boolean][] = Object.entries(node.properties ?? {}).map(
    ([name, child]) => [name, buildReader(child as ReadNode, depth + 1), required.has(name)],
  );
  if (fields.length === 0) return undefined;
  return (value) => {
    const record = value as Record<string, unknown>;
    for (const [name, read, isRequired] of fields) {
      if (!Object.hasOwn(record, name)) continue;
      if (record[name] === '' && !isRequired) delete record[name];
      else if (read) record[name] = read(record[name]);
    }
    return record;
  };
}

/**
 * The query string's half of the Rails reading: `id=` (an empty value) in a parameter the schema
 * does not require is "not given", as `""` in a JSON body is (docs/spec/decisions.md §1): the parameter is
 * removed before validation, so `GET .../reports?type=account&id=` is the account report, not a
 * 422 about `id` (and `page=` is the first page). Required parameters keep their empty value
 * (and their 422). Returns undefined
 * when the schema names no optional parameter.
 */
export function compileBlankQueryDropper(schema: unknown): ((query: unknown) => void) | undefined {
  const node = schema as ReadNode | undefined;
  if (!node?.properties) return undefined;
  const required = new Set(node.required ?? []);
  // A parameter with a default is optional too: without its value, validation fills the default in.
  const optional = Object.entries(node.properties)
    .filter(([name, property]) => !required.has(name) || (property as { default?: unknown }).default !== undefined)
    .map(([name]) => name);
  if (optional.length === 0) return undefined;
  return (query) => {
    if (!isPlainObject(query)) return;
    for (const name of optional) if (query[name] === '') delete query[name];
  };
}
