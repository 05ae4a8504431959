import type { ApiDocs } from '../core/http/api-docs.js';

/** The conversation service's docs pages: a getting-started introduction and who may call what. */
export const chatApiDocs: ApiDocs = {
  intro: `## Getting started

Ponte answers Chatwoot's API: a Chatwoot client (the TypeScript SDK, n8n, WhatsApp bridges) works by
changing its base URL. Every request carries a token in the \`api_access_token\` header
(\`Authorization: Bearer <token>\` works too):

- **Platform app token** (\`PLATFORM_TOKEN\`, printed once at first start): the \`/platform/api/v1\`
  routes, which create accounts and users.
- **User access token**: answered when the platform interface creates a user, and by
  \`POST /auth/sign_in\`; shown again by \`GET /api/v1/profile\`. Members of an account are
  *administrators* or *agents*.
- **Agent bot token**: the \`access_token\` of an agent bot, for the routes that say bots may call them.
- The public interface for chat widgets (\`/public/api/v1/inboxes/{inbox_identifier}/...\`) needs no
  token: the inbox identifier and the contact's \`source_id\` are the credentials.

A first account, from an empty database:

1. \`POST /platform/api/v1/accounts {"name": "Acme"}\` with the platform token.
2. \`POST /platform/api/v1/users {"name": "Alice", "email": "alice@acme.test", "password": "..."}\`:
   the answer carries Alice's \`access_token\`.
3. \`POST /platform/api/v1/accounts/{account_id}/account_users {"user_id": ..., "role": "administrator"}\`.
4. With Alice's token: \`POST /api/v1/accounts/{account_id}/inboxes {"name": "Website", "channel": {"type": "api"}}\`,
   then contacts, conversations and messages under \`/api/v1/accounts/{account_id}\`.

Errors answer \`{"error": "<sentence>", "code": "<snake_case>", "details": [{"field", "message"}]}\`:
401 without a valid token, 403 for a role that may not, 404 for unknown ids and for another account's,
409 for a duplicate, 422 for a body or query that does not fit (nothing is changed), 429 with
\`Retry-After\`; a path whose id is not a whole number (\`/conversations/abc\`) matches nothing: 404.
Lists are paged (\`page\` from 1). Requests are read as Rails reads them: \`"12"\` for an id, \`""\`
(in a body or a query string) for a field not given, no body at all as \`{}\`, and **PUT wherever
PATCH is shown** (each update is listed once, as PATCH). Every time input takes ISO 8601 with or
without an offset (without one, the time is UTC), a date alone (that UTC day) or UNIX seconds; a
range's end includes what it names (\`until=2031-09-15\` is the whole day).`,
  access(config) {
    const mode = config.auth ?? 'account';
    if (mode === 'none') return 'No token: anyone may call it.';
    if (mode === 'platform') return 'The platform app token.';
    if (mode === 'user') return "A user's access token.";
    const who = config.adminOnly
      ? 'Administrators of the account'
      : 'Any member of the account (agent or administrator)';
    return config.allowBot ? `${who}, or an agent bot connected to the inbox.` : `${who}.`;
  },
};
