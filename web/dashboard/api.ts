import { createApiClient } from '../shared/api/client.js';
import type { paths } from '../shared/api/chat.js';
import { apiErrorOf, unreachable, type ApiError } from '../shared/api/errors.js';

/**
 * The conversation service's API, typed from its OpenAPI document. What each request carries
 * (the session's headers, the UI's language) and what a 401 does are connected once, in main.ts,
 * so that the stores that call it and the session they read do not import each other.
 */
const hooks = {
  credentials: (): Record<string, string> => ({}),
  language: (): string => 'en',
  onUnauthorized: (): void => {},
};

export function connectApi(connection: typeof hooks): void {
  Object.assign(hooks, connection);
}

export const api = createApiClient<paths>({
  credentials: () => hooks.credentials(),
  language: () => hooks.language(),
  onUnauthorized: () => hooks.onUnauthorized(),
});

type Json<P extends keyof paths, M extends keyof paths[P], S extends number> = paths[P][M] extends {
  responses: { [K in S]: { content: { 'application/json': infer T } } };
}
  ? T
  : never;

/** The signed-in user as the profile answers it. */
export type Profile = Json<'/api/v1/profile', 'get', 200>;
export type ProfileAccount = Profile['accounts'][number];
export type Availability = 'online' | 'busy' | 'offline';

export type Outcome<T> = { ok: true; data: T; response: Response } | { ok: false; error: ApiError };

/** The answer of an API call as success or an `ApiError` (a request that got no answer included). */
export async function settle<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<Outcome<T>> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch {
    return { ok: false, error: unreachable() };
  }
  if (result.response.ok) return { ok: true, data: result.data as T, response: result.response };
  return { ok: false, error: apiErrorOf(result.error, result.response) };
}
