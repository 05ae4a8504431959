import type { App } from '../../src/core/http/app.types.js';

export interface Call {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: string;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Record<string, unknown>;
  text: string;
}

/** One request through the real app (no socket), with the token in `api_access_token`. */
export async function call<T = any>(app: App, c: Call): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...(c.headers ?? {}) };
  if (c.token) headers['api_access_token'] = c.token;
  const res = await app.inject({
    method: c.method ?? 'GET',
    url: c.url,
    headers,
    ...(c.body !== undefined ? { payload: c.body as object } : {}),
  });
  let body: any = res.body;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.statusCode, body, headers: res.headers as Record<string, unknown>, text: res.body };
}

/** Shorthands bound to an app and a token. */
export function client(app: App, token?: string) {
  return {
    get: <T = any>(url: string) => call<T>(app, { method: 'GET', url, token }),
    post: <T = any>(url: string, body?: unknown) => call<T>(app, { method: 'POST', url, token, body: body ?? {} }),
    patch: <T = any>(url: string, body?: unknown) => call<T>(app, { method: 'PATCH', url, token, body: body ?? {} }),
    put: <T = any>(url: string, body?: unknown) => call<T>(app, { method: 'PUT', url, token, body: body ?? {} }),
    delete: <T = any>(url: string, body?: unknown) =>
      call<T>(app, { method: 'DELETE', url, token, ...(body !== undefined ? { body } : {}) }),
  };
}
