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

/**
 * A JSON answer's type. Fields that are always null in the document (an attachment's width and
 * height) are optional here: openapi-fetch leaves them out of what its calls return.
 */
type Loose<T> = T extends readonly (infer U)[]
  ? Loose<U>[]
  : T extends object
    ? { [K in keyof T as [T[K]] extends [null] ? never : K]: Loose<T[K]> } & {
        [K in keyof T as [T[K]] extends [null] ? K : never]?: null;
      }
    : T;

type Json<P extends keyof paths, M extends keyof paths[P], S extends number> = paths[P][M] extends {
  responses: { [K in S]: { content: { 'application/json': infer T } } };
}
  ? Loose<T>
  : never;

/** The signed-in user as the profile answers it. */
export type Profile = Json<'/api/v1/profile', 'get', 200>;
export type ProfileAccount = Profile['accounts'][number];
export type Availability = 'online' | 'busy' | 'offline';

type Of<P extends string> = `/api/v1/accounts/{accountId}${P}`;

/** A page of the conversation list, with the counts of its filters (`meta`). */
export type ConversationPage = Json<Of<'/conversations'>, 'get', 200>['data'];
export type Conversation = ConversationPage['payload'][number];
export type ConversationCounts = ConversationPage['meta'];
export type ConversationStatus = Conversation['status'];
export type Priority = Conversation['priority'];
export type Assignee = NonNullable<Conversation['assignee']>;
export type TeamSummary = NonNullable<Conversation['team']>;
export type MessagePage = Json<Of<'/conversations/{id}/messages'>, 'get', 200>;
export type Message = MessagePage['payload'][number];
export type Attachment = Message['attachments'][number];
export type Inbox = Json<Of<'/inboxes'>, 'get', 200>['payload'][number];
export type Team = Json<Of<'/teams'>, 'get', 200>[number];
export type Agent = Json<Of<'/agents'>, 'get', 200>[number];
export type Label = Json<Of<'/labels'>, 'get', 200>['payload'][number];
export type CannedResponse = Json<Of<'/canned_responses'>, 'get', 200>[number];
export type ContactPage = Json<Of<'/contacts'>, 'get', 200>;
export type Contact = ContactPage['payload'][number];
export type AttributeDefinition = Json<Of<'/custom_attribute_definitions'>, 'get', 200>['data'][number];
export type DealPage = Json<Of<'/pipeline_cards'>, 'get', 200>;
export type Deal = DealPage['data'][number];
export type DealDetail = Json<Of<'/pipeline_cards/{id}'>, 'get', 200>['data'];
export type DealEntry = DealDetail['timeline'][number];
export type Pipeline = Json<Of<'/pipelines'>, 'get', 200>['data'][number];
export type Stage = Pipeline['stages'][number];

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

/**
 * Sends a multipart form (files) to the API, reporting upload progress from 0 to 1: fetch cannot
 * report an upload's progress, XMLHttpRequest can. Carries what every API request carries and
 * ends the session on a 401, as the typed client does.
 */
export function sendForm<T>(path: string, form: FormData, onProgress: (fraction: number) => void): Promise<Outcome<T>> {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open('POST', path);
    const credentials = hooks.credentials();
    for (const [name, value] of Object.entries(credentials)) request.setRequestHeader(name, value);
    request.setRequestHeader('accept-language', hooks.language());
    request.responseType = 'json';
    request.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    });
    request.addEventListener('error', () => resolve({ ok: false, error: unreachable() }));
    request.addEventListener('load', () => {
      const headers = new Headers();
      const retryAfter = request.getResponseHeader('retry-after');
      if (retryAfter) headers.set('retry-after', retryAfter);
      const response = new Response(null, { status: request.status, headers });
      if (request.status === 401 && Object.keys(credentials).length > 0) hooks.onUnauthorized();
      if (request.status >= 200 && request.status < 300) {
        onProgress(1);
        resolve({ ok: true, data: request.response as T, response });
      } else resolve({ ok: false, error: apiErrorOf(request.response, response) });
    });
    request.send(form);
  });
}
