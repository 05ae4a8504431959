import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam, JsonObject } from '../../../core/http/schemas.js';
import { toUnix } from '../../../core/time.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentAgent } from '../agents/agents.presenter.js';
import { presentTeam } from '../teams/teams.presenter.js';
import { TeamSchema } from '../teams/teams.schema.js';
import { presentConversation, presentConversationPage, presentCounts } from './conversations.presenter.js';
import {
  AssigneeSchema,
  AssignmentBody,
  ConversationCreateBody,
  ConversationListQuery,
  ConversationMetaQuery,
  ConversationPageSchema,
  ConversationSchema,
  ConversationUpdateBody,
  CountsSchema,
  CustomAttributesBody,
  FilterBody,
  FilterQuery,
  LabelsBody,
  LabelsResponse,
  TogglePriorityBody,
  ToggleStatusBody,
  ToggleStatusResponse,
} from './conversations.schema.js';

const A = '/api/v1/accounts/:accountId';
const tags = ['conversations'];
const security = [{ userApiKey: [] }];
const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };
const AccountParams = Type.Object({ accountId: IdParam });
const ConversationParams = Type.Object({ accountId: IdParam, id: IdParam });
const ContactParams = Type.Object({ accountId: IdParam, id: IdParam });

export const conversationsRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.conversations;
  const changes = services.conversationChanges;

  app.get(
    `${A}/conversations`,
    {
      schema: {
        tags,
        security,
        summary: 'List conversations (25 per page, latest activity first); counts ignore assignee_type',
        params: AccountParams,
        querystring: ConversationListQuery,
        response: { 200: Type.Object({ data: ConversationPageSchema }), ...errors },
      },
    },
    async (req) => ({ data: presentConversationPage(await svc.list(ctxOf(req), req.query)) }),
  );

  app.get(
    `${A}/conversations/meta`,
    {
      schema: {
        tags,
        security,
        summary: 'Conversation counts by assignee for the same filters as the list',
        params: AccountParams,
        querystring: ConversationMetaQuery,
        response: { 200: Type.Object({ meta: CountsSchema }), ...errors },
      },
    },
    async (req) => ({ meta: presentCounts(await svc.meta(ctxOf(req), req.query)) }),
  );

  app.post(
    `${A}/conversations`,
    {
      config: { bodyKey: 'conversation' },
      schema: {
        tags,
        security,
        summary: 'Create a conversation for the contact of source_id in the inbox, optionally with a first message',
        params: AccountParams,
        body: ConversationCreateBody,
        response: { 200: ConversationSchema, 409: ChatErrorBody, ...errors },
      },
    },
    async (req) => presentConversation(await services.startConversation.start(ctxOf(req), req.body)),
  );

  app.post(
    `${A}/conversations/filter`,
    {
      schema: {
        tags,
        security,
        summary: 'Filter conversations by criteria (attribute_key, filter_operator, values, query_operator)',
        params: AccountParams,
        querystring: FilterQuery,
        body: FilterBody,
        response: { 200: ConversationPageSchema, ...errors },
      },
    },
    async (req) => presentConversationPage(await svc.filter(ctxOf(req), req.body.payload, req.query.page)),
  );

  app.get(
    `${A}/conversations/:id`,
    {
      schema: {
        tags,
        security,
        summary: 'Show a conversation',
        params: ConversationParams,
        response: { 200: ConversationSchema, ...errors },
      },
    },
    async (req) => presentConversation(await svc.show(ctxOf(req), req.params.id)),
  );

  app.patch(
    `${A}/conversations/:id`,
    {
      config: { bodyKey: 'conversation' },
      schema: {
        tags,
        security,
        summary: 'Update assignee, team, status, priority or attributes (attributes merge)',
        params: ConversationParams,
        body: ConversationUpdateBody,
        response: { 200: ConversationSchema, ...errors },
      },
    },
    async (req) => presentConversation(await changes.update(ctxOf(req), req.params.id, req.body)),
  );

  app.post(
    `${A}/conversations/:id/toggle_status`,
    {
      config: { allowBot: true },
      schema: {
        tags,
        security,
        summary: 'Set the status (without one: open <-> resolved); snoozed_until (UNIX seconds) with snoozed',
        params: ConversationParams,
        body: ToggleStatusBody,
        response: { 200: ToggleStatusResponse, ...errors },
      },
    },
    async (req) => {
      const c = await changes.toggleStatus(ctxOf(req), req.params.id, req.body);
      return {
        meta: {},
        payload: {
          success: true,
          conversation_id: c.display_id,
          current_status: c.status,
          snoozed_until: toUnix(c.snoozed_until),
        },
      };
    },
  );

  app.post(
    `${A}/conversations/:id/toggle_priority`,
    {
      config: { allowBot: true },
      schema: {
        tags,
        security,
        summary: 'Set the priority (none, low, medium, high, urgent)',
        params: ConversationParams,
        body: TogglePriorityBody,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await changes.togglePriority(ctxOf(req), req.params.id, req.body.priority);
      return {};
    },
  );

  app.post(
    `${A}/conversations/:id/update_last_seen`,
    {
      schema: {
        tags,
        security,
        summary: 'Mark the conversation as read by the calling agent (resets unread_count)',
        params: ConversationParams,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await changes.markSeen(ctxOf(req), req.params.id);
      return {};
    },
  );

  app.get(
    `${A}/conversations/:id/labels`,
    {
      schema: {
        tags,
        security,
        summary: 'Labels of a conversation',
        params: ConversationParams,
        response: { 200: LabelsResponse, ...errors },
      },
    },
    async (req) => ({ payload: await changes.labels(ctxOf(req), req.params.id) }),
  );

  app.post(
    `${A}/conversations/:id/labels`,
    {
      schema: {
        tags,
        security,
        summary: 'Replace all labels of a conversation',
        params: ConversationParams,
        body: LabelsBody,
        response: { 200: LabelsResponse, ...errors },
      },
    },
    async (req) => ({ payload: await changes.replaceLabels(ctxOf(req), req.params.id, req.body.labels) }),
  );

  app.post(
    `${A}/conversations/:id/custom_attributes`,
    {
      config: { bodyKey: 'conversation' },
      schema: {
        tags,
        security,
        summary: "Replace the conversation's custom attributes (PATCH merges them instead)",
        params: ConversationParams,
        body: CustomAttributesBody,
        response: { 200: Type.Object({ custom_attributes: JsonObject }), ...errors },
      },
    },
    async (req) => ({
      custom_attributes: await changes.replaceCustomAttributes(ctxOf(req), req.params.id, req.body.custom_attributes),
    }),
  );

  app.get(
    `${A}/contacts/:id/conversations`,
    {
      schema: {
        tags,
        security,
        summary: "The contact's latest 20 conversations in the inboxes the caller sees, newest first",
        params: ContactParams,
        response: { 200: Type.Object({ payload: Type.Array(ConversationSchema) }), ...errors },
      },
    },
    async (req) => ({ payload: (await svc.listForContact(ctxOf(req), req.params.id)).map(presentConversation) }),
  );

  app.post(
    `${A}/conversations/:id/assignments`,
    {
      config: { allowBot: true },
      schema: {
        tags,
        security,
        summary: 'Assign an agent (assignee_id, null unassigns) or else a team (team_id); returns it, or null',
        params: ConversationParams,
        body: AssignmentBody,
        response: { 200: Type.Union([AssigneeSchema, TeamSchema, Type.Null()]), ...errors },
      },
    },
    async (req) => {
      const result = await changes.assign(ctxOf(req), req.params.id, req.body);
      if (result.type === 'agent') return presentAgent(result.agent);
      if (result.type === 'team') return presentTeam(result.team.team, result.team.isMember);
      return null;
    },
  );
};
