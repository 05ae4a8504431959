import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { createValidatorCompiler, lazySerializers } from './validation.js';

/**
 * Schemas compile on first use (startup time), and a lazily compiled validator or serializer
 * answers exactly as an eagerly compiled one would, from its first call on.
 */
describe('lazy compilers', () => {
  const body = Type.Object({ name: Type.String({ minLength: 1 }) }, { additionalProperties: false });

  it('a broken schema is only compiled (and fails) when its route is first used', () => {
    const compile = createValidatorCompiler();
    const broken = { type: 'object', properties: { a: { type: 'no-such-type' } } } as object;
    const validate = compile({ schema: broken, httpPart: 'body', method: 'POST', url: '/x' }) as (
      d: unknown,
    ) => unknown;
    expect(() => validate({ a: 1 })).toThrow();
  });

  it('validates and reports errors from the first call, every call', () => {
    const compile = createValidatorCompiler();
    const validate = compile({ schema: body, httpPart: 'body', method: 'POST', url: '/x' }) as ((
      d: unknown,
    ) => boolean) & { errors?: { instancePath: string }[] | null };
    expect(validate({ name: '' })).toBe(false);
    expect(validate.errors?.[0].instancePath).toBe('/name');
    expect(validate({ name: 'Ana' })).toBe(true);
    expect(validate.errors ?? null).toBeNull();
    expect(validate({ name: 5 })).toBe(false);
    expect(validate.errors?.length).toBeGreaterThan(0);
  });

  it('serializes by the response schema (unknown fields dropped) from the first answer', () => {
    const compile = lazySerializers()({}, {});
    const serialize = compile({
      method: 'GET',
      url: '/x',
      httpStatus: '200',
      schema: Type.Object({ id: Type.Integer(), name: Type.String() }),
    });
    expect(serialize({ id: 1, name: 'A', secret: 's' })).toBe('{"id":1,"name":"A"}');
    expect(serialize({ id: 2, name: 'B' })).toBe('{"id":2,"name":"B"}');
  });
});
