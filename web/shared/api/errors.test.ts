import { describe, expect, it } from 'vitest';
import { apiErrorOf } from './errors.js';

const answer = (status: number, headers: Record<string, string> = {}) => ({ status, headers: new Headers(headers) });

describe('a refusal', () => {
  it("is read from the conversation service's body", () => {
    const error = apiErrorOf(
      {
        error: 'Requisição inválida: email é obrigatório',
        code: 'validation_failed',
        details: [{ field: 'email', message: 'é obrigatório' }],
      },
      answer(422),
    );
    expect(error).toEqual({
      status: 422,
      code: 'validation_failed',
      message: 'Requisição inválida: email é obrigatório',
      details: [{ field: 'email', message: 'é obrigatório' }],
    });
  });

  it("is read from the finance service's body", () => {
    const error = apiErrorOf(
      { success: false, message: 'Too many requests', error: { code: 'rate_limited' } },
      answer(429, { 'retry-after': '42' }),
    );
    expect(error).toMatchObject({
      status: 429,
      code: 'rate_limited',
      message: 'Too many requests',
      retryAfterSeconds: 42,
    });
  });

  it('is still a refusal when the body is not the service’s (a proxy’s page, nothing)', () => {
    expect(apiErrorOf('<html>Bad gateway</html>', answer(502))).toEqual({
      status: 502,
      code: 'unknown',
      message: '',
      details: [],
    });
    expect(apiErrorOf(undefined, answer(401))).toMatchObject({ status: 401, code: 'unknown' });
  });
});
