import { createApiClient } from '../shared/api/client.js';
import type { paths } from '../shared/api/chat.js';
import { apiErrorOf, type ApiError } from '../shared/api/errors.js';

/**
 * The public API of one website inbox (`/public/api/v1/inboxes/{identifier}`), typed from the
 * service's OpenAPI document; the frame is served by the same service, so requests go to its
 * own origin. Each call answers its value or throws an `ApiError`.
 */

type P = '/public/api/v1/inboxes/{inbox_identifier}';
type Json<Path extends keyof paths, M extends keyof paths[Path]> = paths[Path][M] extends {
  responses: { 200: { content: { 'application/json': infer T } } };
}
  ? T
  : never;

export type PublicInbox = Json<P, 'get'>;
export type PublicContact = Json<`${P}/contacts`, 'post'>;
type MessageAnswer = Json<`${P}/contacts/{contact_identifier}/conversations/{conversation_id}/messages`, 'post'>;
/** An attachment: what the widget shows of it (the channel's copy has no width or height). */
export type PublicAttachment = Pick<
  MessageAnswer['attachments'][number],
  'id' | 'data_url' | 'file_type' | 'extension'
>;
export type PublicMessage = Omit<MessageAnswer, 'attachments'> & { attachments: PublicAttachment[] };
export type ContactFields = NonNullable<paths[`${P}/contacts`]['post']['requestBody']>['content']['application/json'];

/** Messages per page of the public list (before the newest, or before an id). */
export const MESSAGE_PAGE = 20;

let language = 'en';
const client = createApiClient<paths>({
  credentials: () => ({}),
  language: () => language,
  onUnauthorized: () => {},
});

export const setApiLanguage = (tag: string) => {
  language = tag;
};

async function answer<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch {
    throw { status: 0, code: 'unreachable', message: '', details: [] } satisfies ApiError;
  }
  if (result.error !== undefined || result.data === undefined) throw apiErrorOf(result.error, result.response);
  return result.data;
}

export const isApiError = (e: unknown): e is ApiError =>
  typeof e === 'object' && e !== null && typeof (e as ApiError).status === 'number' && 'code' in e;

/** The calls of one inbox. */
export function inboxApi(inbox: string) {
  const contact = (id: string) => ({ inbox_identifier: inbox, contact_identifier: id });
  const conversation = (id: string, c: number) => ({ ...contact(id), conversation_id: c });
  return {
    inbox: () =>
      answer(
        client.GET('/public/api/v1/inboxes/{inbox_identifier}', { params: { path: { inbox_identifier: inbox } } }),
      ),
    createContact: (body: ContactFields) =>
      answer(
        client.POST('/public/api/v1/inboxes/{inbox_identifier}/contacts', {
          params: { path: { inbox_identifier: inbox } },
          body,
        }),
      ),
    getContact: (id: string) =>
      answer(
        client.GET('/public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}', {
          params: { path: contact(id) },
        }),
      ),
    updateContact: (id: string, body: ContactFields) =>
      answer(
        client.PATCH('/public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}', {
          params: { path: contact(id) },
          body,
        }),
      ),
    conversations: (id: string) =>
      answer(
        client.GET('/public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}/conversations', {
          params: { path: contact(id), query: { page: 1 } },
        }),
      ),
    startConversation: (id: string) =>
      answer(
        client.POST('/public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}/conversations', {
          params: { path: contact(id) },
          body: {},
        }),
      ),
    /** The latest 20; the 20 before `before`; the 100 after `after` (ids). */
    messages: (id: string, c: number, query: { before?: number; after?: number } = {}) =>
      answer(
        client.GET(
          '/public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}/conversations/{conversation_id}/messages',
          { params: { path: conversation(id, c), query } },
        ),
      ),
    send: (id: string, c: number, content: string, echoId: string) =>
      answer(
        client.POST(
          '/public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}/conversations/{conversation_id}/messages',
          { params: { path: conversation(id, c) }, body: { content, echo_id: echoId } },
        ),
      ),
    markSeen: (id: string, c: number) =>
      answer(
        client.POST(
          '/public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}/conversations/{conversation_id}/update_last_seen',
          { params: { path: conversation(id, c) } },
        ),
      ),
    /** A widget event: `webwidget.triggered` (the chat opened) or `campaign.triggered` (its conversation starts). */
    event: (id: string, name: 'webwidget.triggered' | 'campaign.triggered', info: Record<string, unknown>) =>
      answer(
        client.POST('/public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}/events', {
          params: { path: contact(id) },
          body: { name, event_info: info },
        }),
      ),
  };
}

export type InboxApi = ReturnType<typeof inboxApi>;
