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
