import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatDatabase } from '../src/chat/db/schema.js';
import { ensurePlatformApp } from '../src/chat/platform/platform.bootstrap.js';
import {
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
import { FakeOpenAi } from './helpers/fake-openai.js';

/**
 * Every route of the conversation service, taken from its own OpenAPI document, against the rules
 * that hold for all of them: 401 without a valid token; another account's (or another platform
 * app's, or another contact's) ids are a 404; agents get 403 on administrator routes; a body of the
 * wrong types is a 422; a body carrying every protected field (ids, account, timestamps, tokens,
 * secrets) writes none of them. Every refusal uses the error body `{error, code}` and leaves every
 * table as it was. A route without an entry in ROUTES fails the coverage test, so new routes are
 * held to the same rules.
 */

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
type Resource =
  | 'pipeline'
  | 'stage'
  | 'lastStage'
  | 'card'
  | 'cardAttachment'
  | 'inbox'
  | 'contact'
  | 'conversation'
  | 'message'
  | 'team'
  | 'agent'
  | 'agentBot'
  | 'webhook'
  | 'automationRule'
  | 'platformAccount'
  | 'platformUser'
  | 'platformBot'
  | 'publicInbox'
  | 'publicContact'
  | 'publicConversation'
  | 'label'
  | 'otherContact'
  | 'publicMessage'
  | 'cannedResponse'
  | 'customFilter'
  | 'customAttribute'
  | 'campaign'
  | 'portal'
  | 'category'
  | 'article'
  | 'integrationHook'
  | 'slaPolicy'
  | 'leadScoreRule'
  | 'leadScoreLog'
  | 'leadScoreJob'
  | 'pipelineAutomation';

/** The records of one side (the owner's, or the outsider's) that paths and bodies name. */
type Ids = Record<Resource, string | number>;

interface RouteRule {
  /** account: a member's token on the path's account; platform: a platform app token; public/none: no token. */
  auth: 'account' | 'user' | 'platform' | 'public' | 'none';
  /** Administrators only (agents 403). */
  admin?: boolean;
  /** What each path parameter names (accountId is always the caller's account). */
  params?: Record<string, Resource>;
  /** A valid body, so that only the ids decide the answer. */
  body?: (ids: Ids) => Record<string, unknown>;
  /** Ids inside the body that must be 404 when they belong to another account. */
  bodyIds?: Resource[];
  /** A query string the path needs (`{accountId}` is the caller's account), e.g. `account_id={accountId}`. */
  query?: string;
}

const unique = () => randomBytes(4).toString('hex');
const A = '/api/v1/accounts/{accountId}';
const P = '/platform/api/v1';
const PUB = '/public/api/v1/inboxes/{inbox_identifier}/contacts';
const conversationIn = { id: 'conversation' } as const;
const ruleBody = () => ({
  name: `Rule ${unique()}`,
  event_name: 'conversation_created',
  conditions: [{ attribute_key: 'status', filter_operator: 'equal_to', values: ['open'] }],
  actions: [{ action_name: 'add_label', action_params: ['triage'] }],
});
const pubContact = { inbox_identifier: 'publicInbox', contact_identifier: 'publicContact' } as const;
const campaignBody = (inboxId: string | number) => ({
  title: `Campaign ${unique()}`,
  campaign_type: 'one_off',
  inbox_id: inboxId,
  message: 'Hello {{contact.name}}',
  scheduled_at: new Date(Date.now() + 86_400_000).toISOString(),
  audience: [{ type: 'Label', id: 'vip' }],
});
const pubConversation = { ...pubContact, conversation_id: 'publicConversation' } as const;
const customFilterBody = () => ({
  name: `Filter ${unique()}`,
  filter_type: 'conversation',
  query: { payload: [{ attribute_key: 'status', filter_operator: 'equal_to', values: ['open'] }] },
});
const customAttributeBody = () => ({
  attribute_display_name: 'Routes attribute',
  attribute_display_type: 'text',
  attribute_key: `routes_${unique()}`,
  attribute_model: 'contact_attribute',
});

/** The sales pipeline (src/chat/modules/pipelines): the seeded card sits alone in the second stage. */
const PIPELINE_ROUTES: Record<string, RouteRule> = {
  [`GET ${A}/pipelines`]: { auth: 'account' },
  [`POST ${A}/pipelines`]: {
    auth: 'account',
    admin: true,
    body: () => ({ name: `Pipeline ${unique()}`, stages: { a: { name: 'Lead' } } }),
  },
  [`GET ${A}/pipelines/{id}`]: { auth: 'account', params: { id: 'pipeline' } },
  [`PATCH ${A}/pipelines/{id}`]: {
    auth: 'account',
    admin: true,
    params: { id: 'pipeline' },
    body: () => ({ description: 'Updated' }),
  },
  [`DELETE ${A}/pipelines/{id}`]: { auth: 'account', admin: true, params: { id: 'pipeline' } },
  [`GET ${A}/pipelines/{pipeline_id}/stages`]: { auth: 'account', params: { pipeline_id: 'pipeline' } },
  [`GET ${A}/pipeline_cards`]: { auth: 'account' },
  [`POST ${A}/pipeline_cards`]: {
    auth: 'account',
    body: (ids) => ({
      title: `Deal ${unique()}`,
      pipeline_id: ids.pipeline,
      pipeline_stage: ids.stage,
      contact_id: ids.contact,
      conversation_display_id: ids.conversation,
      owner_id: ids.agent,
      item_details: { title: 'Plan', value: 1234.56, currency: 'BRL' },
    }),
    bodyIds: ['pipeline', 'contact', 'conversation', 'agent'],
  },
  [`POST ${A}/pipeline_cards/reorder`]: {
    auth: 'account',
    body: (ids) => ({ card_ids: [ids.card] }),
    bodyIds: ['card'],
  },
  [`GET ${A}/pipeline_cards/{id}`]: { auth: 'account', params: { id: 'card' } },
  [`PATCH ${A}/pipeline_cards/{id}`]: {
    auth: 'account',
    params: { id: 'card' },
    body: (ids) => ({ title: 'Renamed deal', owner_id: ids.agent, contact_id: ids.contact }),
    bodyIds: ['agent', 'contact'],
  },
  [`DELETE ${A}/pipeline_cards/{id}`]: {
    auth: 'account',
    params: { id: 'card' },
    body: () => ({ reason: 'Duplicate' }),
  },
  [`POST ${A}/pipeline_cards/{id}/move_to_stage`]: {
    auth: 'account',
    params: { id: 'card' },
    body: (ids) => ({ pipeline_stage: ids.lastStage }),
  },
  [`PATCH ${A}/pipeline_cards/{id}/update_qualification_checklist`]: {
    auth: 'account',
    params: { id: 'card' },
    body: () => ({ qualification_checklist: { budget: { name: 'Budget', checked: true, points: 10 } } }),
  },
  [`POST ${A}/pipeline_cards/{id}/recalculate_score`]: { auth: 'account', params: { id: 'card' } },
  [`POST ${A}/pipeline/cards/{id}/deal_status/mark_won`]: {
    auth: 'account',
    params: { id: 'card' },
    body: () => ({ won_note: 'Signed' }),
  },
  [`POST ${A}/pipeline/cards/{id}/deal_status/mark_lost`]: {
    auth: 'account',
    params: { id: 'card' },
    body: () => ({ lost_reason: 'Price' }),
  },
  [`POST ${A}/pipeline/cards/{id}/deal_status/reopen`]: { auth: 'account', params: { id: 'card' } },
  [`GET ${A}/pipeline/cards/{id}/timeline`]: { auth: 'account', params: { id: 'card' } },
  [`POST ${A}/pipeline/cards/{id}/notes`]: {
    auth: 'account',
    params: { id: 'card' },
    body: () => ({ content: 'Called the client' }),
  },
  [`PATCH ${A}/pipeline/cards/{id}/assign`]: {
    auth: 'account',
    params: { id: 'card' },
    body: (ids) => ({ owner_id: ids.agent }),
    bodyIds: ['agent'],
  },
  [`POST ${A}/pipeline/cards/bulk_assign`]: {
    auth: 'account',
    body: (ids) => ({ card_ids: [ids.card], owner_id: ids.agent }),
    bodyIds: ['card', 'agent'],
  },
  [`GET ${A}/pipeline/cards/discarded`]: { auth: 'account' },
  [`POST ${A}/pipeline/cards/{id}/restore`]: { auth: 'account', params: { id: 'card' } },
  [`DELETE ${A}/pipeline/cards/{id}/permanently_delete`]: { auth: 'account', admin: true, params: { id: 'card' } },
  [`GET ${A}/pipeline/cards/{card_id}/attachments`]: { auth: 'account', params: { card_id: 'card' } },
  [`POST ${A}/pipeline/cards/{card_id}/attachments`]: { auth: 'account', params: { card_id: 'card' } },
  [`DELETE ${A}/pipeline/cards/{card_id}/attachments/{id}`]: {
    auth: 'account',
    params: { card_id: 'card', id: 'cardAttachment' },
  },
  // NooviChat's MCP paths (card-aliases.routes.ts).
  [`GET ${A}/pipelines/{pipeline_id}/pipeline_cards`]: { auth: 'account', params: { pipeline_id: 'pipeline' } },
  [`GET ${A}/pipeline/cards`]: { auth: 'account' },
  [`POST ${A}/pipeline/cards/{id}/lead_scores/override`]: {
    auth: 'account',
    params: { id: 'card' },
    body: () => ({ score: 42 }),
  },
  [`POST ${A}/pipeline/cards/{id}/lead_scores/recalculate`]: { auth: 'account', params: { id: 'card' } },
  [`DELETE ${A}/pipeline/cards/{id}`]: { auth: 'account', params: { id: 'card' }, body: () => ({ reason: 'Spam' }) },
  // Cards as CSV (card-csv.routes.ts); the import's multipart body is sent by card-csv.test.ts.
  [`GET ${A}/pipeline/cards/export`]: { auth: 'account' },
  [`GET ${A}/pipeline/cards/template`]: { auth: 'account' },
  [`POST ${A}/pipeline/cards/import`]: { auth: 'account' },
  // NooviChat's pipeline analytics (modules/pipeline-analytics): a pipeline of another account is a 404.
  ...Object.fromEntries(
    ['analytics/dashboard', 'analytics/win_rate', 'analytics/conversion_metrics', 'analytics/sales_velocity']
      .concat(['analytics/team_pipeline', 'deal_status/common_reasons'])
      .map((path): [string, RouteRule] => [`GET ${A}/pipeline/${path}`, { auth: 'account' }]),
  ),
};

const ROUTES: Record<string, RouteRule> = {
  ...PIPELINE_ROUTES,
  'GET /api': { auth: 'none' },
  'GET /attachments/{key}/{name}': { auth: 'none' },
  'POST /auth/sign_in': { auth: 'none', body: () => ({ email: 'nobody@example.test', password: 'wrong password' }) },
  'DELETE /auth/sign_out': { auth: 'user' },
  ...passwordRoutes(),
  'GET /api/v1/profile': { auth: 'user' },

  [`POST ${P}/accounts`]: { auth: 'platform', body: () => ({ name: 'Created' }) },
  [`GET ${P}/accounts/{account_id}`]: { auth: 'platform', params: { account_id: 'platformAccount' } },
  [`PATCH ${P}/accounts/{account_id}`]: {
    auth: 'platform',
    params: { account_id: 'platformAccount' },
    body: () => ({ locale: 'en' }),
  },
  [`DELETE ${P}/accounts/{account_id}`]: { auth: 'platform', params: { account_id: 'platformAccount' } },
  [`GET ${P}/accounts/{account_id}/account_users`]: { auth: 'platform', params: { account_id: 'platformAccount' } },
  [`POST ${P}/accounts/{account_id}/account_users`]: {
    auth: 'platform',
    params: { account_id: 'platformAccount' },
    body: (ids) => ({ user_id: ids.platformUser, role: 'administrator' }),
    bodyIds: ['platformUser'],
  },
  [`DELETE ${P}/accounts/{account_id}/account_users`]: {
    auth: 'platform',
    params: { account_id: 'platformAccount' },
    body: (ids) => ({ user_id: ids.platformUser }),
  },
  [`POST ${P}/users`]: {
    auth: 'platform',
    body: () => ({ name: 'New', email: `${unique()}@example.test`, password: 'secret-123' }),
  },
  [`GET ${P}/users/{id}`]: { auth: 'platform', params: { id: 'platformUser' } },
  [`PATCH ${P}/users/{id}`]: {
    auth: 'platform',
    params: { id: 'platformUser' },
    body: () => ({ display_name: 'Shown' }),
  },
  [`DELETE ${P}/users/{id}`]: { auth: 'platform', params: { id: 'platformUser' } },
  [`GET ${P}/users/{id}/login`]: { auth: 'platform', params: { id: 'platformUser' } },
  [`GET ${P}/agent_bots`]: { auth: 'platform' },
  [`POST ${P}/agent_bots`]: {
    auth: 'platform',
    body: () => ({ name: 'Global bot', outgoing_url: 'https://bots.example.test/hook' }),
  },
  [`GET ${P}/agent_bots/{id}`]: { auth: 'platform', params: { id: 'platformBot' } },
  [`PATCH ${P}/agent_bots/{id}`]: {
    auth: 'platform',
    params: { id: 'platformBot' },
    body: () => ({ description: 'global' }),
  },
  [`DELETE ${P}/agent_bots/{id}`]: { auth: 'platform', params: { id: 'platformBot' } },

  [`GET ${A}/inboxes`]: { auth: 'account' },
  [`POST ${A}/inboxes`]: { auth: 'account', admin: true, body: () => ({ name: 'Inbox', channel: { type: 'api' } }) },
  [`GET ${A}/inboxes/{id}`]: { auth: 'account', params: { id: 'inbox' } },
  [`PATCH ${A}/inboxes/{id}`]: {
    auth: 'account',
    admin: true,
    params: { id: 'inbox' },
    body: () => ({ greeting_message: 'Hello' }),
  },
  [`DELETE ${A}/inboxes/{id}`]: { auth: 'account', admin: true, params: { id: 'inbox' } },
  [`GET ${A}/inboxes/{id}/agent_bot`]: { auth: 'account', params: { id: 'inbox' } },
  [`GET ${A}/inboxes/{id}/webhook_deliveries`]: { auth: 'account', admin: true, params: { id: 'inbox' } },
  [`POST ${A}/inboxes/{id}/set_agent_bot`]: {
    auth: 'account',
    admin: true,
    params: { id: 'inbox' },
    body: (ids) => ({ agent_bot: ids.agentBot }),
    bodyIds: ['agentBot'],
  },
  [`GET ${A}/inbox_members/{inbox_id}`]: { auth: 'account', params: { inbox_id: 'inbox' } },
  [`POST ${A}/inbox_members`]: {
    auth: 'account',
    admin: true,
    body: (ids) => ({ inbox_id: ids.inbox, user_ids: [ids.agent] }),
    bodyIds: ['inbox'],
  },
  [`PATCH ${A}/inbox_members`]: {
    auth: 'account',
    admin: true,
    body: (ids) => ({ inbox_id: ids.inbox, user_ids: [ids.agent] }),
    bodyIds: ['inbox'],
  },
  [`DELETE ${A}/inbox_members`]: {
    auth: 'account',
    admin: true,
    body: (ids) => ({ inbox_id: ids.inbox, user_ids: [ids.agent] }),
    bodyIds: ['inbox'],
  },

  [`GET ${A}/contacts`]: { auth: 'account' },
  [`POST ${A}/contacts`]: { auth: 'account', body: () => ({ name: 'New contact' }) },
  [`GET ${A}/contacts/search`]: { auth: 'account' },
  [`GET ${A}/contacts/{id}`]: { auth: 'account', params: { id: 'contact' } },
  [`PATCH ${A}/contacts/{id}`]: {
    auth: 'account',
    params: { id: 'contact' },
    body: () => ({ phone_number: '+5511999990001' }),
  },
  [`DELETE ${A}/contacts/{id}`]: { auth: 'account', admin: true, params: { id: 'contact' } },
  [`GET ${A}/contacts/{id}/labels`]: { auth: 'account', params: { id: 'contact' } },
  [`POST ${A}/contacts/{id}/labels`]: { auth: 'account', params: { id: 'contact' }, body: () => ({ labels: ['vip'] }) },
  [`GET ${A}/contacts/{id}/conversations`]: { auth: 'account', params: { id: 'contact' } },
  [`GET ${A}/contacts/{id}/contactable_inboxes`]: { auth: 'account', params: { id: 'contact' } },
  [`POST ${A}/contacts/filter`]: {
    auth: 'account',
    body: () => ({
      payload: [{ attribute_key: 'phone_number', filter_operator: 'equal_to', values: ['5511999990001'] }],
    }),
  },
  [`POST ${A}/actions/contact_merge`]: {
    auth: 'account',
    body: (ids) => ({ base_contact_id: ids.contact, mergee_contact_id: ids.otherContact }),
    bodyIds: ['contact', 'otherContact'],
  },
  [`GET ${A}/labels`]: { auth: 'account' },
  [`POST ${A}/labels`]: {
    auth: 'account',
    admin: true,
    body: () => ({ title: `label-${unique()}`, color: '#00aa00' }),
  },
  [`GET ${A}/labels/{id}`]: { auth: 'account', params: { id: 'label' } },
  [`PATCH ${A}/labels/{id}`]: {
    auth: 'account',
    admin: true,
    params: { id: 'label' },
    body: () => ({ description: 'Described', show_on_sidebar: true }),
  },
  [`DELETE ${A}/labels/{id}`]: { auth: 'account', admin: true, params: { id: 'label' } },
  [`POST ${A}/contacts/{id}/contact_inboxes`]: {
    auth: 'account',
    params: { id: 'contact' },
    body: (ids) => ({ inbox_id: ids.inbox, source_id: `src-${unique()}` }),
    bodyIds: ['inbox'],
  },

  [`GET ${A}/agents`]: { auth: 'account' },
  [`POST ${A}/agents`]: {
    auth: 'account',
    admin: true,
    body: () => ({ name: 'New agent', email: `${unique()}@example.test`, role: 'agent' }),
  },
  [`PATCH ${A}/agents/{id}`]: {
    auth: 'account',
    admin: true,
    params: { id: 'agent' },
    body: () => ({ availability: 'busy' }),
  },
  [`DELETE ${A}/agents/{id}`]: { auth: 'account', admin: true, params: { id: 'agent' } },

  [`GET ${A}/teams`]: { auth: 'account' },
  [`POST ${A}/teams`]: { auth: 'account', admin: true, body: () => ({ name: `Team ${unique()}` }) },
  [`GET ${A}/teams/{team_id}`]: { auth: 'account', params: { team_id: 'team' } },
  [`PATCH ${A}/teams/{team_id}`]: {
    auth: 'account',
    admin: true,
    params: { team_id: 'team' },
    body: () => ({ description: 'Team' }),
  },
  [`DELETE ${A}/teams/{team_id}`]: { auth: 'account', admin: true, params: { team_id: 'team' } },
  [`GET ${A}/teams/{team_id}/team_members`]: { auth: 'account', params: { team_id: 'team' } },
  [`POST ${A}/teams/{team_id}/team_members`]: {
    auth: 'account',
    admin: true,
    params: { team_id: 'team' },
    body: (ids) => ({ user_ids: [ids.agent] }),
  },
  [`PATCH ${A}/teams/{team_id}/team_members`]: {
    auth: 'account',
    admin: true,
    params: { team_id: 'team' },
    body: (ids) => ({ user_ids: [ids.agent] }),
  },
  [`DELETE ${A}/teams/{team_id}/team_members`]: {
    auth: 'account',
    admin: true,
    params: { team_id: 'team' },
    body: (ids) => ({ user_ids: [ids.agent] }),
  },

  [`GET ${A}/agent_bots`]: { auth: 'account', admin: true },
  [`POST ${A}/agent_bots`]: {
    auth: 'account',
    admin: true,
    body: () => ({ name: 'Bot', outgoing_url: 'https://bots.example.test/hook' }),
  },
  [`GET ${A}/agent_bots/{id}`]: { auth: 'account', admin: true, params: { id: 'agentBot' } },
  [`PATCH ${A}/agent_bots/{id}`]: {
    auth: 'account',
    admin: true,
    params: { id: 'agentBot' },
    body: () => ({ description: 'Answers' }),
  },
  [`DELETE ${A}/agent_bots/{id}`]: { auth: 'account', admin: true, params: { id: 'agentBot' } },

  [`GET ${A}/conversations`]: { auth: 'account' },
  [`POST ${A}/conversations`]: {
    auth: 'account',
    body: (ids) => ({ inbox_id: ids.inbox, contact_id: ids.contact, source_id: `conv-${unique()}` }),
    bodyIds: ['inbox', 'contact'],
  },
  [`GET ${A}/conversations/meta`]: { auth: 'account' },
  [`POST ${A}/conversations/filter`]: {
    auth: 'account',
    body: () => ({ payload: [{ attribute_key: 'status', filter_operator: 'equal_to', values: ['open'] }] }),
  },
  [`GET ${A}/conversations/{id}`]: { auth: 'account', params: conversationIn },
  [`PATCH ${A}/conversations/{id}`]: { auth: 'account', params: conversationIn, body: () => ({ priority: 'low' }) },
  [`POST ${A}/conversations/{id}/toggle_status`]: {
    auth: 'account',
    params: conversationIn,
    body: () => ({ status: 'open' }),
  },
  [`POST ${A}/conversations/{id}/toggle_priority`]: {
    auth: 'account',
    params: conversationIn,
    body: () => ({ priority: 'medium' }),
  },
  [`POST ${A}/conversations/{id}/update_last_seen`]: { auth: 'account', params: conversationIn },
  [`GET ${A}/conversations/{id}/labels`]: { auth: 'account', params: conversationIn },
  [`POST ${A}/conversations/{id}/labels`]: {
    auth: 'account',
    params: conversationIn,
    body: () => ({ labels: ['billing'] }),
  },
  [`POST ${A}/conversations/{id}/custom_attributes`]: {
    auth: 'account',
    params: conversationIn,
    body: () => ({ custom_attributes: { order_id: '12345' } }),
  },
  [`POST ${A}/conversations/{id}/assignments`]: {
    auth: 'account',
    params: conversationIn,
    body: () => ({ team_id: null }),
  },
  [`GET ${A}/conversations/{id}/messages`]: { auth: 'account', params: conversationIn },
  [`POST ${A}/conversations/{id}/messages`]: {
    auth: 'account',
    params: conversationIn,
    body: () => ({ content: 'Hello', private: true }),
  },
  [`PATCH ${A}/conversations/{id}/messages/{message_id}`]: {
    auth: 'account',
    params: { id: 'conversation', message_id: 'message' },
    body: () => ({ status: 'delivered' }),
  },
  [`DELETE ${A}/conversations/{id}/messages/{message_id}`]: {
    auth: 'account',
    params: { id: 'conversation', message_id: 'message' },
  },

  [`GET ${A}/webhooks`]: { auth: 'account', admin: true },
  [`POST ${A}/webhooks`]: {
    auth: 'account',
    admin: true,
    body: () => ({ url: 'https://hooks.example.test/chat', subscriptions: ['message_created'] }),
  },
  [`GET ${A}/webhooks/{id}`]: { auth: 'account', admin: true, params: { id: 'webhook' } },
  [`PATCH ${A}/webhooks/{id}`]: {
    auth: 'account',
    admin: true,
    params: { id: 'webhook' },
    body: () => ({ subscriptions: ['message_created', 'contact_created'] }),
  },
  [`DELETE ${A}/webhooks/{id}`]: { auth: 'account', admin: true, params: { id: 'webhook' } },
  [`GET ${A}/webhooks/{id}/deliveries`]: { auth: 'account', admin: true, params: { id: 'webhook' } },

  [`GET ${A}/automation_rules`]: { auth: 'account', admin: true },
  [`POST ${A}/automation_rules`]: { auth: 'account', admin: true, body: ruleBody },
  [`GET ${A}/automation_rules/{id}`]: { auth: 'account', admin: true, params: { id: 'automationRule' } },
  [`PATCH ${A}/automation_rules/{id}`]: {
    auth: 'account',
    admin: true,
    params: { id: 'automationRule' },
    body: () => ({ description: 'Triage' }),
  },
  [`DELETE ${A}/automation_rules/{id}`]: { auth: 'account', admin: true, params: { id: 'automationRule' } },
  [`GET ${A}/automation_rules/{id}/runs`]: { auth: 'account', admin: true, params: { id: 'automationRule' } },

  ['GET /public/api/v1/inboxes/{inbox_identifier}']: { auth: 'public', params: { inbox_identifier: 'publicInbox' } },
  [`POST ${PUB}`]: { auth: 'public', params: { inbox_identifier: 'publicInbox' }, body: () => ({ name: 'Visitor' }) },
  [`GET ${PUB}/{contact_identifier}`]: { auth: 'public', params: pubContact },
  [`PATCH ${PUB}/{contact_identifier}`]: { auth: 'public', params: pubContact, body: () => ({ name: 'Visitor 2' }) },
  [`POST ${PUB}/{contact_identifier}/conversations`]: { auth: 'public', params: pubContact, body: () => ({}) },
  [`GET ${PUB}/{contact_identifier}/conversations`]: { auth: 'public', params: pubContact },
  [`GET ${PUB}/{contact_identifier}/conversations/{conversation_id}`]: { auth: 'public', params: pubConversation },
  [`POST ${PUB}/{contact_identifier}/conversations/{conversation_id}/toggle_status`]: {
    auth: 'public',
    params: pubConversation,
  },
  [`POST ${PUB}/{contact_identifier}/conversations/{conversation_id}/update_last_seen`]: {
    auth: 'public',
    params: pubConversation,
  },
  [`GET ${PUB}/{contact_identifier}/conversations/{conversation_id}/messages`]: {
    auth: 'public',
    params: pubConversation,
  },
  [`POST ${PUB}/{contact_identifier}/conversations/{conversation_id}/messages`]: {
    auth: 'public',
    params: pubConversation,
    body: () => ({ content: 'Hi' }),
  },
  [`PATCH ${PUB}/{contact_identifier}/conversations/{conversation_id}/messages/{message_id}`]: {
    auth: 'public',
    params: { ...pubConversation, message_id: 'publicMessage' },
    body: () => ({}),
  },
  [`POST ${PUB}/{contact_identifier}/events`]: {
    auth: 'public',
    params: pubContact,
    body: () => ({ name: 'webwidget.triggered' }),
  },

  [`GET ${A}/canned_responses`]: { auth: 'account' },
  [`POST ${A}/canned_responses`]: { auth: 'account', body: () => ({ short_code: `code-${unique()}`, content: 'Hi' }) },
  [`PATCH ${A}/canned_responses/{id}`]: {
    auth: 'account',
    params: { id: 'cannedResponse' },
    body: () => ({ content: 'Updated' }),
  },
  [`DELETE ${A}/canned_responses/{id}`]: { auth: 'account', params: { id: 'cannedResponse' } },

  // Saved filters belong to their user: the outsider's are another user's too.
  [`GET ${A}/custom_filters`]: { auth: 'account' },
  [`POST ${A}/custom_filters`]: { auth: 'account', body: () => customFilterBody() },
  [`GET ${A}/custom_filters/{id}`]: { auth: 'account', params: { id: 'customFilter' } },
  [`PATCH ${A}/custom_filters/{id}`]: {
    auth: 'account',
    params: { id: 'customFilter' },
    body: () => ({ name: 'Renamed filter' }),
  },
  [`DELETE ${A}/custom_filters/{id}`]: { auth: 'account', params: { id: 'customFilter' } },
  [`GET ${A}/custom_attribute_definitions`]: { auth: 'account' },
  [`POST ${A}/custom_attribute_definitions`]: { auth: 'account', admin: true, body: () => customAttributeBody() },
  [`GET ${A}/custom_attribute_definitions/{id}`]: { auth: 'account', params: { id: 'customAttribute' } },
  [`PATCH ${A}/custom_attribute_definitions/{id}`]: {
    auth: 'account',
    admin: true,
    params: { id: 'customAttribute' },
    body: () => ({ attribute_display_name: 'Renamed attribute' }),
  },
  [`DELETE ${A}/custom_attribute_definitions/{id}`]: {
    auth: 'account',
    admin: true,
    params: { id: 'customAttribute' },
  },

  [`GET ${A}/campaigns`]: { auth: 'account', admin: true },
  [`POST ${A}/campaigns`]: {
    auth: 'account',
    admin: true,
    body: (ids) => campaignBody(ids.inbox),
    bodyIds: ['inbox'],
  },
  [`GET ${A}/campaigns/{id}`]: { auth: 'account', admin: true, params: { id: 'campaign' } },
  [`PATCH ${A}/campaigns/{id}`]: {
    auth: 'account',
    admin: true,
    params: { id: 'campaign' },
    body: () => ({ title: 'Renamed' }),
  },
  [`DELETE ${A}/campaigns/{id}`]: { auth: 'account', admin: true, params: { id: 'campaign' } },
  ['GET /public/api/v1/inboxes/{inbox_identifier}/campaigns']: {
    auth: 'public',
    params: { inbox_identifier: 'publicInbox' },
  },

  ...helpCenterRoutes(),
  ...leadScoringRoutes(),
  ...pipelineAutomationsRoutes(),
  ...reportsRoutes(),
  ...slaRoutes(),
  ['GET /hc/{slug}']: { auth: 'public' },
  ['GET /hc/{slug}/{locale}']: { auth: 'public' },
  ['GET /hc/{slug}/{locale}/categories/{category_slug}']: { auth: 'public' },
  ['GET /hc/{slug}/articles/{article_slug}']: { auth: 'public' },
  ['GET /public/api/v1/portals/{slug}/articles']: { auth: 'public' },

  [`GET ${A}/integrations/apps`]: { auth: 'account' },
  [`GET ${A}/integrations/apps/{id}`]: { auth: 'account' },
  [`POST ${A}/integrations/hooks`]: {
    auth: 'account',
    admin: true,
    body: (ids) => ({
      app_id: 'openai',
      inbox_id: ids.inbox,
      settings: { api_key: 'sk-routes', base_url: fakeAi.baseUrl },
    }),
    bodyIds: ['inbox'],
  },
  [`GET ${A}/integrations/hooks/{id}`]: { auth: 'account', params: { id: 'integrationHook' } },
  [`PATCH ${A}/integrations/hooks/{id}`]: {
    auth: 'account',
    admin: true,
    params: { id: 'integrationHook' },
    body: () => ({ settings: { model: 'gpt-4o' } }),
  },
  [`DELETE ${A}/integrations/hooks/{id}`]: { auth: 'account', admin: true, params: { id: 'integrationHook' } },
  [`POST ${A}/integrations/hooks/{id}/process`]: {
    auth: 'account',
    params: { id: 'integrationHook' },
    body: (ids) => ({ event: { name: 'summarize', data: { conversation_display_id: ids.conversation } } }),
    bodyIds: ['conversation'],
  },
  [`POST ${A}/integrations/hooks/{id}/process_event`]: {
    auth: 'account',
    params: { id: 'integrationHook' },
    body: (ids) => ({ event: { name: 'summarize', data: { conversation_display_id: ids.conversation } } }),
    bodyIds: ['conversation'],
  },
};

/** Reports (src/chat/modules/reports): administrators only; since/until where the spec requires them. */
function reportsRoutes(): Record<string, RouteRule> {
  const V2 = '/api/v2/accounts/{accountId}';
  const range = 'since=0&until=86400';
  return {
    [`GET ${V2}/reports`]: { auth: 'account', admin: true, query: `metric=conversations_count&type=account&${range}` },
    [`GET ${V2}/reports/summary`]: { auth: 'account', admin: true, query: `type=account&${range}` },
    [`GET ${V2}/reports/conversations`]: { auth: 'account', admin: true, query: `type=account&${range}` },
    [`GET ${V2}/summary_reports/channel`]: { auth: 'account', admin: true },
    [`GET ${A}/conversations/{id}/reporting_events`]: { auth: 'account', admin: true, params: conversationIn },
    [`GET ${A}/reporting_events`]: { auth: 'account', admin: true },
  };
}

/**
 * Forgotten passwords and set-password links (src/chat/modules/invitations), without credentials.
 * Setting a password needs a token only an e-mail carries, so no valid body is offered for it.
 */
function passwordRoutes(): Record<string, RouteRule> {
  return {
    'POST /auth/password': { auth: 'none', body: () => ({ email: 'nobody@example.test' }) },
    'PUT /auth/password': { auth: 'none' },
    'GET /auth/password/edit': { auth: 'none' },
    'POST /auth/password/edit': { auth: 'none' },
    'GET /auth/password/new': { auth: 'none' },
    'POST /auth/password/new': { auth: 'none' },
  };
}

/**
 * Lead scoring (src/chat/modules/lead-scoring): members read rules and logs and record custom events;
 * administrators write rules, read reports and start bulk recalculations.
 */
function leadScoringRoutes(): Record<string, RouteRule> {
  const R = `${A}/lead_score/reports`;
  const range = 'since=0&until=86400';
  return {
    [`GET ${A}/lead_score_rules`]: { auth: 'account' },
    [`POST ${A}/lead_score_rules`]: {
      auth: 'account',
      admin: true,
      body: () => ({ event_type: 'custom_event', event_subtype: `routes-${unique()}`, points: 5 }),
    },
    [`POST ${A}/lead_score_rules/create_defaults`]: { auth: 'account', admin: true },
    [`GET ${A}/lead_score_rules/{id}`]: { auth: 'account', params: { id: 'leadScoreRule' } },
    [`PATCH ${A}/lead_score_rules/{id}`]: {
      auth: 'account',
      admin: true,
      params: { id: 'leadScoreRule' },
      body: () => ({ points: 6 }),
    },
    [`DELETE ${A}/lead_score_rules/{id}`]: { auth: 'account', admin: true, params: { id: 'leadScoreRule' } },
    [`GET ${A}/lead_score/logs`]: { auth: 'account' },
    [`GET ${A}/lead_score/logs/{id}`]: { auth: 'account', params: { id: 'leadScoreLog' } },
    [`POST ${A}/lead_score/events`]: {
      auth: 'account',
      body: (ids) => ({ pipeline_card_id: ids.card, event_subtype: 'routes' }),
      bodyIds: ['card'],
    },
    [`GET ${A}/pipeline/lead_scores/distribution`]: { auth: 'account' },
    [`GET ${R}/distribution`]: { auth: 'account', admin: true },
    [`GET ${R}/dashboard`]: { auth: 'account', admin: true },
    [`GET ${R}/trends`]: { auth: 'account', admin: true, query: range },
    [`GET ${R}/top_leads`]: { auth: 'account', admin: true },
    [`GET ${R}/category_changes`]: { auth: 'account', admin: true, query: range },
    [`POST ${R}/bulk_recalculate`]: { auth: 'account', admin: true },
    [`GET ${R}/bulk_recalculate/{job_id}`]: { auth: 'account', admin: true, params: { job_id: 'leadScoreJob' } },
  };
}

/** Pipeline automations (src/chat/modules/pipeline-automations): members read, administrators write. */
function pipelineAutomationsRoutes(): Record<string, RouteRule> {
  const P = `${A}/pipeline/automations`;
  const automation = { id: 'pipelineAutomation' } as const;
  const body = (ids: Ids) => ({
    name: `Automation ${unique()}`,
    trigger: 'stage_change',
    pipeline_id: ids.pipeline,
    actions: [{ type: 'add_note', content: 'Moved {{card.title}}' }],
  });
  return {
    [`GET ${P}`]: { auth: 'account' },
    [`POST ${P}`]: { auth: 'account', admin: true, body, bodyIds: ['pipeline'] },
    [`GET ${P}/dashboard`]: { auth: 'account' },
    [`GET ${P}/all_executions`]: { auth: 'account' },
    [`GET ${P}/{id}`]: { auth: 'account', params: automation },
    [`PATCH ${P}/{id}`]: { auth: 'account', admin: true, params: automation, body: () => ({ name: 'Renamed' }) },
    [`DELETE ${P}/{id}`]: { auth: 'account', admin: true, params: automation },
    [`POST ${P}/{id}/duplicate`]: { auth: 'account', admin: true, params: automation },
    [`POST ${P}/{id}/execute`]: {
      auth: 'account',
      admin: true,
      params: automation,
      body: (ids) => ({ card_id: ids.card }),
      bodyIds: ['card'],
    },
    [`POST ${P}/{id}/dry_run`]: {
      auth: 'account',
      admin: true,
      params: automation,
      body: (ids) => ({ card_id: ids.card }),
      bodyIds: ['card'],
    },
    [`POST ${P}/{id}/validate`]: { auth: 'account', admin: true, params: automation, body: () => ({}) },
    [`POST ${P}/validate`]: { auth: 'account', admin: true, body, bodyIds: ['pipeline'] },
    [`GET ${P}/{id}/executions`]: { auth: 'account', params: automation },
    [`GET ${P}/{id}/stats`]: { auth: 'account', params: automation },
    [`GET ${P}/{id}/audit_logs`]: { auth: 'account', params: automation },
  };
}

/** SLA (src/chat/modules/sla): both seeded accounts are on the Enterprise plan. */
function slaRoutes(): Record<string, RouteRule> {
  const policy = { id: 'slaPolicy' } as const;
  const body = () => ({ name: `SLA ${unique()}`, first_response_time_threshold: 3600 });
  return {
    [`GET ${A}/sla_policies`]: { auth: 'account' },
    [`POST ${A}/sla_policies`]: { auth: 'account', admin: true, body },
    [`GET ${A}/sla_policies/{id}`]: { auth: 'account', params: policy },
    [`PATCH ${A}/sla_policies/{id}`]: {
      auth: 'account',
      admin: true,
      params: policy,
      body: () => ({ name: 'Renamed' }),
    },
    [`DELETE ${A}/sla_policies/{id}`]: { auth: 'account', admin: true, params: policy },
    [`GET ${A}/applied_slas`]: { auth: 'account', admin: true },
    [`GET ${A}/applied_slas/metrics`]: { auth: 'account', admin: true },
    [`GET ${A}/applied_slas/download`]: { auth: 'account', admin: true },
  };
}

/** The help center's management routes at Chatwoot's `{A}/portals...` and the spec's `/api/v1/portals...?account_id=`. */
function helpCenterRoutes(): Record<string, RouteRule> {
  const portal = { portal_id: 'portal' } as const;
  const category = { ...portal, category_id: 'category' } as const;
  const article = { ...portal, article_id: 'article' } as const;
  const rules: [string, RouteRule][] = [
    ['GET /portals', { auth: 'account' }],
    ['POST /portals', { auth: 'account', admin: true, body: () => ({ name: 'Docs', slug: `docs-${unique()}` }) }],
    ['GET /portals/{portal_id}', { auth: 'account', params: portal }],
    [
      'PATCH /portals/{portal_id}',
      { auth: 'account', admin: true, params: portal, body: () => ({ header_text: 'Welcome' }) },
    ],
    ['DELETE /portals/{portal_id}', { auth: 'account', admin: true, params: portal }],
    ['GET /portals/{portal_id}/categories', { auth: 'account', params: portal }],
    [
      'POST /portals/{portal_id}/categories',
      { auth: 'account', admin: true, params: portal, body: () => ({ name: `Category ${unique()}` }) },
    ],
    ['GET /portals/{portal_id}/categories/{category_id}', { auth: 'account', params: category }],
    [
      'PATCH /portals/{portal_id}/categories/{category_id}',
      { auth: 'account', admin: true, params: category, body: () => ({ description: 'About' }) },
    ],
    ['DELETE /portals/{portal_id}/categories/{category_id}', { auth: 'account', admin: true, params: category }],
    ['GET /portals/{portal_id}/articles', { auth: 'account', params: portal }],
    [
      'POST /portals/{portal_id}/articles',
      {
        auth: 'account',
        admin: true,
        params: portal,
        body: (ids) => ({ title: `Article ${unique()}`, content: 'Body', category_id: ids.category }),
        bodyIds: ['category'],
      },
    ],
    ['GET /portals/{portal_id}/articles/{article_id}', { auth: 'account', params: article }],
    [
      'PATCH /portals/{portal_id}/articles/{article_id}',
      {
        auth: 'account',
        admin: true,
        params: article,
        body: (ids) => ({ description: 'Updated', category_id: ids.category }),
        bodyIds: ['category'],
      },
    ],
    ['DELETE /portals/{portal_id}/articles/{article_id}', { auth: 'account', admin: true, params: article }],
  ];
  const out: Record<string, RouteRule> = {};
  for (const [key, rule] of rules) {
    const [method, path] = key.split(' ');
    out[`${method} ${A}${path}`] = rule;
    out[`${method} /api/v1${path}`] = { ...rule, query: 'account_id={accountId}' };
  }
  return out;
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  enum?: unknown[];
}

interface Operation {
  key: string;
  method: Method;
  path: string;
  bodySchema?: JsonSchema;
}

/** Every table a request could change (rate-limit counters excepted: refused sign-ins count). */
const TABLES = [
  'outbox_events',
  'pipelines',
  'pipeline_stages',
  'pipeline_cards',
  'pipeline_stage_counts',
  'pipeline_card_timeline',
  'pipeline_card_attachments',
  'webhook_deliveries',
  'outgoing_emails',
  'webhooks',
  'automation_rules',
  'automation_runs',
  'accounts',
  'users',
  'platform_apps',
  'platform_app_permissibles',
  'access_tokens',
  'sso_tokens',
  'account_users',
  'agent_bots',
  'teams',
  'team_members',
  'inboxes',
  'inbox_members',
  'contacts',
  'contact_inboxes',
  'conversations',
  'messages',
  'attachments',
  'taggings',
  'labels',
  'user_sessions',
  'canned_responses',
  'custom_filters',
  'custom_attribute_definitions',
  'campaigns',
  'campaign_counters',
  'campaign_recipients',
  'help_portals',
  'help_categories',
  'help_articles',
  'integration_hooks',
  'lead_score_rules',
  'lead_score_events',
  'lead_score_applications',
  'lead_score_logs',
  'lead_score_bulk_jobs',
  'password_tokens',
  'reporting_events',
  'reporting_event_labels',
  'reporting_conversations',
  'reporting_rollups',
  'sla_policies',
  'applied_slas',
  'sla_events',
  'sla_versions',
  'pipeline_automations',
  'pipeline_automation_audit_logs',
] as const satisfies readonly (keyof ChatDatabase)[];

let t: ChatTestApp;
let operations: Operation[];
let owner: TestAccount;
let outsider: TestAccount;
let agent: { token: string };
let mine: Ids;
let theirs: Ids;
let otherAppToken: string;
let fakeAi: FakeOpenAi;

/** A pipeline of three stages with one card (contact, owner, an attachment) alone in the second. */
async function seedPipeline(account: TestAccount, contactId: number, ownerId: number) {
  const api = client(t.app, account.admin.token);
  const pipeline = (
    await api.post(`${account.path}/pipelines`, {
      name: 'Routes pipeline',
      stages: { a: { name: 'Lead' }, b: { name: 'Qualified' }, c: { name: 'Proposal' } },
    })
  ).body.data;
  const card = (
    await api.post(`${account.path}/pipeline_cards`, {
      title: 'Routes deal',
      pipeline_id: pipeline?.id,
      pipeline_stage: pipeline?.stages?.[1]?.id,
      contact_id: contactId,
      owner_id: ownerId,
      value: 10,
    })
  ).body.data;
  const form = new FormData();
  form.append('file', new Blob(['hello'], { type: 'text/plain' }), 'notes.txt');
  const request = new Request('http://local/', { method: 'POST', body: form });
  const upload = await t.app.inject({
    method: 'POST',
    url: `${account.path}/pipeline/cards/${card?.id}/attachments`,
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')!, api_access_token: account.admin.token },
  });
  const attachment = upload.json().data;
  for (const [id, res] of [
    [pipeline?.id, pipeline],
    [card?.id, card],
    [attachment?.id, upload.body],
  ]) {
    expect(id, JSON.stringify(res)).toEqual(expect.any(Number));
  }
  return {
    pipeline: pipeline.id as number,
    stage: pipeline.stages[0].id as string,
    lastStage: pipeline.stages[2].id as string,
    card: card.id as number,
    cardAttachment: attachment.id as number,
  };
}

/** The records an account's routes name: one of each, and (for the outsider) `conversations` of them. */
async function seed(account: TestAccount, conversations: number): Promise<Ids> {
  const api = client(t.app, account.admin.token);
  const inbox = await newInbox(t, account);
  const member = await newAgent(t, account);
  const contact = await newContact(t, account, {
    name: 'Routes Contact',
    inbox_id: inbox.id,
    source_id: `src-${unique()}`,
  });
  let conversation = await newConversation(t, account, {
    inboxId: inbox.id,
    contactSourceId: contact.contact_inbox!.source_id,
  });
  for (let i = 1; i < conversations; i++) conversation = await newConversation(t, account, { inboxId: inbox.id });
  const message = await newMessage(t, account, conversation.id);
  const team = await newTeam(t, account);
  const bot = (
    await api.post(`${account.path}/agent_bots`, { name: 'Bot', outgoing_url: 'https://bots.example.test/x' })
  ).body;
  const webhook = (
    await api.post(`${account.path}/webhooks`, {
      url: 'https://hooks.example.test/x',
      subscriptions: ['message_created'],
    })
  ).body;
  const rule = (await api.post(`${account.path}/automation_rules`, ruleBody())).body;
  const label = (await api.post(`${account.path}/labels`, { title: `seeded-${unique()}` })).body;
  await client(t.app, t.platformToken).patch(`${P}/accounts/${account.id}`, { plan: 'enterprise' });
  const slaPolicy = (
    await api.post(`${account.path}/sla_policies`, { name: 'Routes SLA', first_response_time_threshold: 3600 })
  ).body;
  const integrationHook = (
    await api.post(`${account.path}/integrations/hooks`, {
      app_id: 'openai',
      settings: { api_key: 'sk-routes', base_url: fakeAi.baseUrl },
    })
  ).body;
  const otherContact = await newContact(t, account, { name: 'Merged away' });
  const canned = (await api.post(`${account.path}/canned_responses`, { short_code: `c-${unique()}`, content: 'Hi' }))
    .body;
  const customFilter = (await api.post(`${account.path}/custom_filters`, customFilterBody())).body;
  const customAttribute = (await api.post(`${account.path}/custom_attribute_definitions`, customAttributeBody())).body;
  // As many campaigns as conversations: the outsider's last number names nothing in the owner's account.
  let campaign = { id: 0 };
  for (let i = 0; i < conversations; i++)
    campaign = (await api.post(`${account.path}/campaigns`, campaignBody(inbox.id))).body;
  const pipeline = await seedPipeline(account, contact.contact.id, member.id);
  const leadScoring = await seedLeadScoring(account, pipeline.card);
  const pipelineAutomation = (
    await api.post(`${account.path}/pipeline/automations`, {
      name: 'Routes automation',
      trigger: 'manual',
      actions: [{ type: 'add_note', content: 'Seeded' }],
    })
  ).body.data;
  await api.post(`${account.path}/pipeline/automations/${pipelineAutomation?.id}/execute`, { card_id: pipeline.card });
  const portal = (await api.post(`${account.path}/portals`, { name: 'Routes KB', slug: `routes-${unique()}` })).body;
  const category = (await api.post(`${account.path}/portals/${portal.id}/categories`, { name: 'Routes' })).body.payload;
  const article = (
    await api.post(`${account.path}/portals/${portal.id}/articles`, {
      title: 'Routes',
      content: 'x',
      category_id: category.id,
    })
  ).body.payload;
  const publicContact = await newPublicContact(t, inbox.inbox_identifier!);
  const publicConversation = await newPublicConversation(t, inbox.inbox_identifier!, publicContact.source_id);
  const publicMessage = await call(t.app, {
    method: 'POST',
    url: `${publicInboxPath(inbox.inbox_identifier!)}/contacts/${publicContact.source_id}/conversations/${publicConversation.id}/messages`,
    body: { content: 'From the visitor' },
  });
  const platformBot = (
    await client(t.app, t.platformToken).post(`${P}/agent_bots`, {
      name: 'G',
      outgoing_url: 'https://bots.example.test/g',
    })
  ).body;
  const webhookId = webhook.payload?.webhook?.id;
  const ruleId = rule.payload?.id ?? rule.id;
  for (const [id, res] of [
    [bot.id, bot],
    [webhookId, webhook],
    [ruleId, rule],
    [platformBot.id, platformBot],
    [label.id, label],
    [canned.id, canned],
    [customFilter.id, customFilter],
    [customAttribute.id, customAttribute],
    [campaign.id, campaign],
    [portal.id, portal],
    [category.id, category],
    [article.id, article],
    [integrationHook.id, integrationHook],
    [slaPolicy.id, slaPolicy],
    [pipelineAutomation?.id, pipelineAutomation],
  ]) {
    expect(id, JSON.stringify(res)).toEqual(expect.any(Number));
  }
  return {
    inbox: inbox.id,
    contact: contact.contact.id,
    conversation: conversation.id,
    message: message.id,
    team: team.id,
    agent: member.id,
    agentBot: bot.id,
    webhook: webhookId,
    automationRule: ruleId,
    platformAccount: account.id,
    platformUser: member.id,
    platformBot: platformBot.id,
    publicInbox: inbox.inbox_identifier!,
    publicContact: publicContact.source_id,
    publicConversation: publicConversation.id,
    publicMessage: publicMessage.body.id,
    label: label.id,
    otherContact: otherContact.contact.id,
    ...pipeline,
    cannedResponse: canned.id,
    customFilter: customFilter.id,
    customAttribute: customAttribute.id,
    campaign: campaign.id,
    portal: portal.id,
    category: category.id,
    article: article.id,
    integrationHook: integrationHook.id,
    slaPolicy: slaPolicy.id,
    ...leadScoring,
    pipelineAutomation: pipelineAutomation.id,
  };
}

/** A lead score rule, a log row (a custom event the rule scores) and a bulk recalculation. */
async function seedLeadScoring(account: TestAccount, cardId: number) {
  const api = client(t.app, account.admin.token);
  const rule = (await api.post(`${account.path}/lead_score_rules`, { event_type: 'custom_event', points: 5 })).body;
  await api.post(`${account.path}/lead_score/events`, { pipeline_card_id: cardId, event_subtype: 'seed' });
  const log = (await api.get(`${account.path}/lead_score/logs`)).body.data?.[0];
  const job = (await api.post(`${account.path}/lead_score/reports/bulk_recalculate`)).body.data;
  for (const [id, res] of [
    [rule?.id, rule],
    [log?.id, log],
    [job?.job_id, job],
  ])
    expect(id, JSON.stringify(res)).toEqual(expect.any(Number));
  return { leadScoreRule: rule.id as number, leadScoreLog: log.id as number, leadScoreJob: job.job_id as number };
}

beforeAll(async () => {
  // The openai app's endpoint: a local fake, allowed as the webhook tests allow loopback.
  fakeAi = await new FakeOpenAi().start();
  t = await buildChatTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  const doc = JSON.parse((await t.app.inject({ url: '/openapi.json' })).body) as {
    paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>;
  };
  operations = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (path === '/health') continue;
    for (const [method, op] of Object.entries(ops)) {
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase() as Method,
        path,
        bodySchema: op.requestBody?.content['application/json']?.schema,
      });
    }
  }
  owner = await newAccount(t, 'Owner');
  outsider = await newAccount(t, 'Outsider');
  agent = await newAgent(t, owner);
  mine = await seed(owner, 1);
  // The outsider has more conversations than the owner will ever have here, so its last
  // conversation's per-account number names nothing in the owner's account.
  theirs = await seed(outsider, 6);
  otherAppToken = `other-app-${unique()}-token`;
  await ensurePlatformApp(t.db, otherAppToken);
}, 120_000);

afterAll(async () => {
  await t.close();
  await fakeAi.stop();
});

async function dump(): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    const rows = await t.db.selectFrom(table).selectAll().execute();
    out[table] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

/** The path with each parameter filled from `ids` (the account is always the owner's). */
function urlOf(op: Operation, ids: Ids): string {
  const rule = ROUTES[op.key];
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === 'accountId') return String(owner.id);
    const resource = rule.params?.[name];
    return resource ? encodeURIComponent(String(ids[resource])) : 'x';
  });
  return rule.query ? `${path}?${rule.query.replace('{accountId}', String(owner.id))}` : path;
}

async function send(op: Operation, opts: { token?: string; ids?: Ids; body?: unknown; url?: string }): Promise<Reply> {
  const rule = ROUTES[op.key];
  const ids = opts.ids ?? mine;
  const body = 'body' in opts ? opts.body : rule.body?.(mine);
  return call(t.app, {
    method: op.method,
    url: opts.url ?? urlOf(op, ids),
    token: opts.token,
    ...(body !== undefined ? { body } : {}),
  });
}

/** A response body without its clock readings (`*_at`, `timestamp`), which two requests never share. */
function withoutTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimes);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !/(_at|_on|timestamp)$/.test(key))
      .map(([key, inner]) => [key, withoutTimes(inner)]),
  );
}

function expectRefusal(res: Reply, status: number, what: string) {
  expect(res.status, `${what}: ${res.text.slice(0, 300)}`).toBe(status);
  expect(res.body, what).toMatchObject({ error: expect.any(String), code: expect.stringMatching(/^[a-z_]+$/) });
  expect(res.body.error.length, what).toBeGreaterThan(0);
}

const tokenFor = (rule: RouteRule) =>
  rule.auth === 'platform'
    ? t.platformToken
    : rule.auth === 'account' || rule.auth === 'user'
      ? owner.admin.token
      : undefined;

/** The JSON types a schema allows (through `type` and `anyOf`); empty when it allows anything. */
function typesOf(schema: JsonSchema): Set<string> {
  const types = new Set<string>();
  const add = (type: string) => types.add(type === 'integer' ? 'number' : type);
  if (Array.isArray(schema.type)) schema.type.forEach(add);
  else if (schema.type) add(schema.type);
  for (const alternative of schema.anyOf ?? []) for (const type of typesOf(alternative)) types.add(type);
  return types;
}

/** A value of a JSON type the schema does not allow, or undefined when it allows every type. */
function wrongValue(schema: JsonSchema): unknown {
  const allowed = typesOf(schema);
  if (allowed.size === 0) return undefined;
  const candidates: [string, unknown][] = [
    ['boolean', true],
    ['number', 12345],
    ['string', 'text'],
    ['array', [1, 2]],
    ['object', { a: 1 }],
  ];
  return candidates.find(([type]) => !allowed.has(type))?.[1];
}

/** Fields no request may write, with values that would be noticed anywhere in the database. */
const SENTINEL_NUMBER = 987654321;
const SENTINEL_TIME = 1234567;
const SENTINEL_TEXT = 'sentinel-protected';
const protectedFields = () => ({
  id: SENTINEL_NUMBER,
  account_id: outsider.id,
  created_at: SENTINEL_TIME,
  updated_at: SENTINEL_TIME,
  display_id: SENTINEL_NUMBER,
  uuid: SENTINEL_TEXT,
  pubsub_token: SENTINEL_TEXT,
  access_token: SENTINEL_TEXT,
  token: SENTINEL_TEXT,
  secret: SENTINEL_TEXT,
  hmac_token: SENTINEL_TEXT,
  password_hash: SENTINEL_TEXT,
  last_conversation_display_id: SENTINEL_NUMBER,
  platform_app_id: SENTINEL_NUMBER,
  owner_type: SENTINEL_TEXT,
  owner_id: SENTINEL_NUMBER,
  bot_type: SENTINEL_TEXT,
});

describe('the conversation service routes', () => {
  it('are all listed here, and every listed route exists', () => {
    expect(operations.map((op) => op.key).sort()).toEqual(Object.keys(ROUTES).sort());
  });

  it('answer 401 without a token or with an unknown one, and change nothing', async () => {
    const before = await dump();
    const guarded = operations.filter((op) => ['account', 'user', 'platform'].includes(ROUTES[op.key].auth));
    expect(guarded.length).toBeGreaterThan(70);
    for (const op of guarded) {
      for (const token of [undefined, 'not-a-real-token-0123456789']) {
        expectRefusal(await send(op, { token }), 401, `${op.key} (${token ? 'unknown token' : 'no token'})`);
      }
    }
    // A user token is not a platform token, and a platform token is not a user token.
    for (const op of guarded) {
      const rule = ROUTES[op.key];
      const wrong = rule.auth === 'platform' ? owner.admin.token : t.platformToken;
      expectRefusal(await send(op, { token: wrong }), 401, `${op.key} (wrong kind of token)`);
    }
    expect(await dump()).toEqual(before);
  });

  it("answer 404 to another account's ids in paths and bodies, and to a member of another account, changing nothing", async () => {
    const before = await dump();
    let checked = 0;
    for (const op of operations) {
      const rule = ROUTES[op.key];
      if (rule.auth === 'account') {
        // Not a member of the path's account: the account does not exist for this token.
        expectRefusal(await send(op, { token: outsider.admin.token }), 404, `${op.key} (member of another account)`);
        checked++;
        if (rule.params) {
          expectRefusal(
            await send(op, { token: owner.admin.token, ids: theirs }),
            404,
            `${op.key} (another account's ids)`,
          );
          checked++;
        }
        for (const resource of rule.bodyIds ?? []) {
          const body = rule.body!({ ...mine, [resource]: theirs[resource] });
          expectRefusal(
            await send(op, { token: owner.admin.token, body }),
            404,
            `${op.key} (another account's ${resource} in the body)`,
          );
          checked++;
        }
      } else if (rule.auth === 'platform' && rule.params) {
        // Another platform app: what this app created does not exist for it.
        expectRefusal(await send(op, { token: otherAppToken }), 404, `${op.key} (another platform app)`);
        checked++;
      } else if (rule.auth === 'public' && rule.params?.contact_identifier) {
        // The outsider's inbox with the owner's contact, and the owner's inbox with the outsider's contact and conversation.
        const crossed: Ids[] = [
          { ...mine, publicInbox: theirs.publicInbox },
          { ...mine, publicContact: theirs.publicContact },
        ];
        if (rule.params.conversation_id) crossed.push({ ...mine, publicConversation: theirs.publicConversation });
        if (rule.params.message_id) crossed.push({ ...mine, publicMessage: theirs.publicMessage });
        for (const ids of crossed) {
          expectRefusal(await send(op, { ids }), 404, `${op.key} (another contact's identifiers)`);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(120);
    expect(await dump()).toEqual(before);
    // The owner's own ids answer (so the 404s above are about the account, not the ids).
    for (const path of [
      `inboxes/${mine.inbox}`,
      `contacts/${mine.contact}`,
      `conversations/${mine.conversation}`,
      `teams/${mine.team}`,
    ]) {
      expect((await client(t.app, owner.admin.token).get(`${owner.path}/${path}`)).status, path).toBe(200);
    }
  });

  it('answer PUT wherever they answer PATCH: the same change, the same refusals, one operation in the document', async () => {
    const patches = operations.filter((op) => op.method === 'PATCH');
    expect(patches.length).toBeGreaterThan(30);
    for (const patch of patches) {
      const put: Operation = { ...patch, method: 'PUT' };
      const rule = ROUTES[patch.key];
      // The document shows the PATCH alone (decisions/0028).
      expect(
        operations.some((op) => op.key === `PUT ${patch.path}`),
        patch.key,
      ).toBe(false);
      const token = tokenFor(rule);
      // PUT first, then PATCH with the same body: the PATCH finds the change made and answers the same.
      const body = rule.body?.(mine);
      const viaPut = await send(put, { token, body });
      const viaPatch = await send(patch, { token, body });
      expect(viaPut.status, `PUT for ${patch.key}: ${viaPut.text.slice(0, 200)}`).toBeLessThan(300);
      expect(viaPatch.status, patch.key).toBe(viaPut.status);
      expect(withoutTimes(viaPatch.body), patch.key).toEqual(withoutTimes(viaPut.body));
      if (rule.auth === 'account' || rule.auth === 'user' || rule.auth === 'platform')
        expectRefusal(await send(put, {}), 401, `PUT for ${patch.key} (no token)`);
      if (rule.auth === 'account' && rule.params)
        expectRefusal(await send(put, { token, ids: theirs }), 404, `PUT for ${patch.key} (another account's ids)`);
      if (rule.auth === 'account' && rule.admin)
        expectRefusal(await send(put, { token: agent.token }), 403, `PUT for ${patch.key} (an agent)`);
    }
  });

  it('answer 403 to an agent on administrator routes, and change nothing', async () => {
    const before = await dump();
    const adminRoutes = operations.filter((op) => ROUTES[op.key].admin);
    expect(adminRoutes.length).toBeGreaterThan(30);
    for (const op of adminRoutes) expectRefusal(await send(op, { token: agent.token }), 403, op.key);
    expect(await dump()).toEqual(before);
  });

  it('answer 422 to a body of the wrong types or not an object, and change nothing', async () => {
    const before = await dump();
    const routes = operations.filter(
      (op) => op.bodySchema?.properties && Object.keys(op.bodySchema.properties).length > 0,
    );
    expect(routes.length).toBeGreaterThan(45);
    for (const op of routes) {
      const rule = ROUTES[op.key];
      const wrongTypes: Record<string, unknown> = {};
      for (const [name, schema] of Object.entries(op.bodySchema!.properties!)) {
        const value = wrongValue(schema);
        if (value !== undefined) wrongTypes[name] = value;
      }
      expect(Object.keys(wrongTypes).length, op.key).toBeGreaterThan(0);
      const token = tokenFor(rule);
      for (const [label, body] of [
        ['wrong types', wrongTypes],
        ['a list', [1, 2]],
      ] as const) {
        expectRefusal(await send(op, { token, body }), 422, `${op.key} (${label})`);
      }
      if ((op.bodySchema!.required ?? []).length > 0)
        expectRefusal(await send(op, { token, body: {} }), 422, `${op.key} (empty)`);
    }
    expect(await dump()).toEqual(before);
  });

  it("never write a protected field from a body: ids, account, timestamps, tokens and secrets stay the server's", async () => {
    const started = Date.now();
    const outsiderRows = async () => {
      const rows: Record<string, unknown[]> = {};
      for (const table of TABLES) {
        const all = (await t.db.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
        rows[table] = all
          .filter((r) => r.account_id === outsider.id)
          .map((r) => JSON.stringify(r))
          .sort();
      }
      return rows;
    };
    const outsiderBefore = await outsiderRows();
    const writes = operations.filter((op) => ROUTES[op.key].body && op.method !== 'DELETE');
    expect(writes.length).toBeGreaterThan(40);
    let accepted = 0;
    for (const op of writes) {
      const rule = ROUTES[op.key];
      const res = await send(op, { token: tokenFor(rule), body: { ...protectedFields(), ...rule.body!(mine) } });
      expect(res.status, `${op.key}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
      if (res.status < 300) accepted++;
      // A wrapped body (Rails) lifts its fields, protected ones included: they must be dropped the same way.
      if (op.method !== 'GET') {
        const wrapped = await send(op, {
          token: tokenFor(rule),
          body: { ...rule.body!(mine), contact: protectedFields(), inbox: protectedFields() },
        });
        expect(wrapped.status, `${op.key} wrapped: ${wrapped.text.slice(0, 300)}`).toBeLessThan(500);
      }
    }
    // The valid bodies were taken (sign-in with a wrong password excepted), so the fields were really offered.
    expect(accepted).toBeGreaterThanOrEqual(writes.length - 1);
    // No sentinel anywhere, no timestamp from before the test, and the outsider's rows untouched.
    for (const table of TABLES) {
      const rows = (await t.db.selectFrom(table).selectAll().execute()) as Record<string, unknown>[];
      for (const row of rows) {
        for (const [column, value] of Object.entries(row)) {
          const where = `${table}.${column} = ${String(value).slice(0, 80)}`;
          expect(value === SENTINEL_NUMBER || value === SENTINEL_TIME || value === String(SENTINEL_NUMBER), where).toBe(
            false,
          );
          if (typeof value === 'string') expect(value.includes(SENTINEL_TEXT), where).toBe(false);
          if ((column === 'created_at' || column === 'updated_at') && typeof value === 'number')
            expect(value > started - 3_600_000, where).toBe(true);
        }
      }
    }
    expect(await outsiderRows()).toEqual(outsiderBefore);
  });
});
