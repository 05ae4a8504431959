import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam, JsonObject, Nullable } from '../../../core/http/schemas.js';
import { discardOnFailure, jsonOrMultipartBody, readJsonOrMultipart } from '../../../core/http/multipart.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { AssigneeSchema, ContactSummarySchema } from '../conversations/conversations.schema.js';
import { presentMessagePage } from './conversation-messages.presenter.js';
import { presentMessage } from './messages.presenter.js';
import { MessageCreateBody, MessageListQuery, MessageSchema, MessageUpdateBody } from './messages.schema.js';

const A = '/api/v1/accounts/:accountId';
const tags = ['messages'];
const security = [{ userApiKey: [] }];
const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };
const ConversationParams = Type.Object({ accountId: IdParam, id: IdParam });
const MessageParams = Type.Object({ accountId: IdParam, id: IdParam, message_id: IdParam });

const MessagePageSchema = Type.Object({
  meta: Type.Object({
    labels: Type.Array(Type.String()),
    additional_attributes: JsonObject,
    contact: Nullable(ContactSummarySchema),
    assignee: Nullable(AssigneeSchema),
    agent_last_seen_at: Nullable(Type.String()),
    assignee_last_seen_at: Nullable(Type.String()),
  }),
  payload: Type.Array(MessageSchema),
});

export const messagesRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.conversationMessages;

  app.get(
    `${A}/conversations/:id/messages`,
    {
      schema: {
        tags,
        security,
        summary:
          'Messages of a conversation: the latest 20 (oldest first), 20 before `before`, or up to 100 after `after`',
        params: ConversationParams,
        querystring: MessageListQuery,
        response: { 200: MessagePageSchema, ...errors },
      },
    },
    async (req) => {
      const { meta, views } = await svc.list(ctxOf(req), req.params.id, req.query);
      return presentMessagePage(meta, views);
    },
  );

  app.post(
    `${A}/conversations/:id/messages`,
    {
      config: { allowBot: true, bodyKey: 'message', multipart: true },
      schema: {
        tags,
        security,
        summary:
          'Create a message (outgoing by default; private notes with private: true); JSON, or multipart/form-data with files',
        params: ConversationParams,
        body: jsonOrMultipartBody(MessageCreateBody),
        response: { 200: MessageSchema, ...errors, 413: ChatErrorBody },
      },
    },
    async (req) => {
      const ctx = ctxOf(req);
      // Resolve the conversation (and the caller's access to it) before accepting any upload.
      await services.conversations.get(ctx, req.params.id);
      const store = services.fileStore;
      const { body, files } = await readJsonOrMultipart(req, store, MessageCreateBody);
      return discardOnFailure(store, files, async () =>
        presentMessage(await svc.create(ctx, req.params.id, { ...body, files })),
      );
    },
  );

  app.patch(
    `${A}/conversations/:id/messages/:message_id`,
    {
      // Multipart too, without files: the Chatwoot SDK sends its message update as a form.
      config: { allowBot: true, bodyKey: 'message', multipart: true },
      schema: {
        tags,
        security,
        summary:
          "Update a message's delivery status (sent, delivered, read, failed with external_error); API inboxes only; JSON or multipart/form-data fields",
        params: MessageParams,
        body: jsonOrMultipartBody(MessageUpdateBody),
        response: { 200: MessageSchema, ...errors },
      },
    },
    async (req) => {
      const { body } = await readJsonOrMultipart(req, services.fileStore, MessageUpdateBody, { maxFiles: 0 });
      return presentMessage(await svc.updateStatus(ctxOf(req), req.params.id, req.params.message_id, body));
    },
  );

  app.delete(
    `${A}/conversations/:id/messages/:message_id`,
    {
      schema: {
        tags,
        security,
        summary: 'Delete a message (soft: the content is replaced, attachments removed)',
        params: MessageParams,
        response: { 200: MessageSchema, ...errors },
      },
    },
    async (req) => presentMessage((await svc.softDelete(ctxOf(req), req.params.id, req.params.message_id)).view),
  );
};
