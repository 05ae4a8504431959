import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { JsonObject, Nullable } from './schemas.js';
import { compilePruner, compileRailsReader, MAX_JSON_DEPTH, nestingDepthExceeds } from './body-shape.js';

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

describe('compileRailsReader', () => {
  const schema = Type.Object({
    inbox_id: Type.Integer({ minimum: 1 }),
    team_id: Type.Optional(Nullable(Type.Integer())),
    ratio: Type.Optional(Type.Number()),
    private: Type.Optional(Type.Boolean()),
    email: Type.Optional(Nullable(Type.String())),
    name: Type.String(),
    labels: Type.Optional(Type.Array(Type.String())),
    user_ids: Type.Optional(Type.Array(Type.Integer())),
    status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('pending')])),
    mixed: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
    message: Type.Optional(Type.Object({ content: Type.String(), echo: Type.Optional(Type.Integer()) })),
    items: Type.Optional(Type.Array(Type.Object({ id: Type.Integer(), note: Type.Optional(Type.String()) }))),
    custom_attributes: Type.Optional(JsonObject),
  });
  const read = (body: Record<string, unknown>) => compileRailsReader(schema)!(body);

  it('reads numeric text as numbers, "true"/"false" as booleans and one value as a list', () => {
    expect(
      read({
        inbox_id: '12',
        team_id: ' 3 ',
        ratio: '2.5',
        private: 'TRUE',
        name: 'x',
        labels: 'vip',
        user_ids: '7',
        message: { content: 'hi', echo: '4' },
        items: [{ id: '1' }, { id: 2 }],
      }),
    ).toEqual({
      inbox_id: 12,
      team_id: 3,
      ratio: 2.5,
      private: true,
      name: 'x',
      labels: ['vip'],
      user_ids: [7],
      message: { content: 'hi', echo: 4 },
      items: [{ id: 1 }, { id: 2 }],
    });
    expect(read({ name: 'x', inbox_id: 1, private: 'false', user_ids: ['1', 2] })).toMatchObject({
      private: false,
      user_ids: [1, 2],
    });
    // One object where a list of objects is expected.
    expect(read({ name: 'x', inbox_id: 1, items: { id: '3', note: '' } })).toMatchObject({ items: [{ id: 3 }] });
  });

  it('takes "" in an optional field as not given, at every level, and keeps it in a required one', () => {
    expect(
      read({
        inbox_id: '',
        name: '',
        team_id: '',
        email: '',
        status: '',
        message: { content: '', echo: '' },
        items: [{ id: 1, note: '' }],
      }),
    ).toEqual({ inbox_id: '', name: '', message: { content: '' }, items: [{ id: 1 }] });
  });

  it('leaves values the schema accepts, what does not convert, and free-form maps alone', () => {
    const body = {
      inbox_id: 'twelve',
      name: 42,
      ratio: '1e999999',
      private: 'yes',
      mixed: '5',
      status: 'open',
      message: 'text',
      team_id: null,
      custom_attributes: { count: '3', flag: 'true', empty: '' },
    };
    expect(read({ ...body })).toEqual(body);
    expect(read({ inbox_id: true, name: 'x', user_ids: [true, 'x'] })).toEqual({
      inbox_id: true,
      name: 'x',
      user_ids: [true, 'x'],
    });
  });

  it('has nothing to do for schemas without fields it would read', () => {
    expect(compileRailsReader(Type.String())).toBeUndefined();
    expect(compileRailsReader(JsonObject)).toBeUndefined();
    for (const value of [null, 'text', 42, [1, 2]]) expect(() => compileRailsReader(schema)!(value)).not.toThrow();
  });
});
