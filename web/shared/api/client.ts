import createClient, { type Client } from 'openapi-fetch';

/**
 * A typed client of one service (`paths` from the generated `chat.d.ts` or `finance.d.ts`):
 * every request carries the caller's credentials and the UI's language (Accept-Language, so the
 * server's sentences come in it), and a 401 to a request that carried credentials means the
 * session is over: `onUnauthorized` runs (the app shows its sign-in page). A 401 to a request
 * without them (a wrong password) is an answer like any other.
 */
export interface ApiClientOptions {
  /** The service's origin; '' for the page's own. */
  baseUrl?: string;
  /** The credentials to send now (none: an empty object). */
  credentials: () => Record<string, string>;
  /** The UI's language (a BCP 47 tag). */
  language: () => string;
  onUnauthorized: () => void;
  /** For tests outside a browser. */
  fetch?: (request: Request) => Promise<Response>;
}

// `object`, as openapi-fetch's own constraint: the generated `paths` interface has no index signature.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export type ApiClient<Paths extends {}> = Client<Paths>;

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export function createApiClient<Paths extends {}>(options: ApiClientOptions): ApiClient<Paths> {
  const client = createClient<Paths>({
    baseUrl: options.baseUrl ?? '',
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const sentCredentials = new WeakSet<Request>();
  client.use({
    onRequest({ request }) {
      const credentials = options.credentials();
      for (const [name, value] of Object.entries(credentials)) request.headers.set(name, value);
      if (Object.keys(credentials).length > 0) sentCredentials.add(request);
      request.headers.set('accept-language', options.language());
      return request;
    },
    onResponse({ request, response }) {
      if (response.status === 401 && sentCredentials.has(request)) options.onUnauthorized();
      return response;
    },
  });
  return client;
}
