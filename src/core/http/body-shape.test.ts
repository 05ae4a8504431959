import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { JsonObject, Nullable } from './schemas.js';
import { compilePruner, MAX_JSON_DEPTH, nestingDepthExceeds } from './body-shape.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('nestingDepthExceeds', () => {
  it('counts objects and arrays, not brackets inside strings', () => {
    expect(nestingDepthExceeds(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestingDepthExceeds(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(nestingDepthExceeds('{"a":{"b":[1,{"c":2}]}}', 4)).toBe(false);
    expect(nestingDepthExceeds('{"a":{"b":[1,{"c":2}]}}', 3)).toBe(true);
    expect(nestingDepthExceeds(`{"text":"${'['.repeat(500)}"}`)).toBe(false);
    expect(nestingDepthExceeds(`{"text":"a\\"${'{'.repeat(500)}"}`)).toBe(false);
    expect(nestingDepthExceeds(nested(5000))).toBe(true);
  });
});

describe('compilePruner', () => {
  const schema = Type.Object({
    name: Type.String(),
    channel: Type.Object({ type: Type.String() }),
    settings: Type.Optional(Nullable(Type.Object({ on: Type.Boolean() }))),
    items: Type.Array(Type.Object({ id: Type.Integer() })),
    custom_attributes: JsonObject,
    strict: Type.Object({ a: Type.Integer() }, { additionalProperties: false }),
  });

  it('drops the fields the schema does not name, at every level, and leaves open maps alone', () => {
    const body = {
      name: 'x',
      id: 5,
      account_id: 2,
      channel: { type: 'api', secret: 's' },
      settings: { on: true, admin: true },
      items: [{ id: 1, created_at: 0 }, { id: 2 }],
      custom_attributes: { anything: 1, id: 3 },
      strict: { a: 1, b: 2 },
    };
    compilePruner(schema)!(body);
    expect(body).toEqual({
      name: 'x',
      channel: { type: 'api' },
      settings: { on: true },
      items: [{ id: 1 }, { id: 2 }],
      custom_attributes: { anything: 1, id: 3 },
      // additionalProperties: false stays the validator's to refuse.
      strict: { a: 1, b: 2 },
    });
  });

  it('leaves values of the wrong type for the validator to refuse', () => {
    const body: Record<string, unknown> = {
      name: 'x',
      channel: 'not an object',
      settings: null,
      items: 'nope',
      extra: 1,
    };
    compilePruner(schema)!(body);
    expect(body).toEqual({ name: 'x', channel: 'not an object', settings: null, items: 'nope' });
    for (const value of [null, 'text', 42, [1, 2]]) expect(() => compilePruner(schema)!(value)).not.toThrow();
  });

  it('has nothing to do for schemas without named fields', () => {
    expect(compilePruner(Type.String())).toBeUndefined();
    expect(compilePruner(JsonObject)).toBeUndefined();
  });
});
