import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addInboxMembers,
  addTeamMembers,
  newAccount,
  newAgent,
  newContact,
  newConversation,
  newInbox,
  newMessage,
  newPublicContact,
  newPublicConversation,
  newTeam,
  publicInboxPath,
  type TestAccount,
} from './helpers/factories.js';
import { call, client, type Reply } from './helpers/http.js';
import { buildChatTestApp, type ChatTestApp } from './helpers/test-app.js';

/**
 * Chatwoot's published API document (test/fixtures/chatwoot-openapi.json, a copy of
 * ../shared/reference/chatwoot-openapi.json) against Ponte, the way a client generated from it
 * calls Chatwoot: for every operation whose route Ponte serves, the request carries the ids as the
 * document types them (text in paths; in bodies, text where it says string), every optional body
 * field as its empty default (string "", number "" as the n8n node sends it, false, [], {}, nested
 * objects built the same way) and every required field with the document's example or a real
 * record. The answer must be a 2xx whose body validates against the documented schema, leniently:
 * extra fields are fine, and a field the document does not require may be null (Chatwoot emits
 * null for most of them though the document seldom says `nullable`).
 *
 * Where Ponte differs on purpose, the difference is listed below with its reason: REQUESTS (fields
 * a real client fills although the document does not require them, bodies the document forgets),
 * DEVIATIONS (response fields where the document is wrong about Chatwoot or the spec decides
 * otherwise). Operations Ponte does not serve yet are PENDING: the test fails when one of them
 * starts being served, so the list shrinks as features land (and the operation is then checked).
 *
 *   CONTRACT_LOG=1   print each operation's answer status and the body sent
 */

const DOC = JSON.parse(fs.readFileSync(new URL('./fixtures/chatwoot-openapi.json', import.meta.url), 'utf8'));

/** Not served yet, and why. */
const PENDING: Record<string, string> = {
  'GET /api/v1/accounts/{id}': 'account details and settings: no account resource in the conversation API yet',
  'PATCH /api/v1/accounts/{id}': 'account details and settings: no account resource in the conversation API yet',
  'GET /api/v1/accounts/{account_id}/audit_logs': 'audit logs (a Chatwoot Enterprise feature)',
  'GET /survey/responses/{conversation_uuid}': 'the CSAT survey page (HTML for people, not an API)',
  'POST /public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}/conversations/{conversation_id}/toggle_typing':
    'typing indicators',
};

/** Operations of the document that are not Chatwoot's API, with the reason. */
const NOT_AN_API: Record<string, string> = {
  'GET /accounts/{account_id}/conversations/{conversation_id}/messages':
    "the document's own error: a path without /api/v1 (the messages are served, and checked, at /api/v1/accounts/…)",
};

interface RequestAdjustment {
  reason: string;
  /** Optional fields (dot paths) sent with a value, not their empty default. */
  fill?: string[];
  /** Values for fields (dot paths), instead of the document's examples. */
  values?: (ids: Ids) => Record<string, unknown>;
  /** A body where the document shows none. */
  body?: (ids: Ids) => Record<string, unknown>;
  /** A query string the request carries (without `?`). */
  query?: string;
}

/** since/until of the report requests (UNIX seconds): one day. */
const REPORT_RANGE = 'since=0&until=86400';

/** Requests a real client makes differently from a literal reading of the document. */
const REQUESTS: Record<string, RequestAdjustment> = {
  'POST /api/v1/accounts/{account_id}/inboxes/': {
    reason: 'the document marks nothing required; an inbox needs a name and a channel type (Chatwoot validates both)',
    fill: ['name', 'channel', 'channel.type', 'channel.website_url'],
  },
  'POST /api/v1/accounts/{account_id}/teams': {
    reason: 'the document marks nothing required; a team needs a name (Chatwoot validates it)',
    fill: ['name'],
  },
  'POST /api/v1/accounts/{account_id}/agent_bots': {
    reason: 'the document marks nothing required; a bot needs a name and the URL it is sent to',
    fill: ['name', 'outgoing_url'],
  },
  'POST /platform/api/v1/agent_bots': {
    reason: 'the document marks nothing required; a bot needs a name and the URL it is sent to',
    fill: ['name', 'outgoing_url'],
  },
  'POST /api/v1/accounts/{account_id}/webhooks': {
    reason: 'the document marks nothing required; a webhook needs its url and the events it wants',
    fill: ['url', 'subscriptions'],
  },
  'POST /api/v1/accounts/{account_id}/automation_rules': {
    reason: 'the document marks nothing required; a rule needs a name, an event, conditions and actions',
    fill: ['name', 'event_name', 'conditions', 'actions'],
  },
  'POST /platform/api/v1/accounts': {
    reason: 'the document marks nothing required; an account needs a name',
    fill: ['name'],
  },
  'POST /platform/api/v1/users': {
    reason: 'the document marks nothing required; a user needs a name, an e-mail and a password',
    fill: ['name', 'email', 'password'],
  },
  'POST /api/v1/accounts/{account_id}/canned_responses': {
    reason: 'the document marks nothing required; a canned response needs a short code and content',
    fill: ['short_code', 'content'],
  },
  'POST /api/v1/accounts/{account_id}/portals': {
    reason: 'the document marks nothing required; a portal needs a name and a slug',
    fill: ['name', 'slug'],
  },
  'POST /api/v1/accounts/{account_id}/portals/{id}/categories': {
    reason: 'the document marks nothing required; a category needs a name',
    fill: ['name'],
  },
  'POST /api/v1/accounts/{account_id}/portals/{id}/articles': {
    reason: 'the document marks nothing required; an article needs a title and content',
    fill: ['title', 'content'],
  },
  'POST /api/v1/accounts/{account_id}/conversations/{conversation_id}/assignments': {
    reason:
      'an assignment names its assignee: Chatwoot reads assignee_id "" as "unassign", Ponte reads "" as not given (docs/spec/decisions.md §1) and refuses an assignment of nobody',
    fill: ['assignee_id'],
  },
  'POST /api/v1/accounts/{account_id}/conversations/filter': {
    reason:
      "a filter needs criteria; the document's example filters on browser_language, a conversation additional attribute Ponte's whitelist does not have yet",
    fill: ['payload'],
    values: () => ({
      payload: [{ attribute_key: 'status', filter_operator: 'equal_to', values: ['open'], query_operator: null }],
    }),
  },
  'POST /api/v1/accounts/{account_id}/contacts/filter': {
    reason: 'a filter needs criteria (the document has no example): Evolution API’s lookup by phone number',
    fill: ['payload'],
    values: () => ({
      payload: [
        { attribute_key: 'phone_number', filter_operator: 'equal_to', values: ['5511988887777'], query_operator: null },
      ],
    }),
  },
  'PATCH /api/v1/accounts/{account_id}/automation_rules/{id}': {
    reason:
      "empty lists would leave the rule without conditions and actions, which neither Chatwoot nor Ponte accepts; the example's conditions are message conditions, so its event_name goes with them",
    fill: ['conditions', 'actions', 'event_name'],
  },
  'POST /api/v1/accounts/{account_id}/custom_filters': {
    reason:
      'the query must be criteria the filter accepts (decisions/0019); the type goes as the document names it, `type` (read after `filter_type`)',
    body: () => ({
      name: `Contract filter ${unique()}`,
      type: 'conversation',
      query: { payload: [{ attribute_key: 'status', filter_operator: 'equal_to', values: ['open'] }] },
    }),
  },
  'PATCH /api/v1/accounts/{account_id}/custom_filters/{custom_filter_id}': {
    reason: 'an empty query would leave the filter without criteria, which Ponte refuses (decisions/0019)',
    values: () => ({
      query: { payload: [{ attribute_key: 'status', filter_operator: 'equal_to', values: ['resolved'] }] },
    }),
  },
  'POST /api/v1/accounts/{account_id}/custom_attribute_definitions': {
    reason: 'the document marks nothing required; a definition needs a display name and type, a key and a model',
    fill: ['attribute_display_name', 'attribute_display_type', 'attribute_key', 'attribute_model'],
  },
  'POST /api/v1/accounts/{account_id}/integrations/hooks': {
    reason:
      "the document types app_id as an integer; Chatwoot's app ids are names (openai), and the openai app needs its api_key (decisions/0020)",
    body: (ids) => ({ app_id: 'openai', inbox_id: ids.inbox, status: 1, settings: { api_key: 'sk-contract' } }),
  },
  'PATCH /api/v1/accounts/{account_id}/webhooks/{webhook_id}': {
    reason: 'an empty list would subscribe the webhook to nothing; Ponte refuses a webhook without events',
    fill: ['subscriptions'],
  },
  [`POST ${'/public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}'}/conversations/{conversation_id}/messages`]:
    {
      reason: 'the document marks nothing required; a message needs its content',
      fill: ['content'],
    },
  'GET /api/v2/accounts/{account_id}/reports': {
    reason: 'the spec requires metric, type, since and until on reports (the document lists them as parameters)',
    query: `metric=conversations_count&type=account&${REPORT_RANGE}`,
  },
  'GET /api/v2/accounts/{account_id}/reports/summary': {
    reason: 'the spec requires type, since and until on the summary',
    query: `type=account&${REPORT_RANGE}`,
  },
  'GET /api/v2/accounts/{account_id}/reports/conversations': {
    reason: 'the spec requires type, since and until on every report but the channel report',
    query: `type=account&${REPORT_RANGE}`,
  },
  'GET /api/v2/accounts/{account_id}/reports/conversations/': {
    reason: 'the spec requires type, since and until on every report but the channel report',
    query: `type=agent&${REPORT_RANGE}`,
  },
  'DELETE /platform/api/v1/accounts/{account_id}/account_users': {
    reason: 'the document shows no body; Chatwoot (and Ponte) take the user to remove as user_id',
    body: (ids) => ({ user_id: ids.agent }),
  },
};

const REPORT_NUMBER =
  'the document types it as a string; Chatwoot emits a number, and the spec says number (seconds or a count)';

interface Deviation {
  /** The instance path of the schema error, array indexes as `*`. */
  at: string;
  reason: string;
}

const SENDER_TYPE =
  "Chatwoot emits the sender's class name (User, Contact, AgentBot), not the document's lower-case enum";
const CREATED_AT = 'the spec: a conversation’s created_at is ISO 8601 (Chatwoot emits UNIX seconds)';
const TIMESTAMP = 'the document types timestamp as a string; Chatwoot emits UNIX seconds (an integer)';
const CURRENT_PAGE =
  'Chatwoot echoes the page as it came (text when the query has one, 1 otherwise); Ponte always answers the integer';
const ATTRIBUTE_VALUES =
  'the document types attribute_values as a string; Chatwoot emits the list (the spec: an array)';
const PUBLIC_INBOX_ID = 'the document types inbox_id as a string; Chatwoot emits the integer, as the spec says';
const PUBLIC_MESSAGE = [
  { at: 'id', reason: 'the document types the id as a string; Chatwoot emits the integer' },
  {
    at: 'message_type',
    reason: 'the document types it as a string; Chatwoot emits the integer (0 incoming, 1 outgoing), as the spec says',
  },
  { at: 'content_attributes', reason: 'the document types it as a string; Chatwoot emits the object' },
  { at: 'created_at', reason: 'the document types it as a string; Chatwoot emits UNIX seconds, as the spec says' },
  { at: 'conversation_id', reason: 'the document types it as a string; Chatwoot emits the integer' },
];
const conversationFields = (prefix: string): Deviation[] => [
  { at: `${prefix}/messages/*/sender_type`, reason: SENDER_TYPE },
  { at: `${prefix}/last_non_activity_message/sender_type`, reason: SENDER_TYPE },
  { at: `${prefix}/created_at`, reason: CREATED_AT },
  { at: `${prefix}/timestamp`, reason: TIMESTAMP },
];
const publicMessages = (prefix: string): Deviation[] =>
  PUBLIC_MESSAGE.map((d) => ({ at: `${prefix}/${d.at}`, reason: d.reason }));
const PUB = '/public/api/v1/inboxes/{inbox_identifier}/contacts/{contact_identifier}';
const ACC = '/api/v1/accounts/{account_id}';
const HOOK_IDS = 'the document types the ids of a hook as strings; Chatwoot emits integers';
const HOOK: Deviation[] = [
  { at: '/id', reason: HOOK_IDS },
  { at: '/account_id', reason: HOOK_IDS },
  { at: '/hook_type', reason: 'the document types hook_type as a boolean; Chatwoot emits "account" or "inbox"' },
];

/** Response fields where Ponte knowingly differs from the document. */
const DEVIATIONS: Record<string, Deviation[]> = {
  'GET /api/v2/accounts/{account_id}/reports': [{ at: '/*/value', reason: REPORT_NUMBER }],
  'GET /api/v2/accounts/{account_id}/reports/summary': [
    { at: '/avg_first_response_time', reason: REPORT_NUMBER },
    { at: '/avg_resolution_time', reason: REPORT_NUMBER },
    { at: '/previous/avg_first_response_time', reason: REPORT_NUMBER },
    { at: '/previous/avg_resolution_time', reason: REPORT_NUMBER },
  ],
  'GET /platform/api/v1/accounts/{account_id}/account_users': [
    { at: '/', reason: 'the spec: 200 {data: [account user]} (the document shows a bare list)' },
  ],
  [`GET ${ACC}/webhooks`]: [
    {
      at: '/',
      reason: 'docs/spec/decisions.md §1 (Chatwoot’s real answer): {payload: {webhooks: [...]}}, not a bare list',
    },
  ],
  [`POST ${ACC}/contacts`]: [
    { at: '/payload', reason: 'Chatwoot renders payload as {contact, contact_inbox}, not a list' },
  ],
  [`PUT ${ACC}/contacts/{id}`]: [{ at: '/payload', reason: 'Chatwoot renders payload as the contact, not a list' }],
  [`GET ${ACC}/custom_attribute_definitions`]: [
    { at: '/', reason: 'the spec: 200 {data: [definition]} (the document and Chatwoot show a bare list)' },
  ],
  [`POST ${ACC}/custom_attribute_definitions`]: [{ at: '/attribute_values', reason: ATTRIBUTE_VALUES }],
  [`GET ${ACC}/custom_attribute_definitions/{id}`]: [{ at: '/attribute_values', reason: ATTRIBUTE_VALUES }],
  [`PATCH ${ACC}/custom_attribute_definitions/{id}`]: [{ at: '/attribute_values', reason: ATTRIBUTE_VALUES }],
  [`POST ${ACC}/integrations/hooks`]: [...HOOK, { at: '/inbox_id', reason: HOOK_IDS }],
  [`PATCH ${ACC}/integrations/hooks/{hook_id}`]: HOOK,
  [`GET ${ACC}/contacts`]: [{ at: '/meta/current_page', reason: CURRENT_PAGE }],
  [`GET ${ACC}/contacts/search`]: [{ at: '/meta/current_page', reason: CURRENT_PAGE }],
  [`POST ${ACC}/contacts/filter`]: [{ at: '/meta/current_page', reason: CURRENT_PAGE }],
  [`GET ${ACC}/conversations`]: conversationFields('/data/payload/*'),
  [`GET ${ACC}/conversations/{conversation_id}`]: conversationFields(''),
  [`GET ${ACC}/contacts/{id}/conversations`]: conversationFields('/payload/*'),
  [`GET ${ACC}/conversations/{conversation_id}/messages`]: [{ at: '/payload/*/sender_type', reason: SENDER_TYPE }],
  [`POST ${ACC}/conversations/{conversation_id}/messages`]: [{ at: '/sender_type', reason: SENDER_TYPE }],
  [`GET ${PUB}/conversations`]: [{ at: '/*/inbox_id', reason: PUBLIC_INBOX_ID }],
  [`POST ${PUB}/conversations`]: [{ at: '/inbox_id', reason: PUBLIC_INBOX_ID }],
  [`GET ${PUB}/conversations/{conversation_id}`]: [{ at: '/inbox_id', reason: PUBLIC_INBOX_ID }],
  [`POST ${PUB}/conversations/{conversation_id}/toggle_status`]: [{ at: '/inbox_id', reason: PUBLIC_INBOX_ID }],
  [`GET ${PUB}/conversations/{conversation_id}/messages`]: publicMessages('/*'),
  [`POST ${PUB}/conversations/{conversation_id}/messages`]: publicMessages(''),
  [`PATCH ${PUB}/conversations/{conversation_id}/messages/{message_id}`]: publicMessages(''),
};

// ---------------------------------------------------------------------------------------------

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
type Schema = Record<string, any>;

interface DocOperation {
  key: string;
  method: Method;
  path: string;
  security: string[];
  bodySchema?: Schema;
  responses: Record<string, Schema | undefined>;
}

interface Ids {
  account: number;
  adminToken: string;
  inbox: number;
  agent: number;
  contact: number;
  sourceId: string;
  mergee: number;
  conversation: number;
  message: number;
  team: number;
  agentBot: number;
  webhook: number;
  automationRule: number;
  platformBot: number;
  publicInbox: string;
  publicContact: string;
  publicConversation: number;
  publicMessage: number;
  cannedResponse?: number;
  portal?: string;
  customFilter?: number;
  customAttribute?: number;
  integrationHook?: number;
}

const unique = () => randomBytes(4).toString('hex');

function deref(schema: Schema | undefined, depth = 0): Schema {
  if (!schema || depth > 20) return schema ?? {};
  if (typeof schema.$ref === 'string') {
    const target = schema.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((node: any, part: string) => node?.[part], DOC);
    return deref(target, depth + 1);
  }
  return schema;
}

/** allOf merged into one object schema (for building request bodies). */
function flatten(schema: Schema | undefined): Schema {
  const s = deref(schema);
  if (!s.allOf) return s;
  const parts = s.allOf.map(flatten);
  return {
    type: 'object',
    properties: Object.assign({}, ...parts.map((p: Schema) => p.properties ?? {})),
    required: parts.flatMap((p: Schema) => p.required ?? []),
  };
}

function documentOperations(): DocOperation[] {
  const out: DocOperation[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(DOC.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (method === 'parameters') continue;
      const responses: Record<string, Schema | undefined> = {};
      for (const [code, response] of Object.entries<any>(op.responses ?? {}))
        responses[code] = deref(response).content?.['application/json']?.schema;
      out.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase() as Method,
        path,
        security: (op.security ?? []).flatMap((s: Record<string, unknown>) => Object.keys(s)),
        bodySchema: op.requestBody ? deref(op.requestBody).content?.['application/json']?.schema : undefined,
        responses,
      });
    }
  }
  return out;
}

const normalize = (path: string) => path.replace(/\{[^}]+\}/g, '{}').replace(/\/$/, '');

/* Requests ------------------------------------------------------------------------------------ */

function paramValue(path: string, name: string, ids: Ids): string {
  if (name === 'inbox_identifier') return ids.publicInbox;
  if (name === 'contact_identifier') return ids.publicContact;
  const segments = path.split('/');
  const before = segments[segments.indexOf(`{${name}}`) - 1];
  const isPublic = path.startsWith('/public/');
  const isPlatform = path.startsWith('/platform/');
  const value = (() => {
    switch (before) {
      case 'accounts':
        return ids.account;
      case 'conversations':
        return isPublic ? ids.publicConversation : ids.conversation;
      case 'messages':
        return isPublic ? ids.publicMessage : ids.message;
      case 'contacts':
        return ids.contact;
      case 'inboxes':
      case 'inbox_members':
        return ids.inbox;
      case 'agent_bots':
        return isPlatform ? ids.platformBot : ids.agentBot;
      case 'agents':
      case 'users':
        return ids.agent;
      case 'teams':
        return ids.team;
      case 'webhooks':
        return ids.webhook;
      case 'automation_rules':
        return ids.automationRule;
      case 'canned_responses':
        return ids.cannedResponse;
      case 'custom_filters':
        return ids.customFilter;
      case 'custom_attribute_definitions':
        return ids.customAttribute;
      case 'hooks':
        return ids.integrationHook;
      case 'portals':
        return ids.portal;
    }
    return undefined;
  })();
  if (value === undefined) throw new Error(`no record for {${name}} in ${path}: add one to seed()`);
  return encodeURIComponent(String(value));
}

/** Real records for the fields that name them, and unique values where the server wants them. */
function fieldValue(name: string, ids: Ids, example: unknown): unknown {
  switch (name) {
    case 'inbox_id':
      return ids.inbox;
    case 'contact_id':
    case 'base_contact_id':
      return ids.contact;
    case 'mergee_contact_id':
      return ids.mergee;
    case 'assignee_id':
    case 'user_id':
      return ids.agent;
    case 'user_ids':
      return [ids.agent];
    case 'team_id':
      return ids.team;
    case 'agent_bot':
      return ids.agentBot;
    case 'source_id':
      return ids.sourceId;
    case 'email':
      return `${unique()}@example.test`;
    case 'short_code':
    case 'slug':
      return `${typeof example === 'string' ? example : 'x'}-${unique()}`;
    case 'name':
      return `${typeof example === 'string' ? example : 'Name'} ${unique()}`;
  }
  return undefined;
}

/** A value typed as the document types the field (ids as text where it says string). */
function typed(value: unknown, schema: Schema): unknown {
  const type = schema.type;
  if (Array.isArray(value)) return value.map((v) => typed(v, deref(schema.items ?? {})));
  if (type === 'string' && typeof value === 'number') return String(value);
  if ((type === 'integer' || type === 'number') && typeof value === 'string' && /^\d+$/.test(value))
    return Number(value);
  return value;
}

const SKIP = Symbol('skip');

function buildValue(
  raw: Schema | undefined,
  ctx: { required: boolean; path: string; name: string; ids: Ids; adjust?: RequestAdjustment },
): unknown {
  const s = flatten(raw);
  if (s.format === 'binary') return SKIP; // files go as multipart, not in a JSON body
  const type = s.type ?? (s.properties ? 'object' : s.items ? 'array' : undefined);
  const explicit = ctx.adjust?.values?.(ctx.ids);
  if (explicit && Object.hasOwn(explicit, ctx.path)) return explicit[ctx.path];
  const filled = ctx.required || (ctx.adjust?.fill ?? []).includes(ctx.path);
  if (!filled) {
    // The empty default of a field left empty.
    if (type === 'boolean') return false;
    if (type === 'array') return [];
    if (type === 'object') return s.properties ? buildObject(s, ctx) : {};
    return '';
  }
  const known = fieldValue(ctx.name, ctx.ids, s.example);
  if (known !== undefined) return typed(known, s);
  if (type === 'object') return s.properties ? buildObject(s, ctx) : (s.example ?? {});
  if (type === 'array') {
    if (s.example !== undefined) return s.example;
    const item = buildValue(s.items, { ...ctx, required: true, path: `${ctx.path}.*` });
    return item === SKIP ? [] : [item];
  }
  if (s.example !== undefined) return s.example;
  if (s.enum) return s.enum[0];
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  return 'text';
}

function buildObject(s: Schema, ctx: { path: string; ids: Ids; adjust?: RequestAdjustment }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const required = new Set<string>(s.required ?? []);
  for (const [name, child] of Object.entries<Schema>(s.properties ?? {})) {
    const path = ctx.path ? `${ctx.path}.${name}` : name;
    const value = buildValue(child, { required: required.has(name), path, name, ids: ctx.ids, adjust: ctx.adjust });
    if (value !== SKIP) out[name] = value;
  }
  return out;
}

function requestOf(op: DocOperation, ids: Ids): { url: string; token?: string; body?: unknown } {
  const adjust = REQUESTS[op.key];
  const url = op.path.replace(/\{(\w+)\}/g, (_, name: string) => paramValue(op.path, name, ids));
  const query = op.key.endsWith('/contacts/search') ? '?q=Contract' : adjust?.query ? `?${adjust.query}` : '';
  const token = op.security.includes('platformAppApiKey')
    ? t.platformToken
    : op.security.length > 0
      ? ids.adminToken
      : undefined;
  let body: unknown;
  if (adjust?.body) body = adjust.body(ids);
  else if (op.bodySchema) body = buildObject(flatten(op.bodySchema), { path: '', ids, adjust });
  return { url: url + query, token, body };
}

/* Responses ----------------------------------------------------------------------------------- */

/**
 * The document's schema as JSON Schema for Ajv, leniently: `nullable` becomes a null alternative,
 * and so does every property the schema does not require; extra properties stay allowed.
 */
function lenient(raw: Schema | undefined, depth = 0): Schema {
  const s = deref(raw);
  if (depth > 40) return {};
  const out: Schema = {};
  for (const [key, value] of Object.entries(s)) {
    if (['example', 'nullable', 'description', 'additionalProperties', 'format'].includes(key)) continue;
    out[key] = value;
  }
  if (s.properties) {
    const required = new Set<string>(s.required ?? []);
    out.properties = Object.fromEntries(
      Object.entries<Schema>(s.properties).map(([k, v]) => {
        const inner = lenient(v, depth + 1);
        return [k, required.has(k) ? inner : { anyOf: [inner, { type: 'null' }] }];
      }),
    );
  }
  if (s.items) out.items = lenient(s.items, depth + 1);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const)
    if (s[key]) out[key] = s[key].map((x: Schema) => lenient(x, depth + 1));
  return s.nullable ? { anyOf: [out, { type: 'null' }] } : out;
}

const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
const where = (e: ErrorObject) => e.instancePath.replace(/\/\d+(?=\/|$)/g, '/*') || '/';

function responseSchema(op: DocOperation, status: number): Schema | undefined {
  return (
    op.responses[String(status)] ?? Object.entries(op.responses).find(([code, s]) => code.startsWith('2') && s)?.[1]
  );
}

/* Fixtures ------------------------------------------------------------------------------------ */

let t: ChatTestApp;
let served: DocOperation[];
let pending: DocOperation[];

async function seed(): Promise<Ids> {
  const account: TestAccount = await newAccount(t, `Contract ${unique()}`);
  const api = client(t.app, account.admin.token);
  const inbox = await newInbox(t, account);
  const agent = await newAgent(t, account, 'Contract Agent');
  await addInboxMembers(t, account, inbox.id, [agent.id]);
  const contact = await newContact(t, account, {
    name: 'Contract Contact',
    phone_number: '+5511988887777',
    inbox_id: inbox.id,
    source_id: `src-${unique()}`,
  });
  const mergee = await newContact(t, account, { name: 'Contract Duplicate' });
  const conversation = await newConversation(t, account, {
    inboxId: inbox.id,
    contactSourceId: contact.contact_inbox!.source_id,
  });
  const message = await newMessage(t, account, conversation.id);
  const team = await newTeam(t, account);
  await addTeamMembers(t, account, team.id, [agent.id]);
  const bot = (
    await api.post(`${account.path}/agent_bots`, { name: 'Bot', outgoing_url: 'https://bots.example.test/x' })
  ).body;
  const webhook = (
    await api.post(`${account.path}/webhooks`, {
      url: 'https://hooks.example.test/x',
      subscriptions: ['message_created'],
    })
  ).body.payload.webhook;
  const rule = (
    await api.post(`${account.path}/automation_rules`, {
      name: 'Contract rule',
      event_name: 'conversation_created',
      conditions: [{ attribute_key: 'status', filter_operator: 'equal_to', values: ['open'] }],
      actions: [{ action_name: 'add_label', action_params: ['triage'] }],
    })
  ).body;
  const platformBot = (
    await client(t.app, t.platformToken).post('/platform/api/v1/agent_bots', {
      name: 'Global',
      outgoing_url: 'https://bots.example.test/g',
    })
  ).body;
  const publicContact = await newPublicContact(t, inbox.inbox_identifier!);
  const publicConversation = await newPublicConversation(t, inbox.inbox_identifier!, publicContact.source_id);
  // A question the visitor answers with submitted_values (the public message update).
  const question = await newMessage(t, account, publicConversation.id, {
    content: 'Pick one',
    content_type: 'input_select',
    content_attributes: { items: [{ title: 'A', value: 'a' }] },
  });
  const ids: Ids = {
    account: account.id,
    adminToken: account.admin.token,
    inbox: inbox.id,
    agent: agent.id,
    contact: contact.contact.id,
    sourceId: contact.contact_inbox!.source_id,
    mergee: mergee.contact.id,
    conversation: conversation.id,
    message: message.id,
    team: team.id,
    agentBot: bot.id,
    webhook: webhook.id,
    automationRule: rule.payload?.id ?? rule.id,
    platformBot: platformBot.id,
    publicInbox: inbox.inbox_identifier!,
    publicContact: publicContact.source_id,
    publicConversation: publicConversation.id,
    publicMessage: question.id,
  };
  // Resources of features built in other modules, when they are served.
  if (served.some((op) => op.path.includes('/canned_responses/{id}'))) {
    ids.cannedResponse = (
      await api.post(`${account.path}/canned_responses`, { short_code: `c-${unique()}`, content: 'Hi' })
    ).body.id;
  }
  if (served.some((op) => op.path.includes('/custom_filters/{custom_filter_id}'))) {
    ids.customFilter = (
      await api.post(`${account.path}/custom_filters`, {
        name: 'Open',
        filter_type: 'conversation',
        query: { payload: [{ attribute_key: 'status', filter_operator: 'equal_to', values: ['open'] }] },
      })
    ).body.id;
  }
  if (served.some((op) => op.path.includes('/custom_attribute_definitions/{id}'))) {
    ids.customAttribute = (
      await api.post(`${account.path}/custom_attribute_definitions`, {
        attribute_display_name: 'Order',
        attribute_display_type: 'text',
        attribute_key: `order_${unique()}`,
        attribute_model: 'conversation_attribute',
      })
    ).body.id;
  }
  if (served.some((op) => op.path.includes('/integrations/hooks/{hook_id}'))) {
    ids.integrationHook = (
      await api.post(`${account.path}/integrations/hooks`, { app_id: 'openai', settings: { api_key: 'sk-contract' } })
    ).body.id;
  }
  if (served.some((op) => op.path.includes('/portals/{id}'))) {
    const portal = (await api.post(`${account.path}/portals`, { name: 'Docs', slug: `docs-${unique()}` })).body;
    ids.portal = portal.slug ?? portal.payload?.slug ?? portal.data?.slug;
  }
  return ids;
}

beforeAll(async () => {
  t = await buildChatTestApp();
  const ponte = JSON.parse((await t.app.inject({ url: '/openapi.json' })).body) as { paths: Record<string, object> };
  const routes = new Set<string>();
  for (const [path, ops] of Object.entries(ponte.paths))
    for (const method of Object.keys(ops)) {
      routes.add(`${method.toUpperCase()} ${normalize(path)}`);
      // PUT answers wherever PATCH does; the document shows the PATCH only (decisions/0028).
      if (method === 'patch') routes.add(`PUT ${normalize(path)}`);
    }
  const all = documentOperations().filter((op) => !NOT_AN_API[op.key]);
  served = all.filter((op) => routes.has(`${op.method} ${normalize(op.path)}`));
  pending = all.filter((op) => !routes.has(`${op.method} ${normalize(op.path)}`));
}, 60_000);

afterAll(async () => {
  await t.close();
});

describe("Chatwoot's API document", () => {
  it('lists every operation Ponte does not serve as pending, and nothing it serves', () => {
    expect(pending.map((op) => op.key).sort()).toEqual(Object.keys(PENDING).sort());
    for (const key of [...Object.keys(REQUESTS), ...Object.keys(DEVIATIONS)])
      expect(
        served.map((op) => op.key),
        `${key} is adjusted but not served`,
      ).toContain(key);
  });

  it('is answered 2xx, with a body of the documented shape, for every operation Ponte serves', async () => {
    const failures: string[] = [];
    const unusedDeviations = new Set(
      Object.entries(DEVIATIONS).flatMap(([key, list]) => list.map((d) => `${key} ${d.at}`)),
    );
    // Reads first, then writes on one account; each delete gets records of its own.
    const order = { GET: 0, POST: 1, PUT: 1, PATCH: 1, DELETE: 2 };
    const operations = [...served].sort((a, b) => order[a.method] - order[b.method]);
    const shared = await seed();
    for (const op of operations) {
      const ids = op.method === 'DELETE' ? await seed() : shared;
      const request = requestOf(op, ids);
      const res: Reply = await call(t.app, {
        method: op.method,
        url: request.url,
        token: request.token,
        ...(request.body !== undefined ? { body: request.body } : {}),
      });
      if (process.env.CONTRACT_LOG) console.log(op.key, res.status, JSON.stringify(request.body)?.slice(0, 300));
      const sent = request.body === undefined ? '' : ` ${JSON.stringify(request.body).slice(0, 400)}`;
      if (res.status < 200 || res.status > 299) {
        failures.push(`${op.key}: ${res.status} ${res.text.slice(0, 300)}\n    sent${sent}`);
        continue;
      }
      const schema = responseSchema(op, res.status);
      if (!schema) continue;
      const validate = ajv.compile(lenient(schema));
      if (validate(res.body)) continue;
      const allowed = new Set((DEVIATIONS[op.key] ?? []).map((d) => d.at));
      const errors = (validate.errors ?? []).filter((e) => {
        const at = where(e);
        const listed = [...allowed].find((a) => at === a || at.startsWith(`${a}/`));
        if (listed) unusedDeviations.delete(`${op.key} ${listed}`);
        return !listed;
      });
      // A field's null alternative (lenient) repeats its failure as "must be null", and anyOf
      // wraps both: keep the errors of the documented type.
      const shown = errors.filter(
        (e) => e.keyword !== 'anyOf' && !(e.keyword === 'type' && (e.params as { type?: string }).type === 'null'),
      );
      if (shown.length > 0)
        failures.push(
          `${op.key}: response does not match the document\n    ${shown
            .slice(0, 6)
            .map((e) => `${where(e)} ${e.message}`)
            .join('\n    ')}`,
        );
    }
    expect(failures, failures.join('\n')).toEqual([]);
    expect([...unusedDeviations], 'listed deviations that no longer occur').toEqual([]);
  }, 180_000);

  it('finds the public inbox the way the widget SDK asks for it', async () => {
    const ids = await seed();
    const res = await call(t.app, { url: publicInboxPath(ids.publicInbox) });
    expect(res.status).toBe(200);
    expect(res.body.identifier).toBe(ids.publicInbox);
  });
});
