import type { FastifyRequest } from 'fastify';

/**
 * Query string parser that accepts both array spellings Rails clients send:
 * `labels=a&labels=b` and `labels[]=a&labels[]=b`. A key seen once stays a string; the
 * route's schema (with Ajv's array coercion) turns it into an array where an array is expected.
 */
export function parseQueryString(raw: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  const params = new URLSearchParams(raw);
  for (const [rawKey, value] of params) {
    const isArray = rawKey.endsWith('[]');
    const key = isArray ? rawKey.slice(0, -2) : rawKey;
    if (key === '' || key === '__proto__') continue;
    const existing = out[key];
    if (existing === undefined) out[key] = isArray ? [value] : value;
    else if (Array.isArray(existing)) existing.push(value);
    else out[key] = [existing, value];
  }
  return { ...out };
}

/**
 * Rails accepts `{"contact": {...}}` as well as `{...}`. When a route names its resource key and
 * the body carries an object under it, the object's fields are lifted to the top level (top-level
 * fields win on a clash, as the unwrapped spelling is the documented one).
 */
export function unwrapBody(body: unknown, key: string | undefined): unknown {
  if (!key || body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const record = body as Record<string, unknown>;
  const inner = record[key];
  if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return body;
  const { [key]: _wrapped, ...rest } = record;
  return { ...(inner as Record<string, unknown>), ...rest };
}

/** Reads a bearer-style token from the three header spellings clients use. */
export function readAccessToken(request: FastifyRequest): string | undefined {
  const h = request.headers;
  const direct = h['api_access_token'] ?? h['api-access-token'];
  const value = Array.isArray(direct) ? direct[0] : direct;
  if (value && value.trim() !== '') return value.trim();
  const auth = h.authorization;
  if (auth) {
    const match = /^Bearer\s+(.+)$/i.exec(auth.trim());
    if (match) return match[1].trim();
  }
  return undefined;
}
