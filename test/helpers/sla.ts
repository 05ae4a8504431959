import { expect } from 'vitest';
import { client } from './http.js';
import type { TestAccount } from './factories.js';
import type { ChatTestApp } from './test-app.js';

/** Puts the account on the Enterprise plan (platform interface), which the SLA endpoints require. */
export async function enterprise(t: ChatTestApp, account: TestAccount, plan: string | null = 'enterprise') {
  const res = await client(t.app, t.platformToken).patch(`/platform/api/v1/accounts/${account.id}`, { plan });
  expect(res.status, res.text).toBe(200);
}

/** A GET with a query string. */
export function getWith(t: ChatTestApp, token: string, path: string, query: Record<string, string | number> = {}) {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  return client(t.app, token).get(params.size > 0 ? `${path}?${params}` : path);
}
