import { Type } from '@sinclair/typebox';
import { ChatErrorBody } from '../../core/http/schemas.js';
import type { ChatRoutes } from '../module.types.js';
import {
  presentPublicContact,
  presentPublicConversation,
  presentPublicInbox,
  presentPublicMessage,
} from './public.presenter.js';
import type { PublicConversationView } from './public.service.js';
import {
  ContactParams,
  ConversationParams,
  InboxParams,
  MessageParams,
  PublicContactBody,
  PublicContactSchema,
  PublicConversationBody,
  PublicConversationListQuery,
  PublicConversationSchema,
  PublicEventBody,
  PublicInboxSchema,
  PublicMessageBody,
  PublicMessageListQuery,
  PublicMessageSchema,
  PublicMessageUpdateBody,
} from './public.schema.js';

const P = '/public/api/v1/inboxes/:inbox_identifier';
const C = `${P}/contacts/:contact_identifier`;
const V = `${C}/conversations/:conversation_id`;
const tags = ['public'];
/** No credential: the identifiers in the path are the address and the secret. */
const config = { auth: 'none' as const };
const security: Record<string, string[]>[] = [];
const errors = { 404: ChatErrorBody, 422: ChatErrorBody };

const conversation = (v: PublicConversationView) => presentPublicConversation(v.conversation, v.contact, v.messages);

/** The public interface for chat widgets and third parties (Chatwoot's /public/api/v1). */
export const publicRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.publicApi;

  app.get(
    P,
    {
      config,
      schema: {
        tags,
        security,
        summary: 'The inbox: name, time zone, greeting, whether identity validation is required',
        params: InboxParams,
        response: { 200: PublicInboxSchema, ...errors },
      },
    },
    async (req) => presentPublicInbox(await svc.inbox(req.params.inbox_identifier)),
  );

  app.post(
    `${P}/contacts`,
    {
      config: { ...config, bodyKey: 'contact' },
      schema: {
        tags,
        security,
        summary:
          'Create a contact in the inbox (or attach the contact with this identifier or e-mail); returns its source_id and pubsub_token',
        params: InboxParams,
        body: PublicContactBody,
        response: { 200: PublicContactSchema, 409: ChatErrorBody, ...errors },
      },
    },
    async (req) => {
      const { contact, contactInbox } = await svc.createContact(req.params.inbox_identifier, req.body);
      return presentPublicContact(contact, contactInbox);
    },
  );

  app.get(
    C,
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Show the contact',
        params: ContactParams,
        response: { 200: PublicContactSchema, ...errors },
      },
    },
    async (req) => {
      const { contact, contactInbox } = await svc.getContact(
        req.params.inbox_identifier,
        req.params.contact_identifier,
      );
      return presentPublicContact(contact, contactInbox);
    },
  );

  app.patch(
    C,
    {
      config: { ...config, bodyKey: 'contact' },
      schema: {
        tags,
        security,
        summary: 'Update the contact (custom_attributes merge)',
        params: ContactParams,
        body: PublicContactBody,
        response: { 200: PublicContactSchema, 409: ChatErrorBody, ...errors },
      },
    },
    async (req) => {
      const { contact, contactInbox } = await svc.updateContact(
        req.params.inbox_identifier,
        req.params.contact_identifier,
        req.body,
      );
      return presentPublicContact(contact, contactInbox);
    },
  );

  app.post(
    `${C}/conversations`,
    {
      config: { ...config, bodyKey: 'conversation' },
      schema: {
        tags,
        security,
        summary: 'Start a conversation',
        params: ContactParams,
        body: PublicConversationBody,
        response: { 200: PublicConversationSchema, ...errors },
      },
    },
    async (req) =>
      conversation(
        await svc.startConversation(
          req.params.inbox_identifier,
          req.params.contact_identifier,
          req.body.custom_attributes,
        ),
      ),
  );

  app.get(
    `${C}/conversations`,
    {
      config,
      schema: {
        tags,
        security,
        summary: "The contact's conversations in this inbox, newest first, 25 per page, each with its last message",
        params: ContactParams,
        querystring: PublicConversationListQuery,
        response: { 200: Type.Array(PublicConversationSchema), ...errors },
      },
    },
    async (req) =>
      (await svc.listConversations(req.params.inbox_identifier, req.params.contact_identifier, req.query.page)).map(
        conversation,
      ),
  );

  app.get(
    V,
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Show a conversation',
        params: ConversationParams,
        response: { 200: PublicConversationSchema, ...errors },
      },
    },
    async (req) =>
      conversation(
        await svc.getConversation(
          req.params.inbox_identifier,
          req.params.contact_identifier,
          req.params.conversation_id,
        ),
      ),
  );

  app.post(
    `${V}/toggle_status`,
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Resolve the conversation (the contact ends the chat)',
        params: ConversationParams,
        response: { 200: PublicConversationSchema, ...errors },
      },
    },
    async (req) =>
      conversation(
        await svc.resolveConversation(
          req.params.inbox_identifier,
          req.params.contact_identifier,
          req.params.conversation_id,
        ),
      ),
  );

  app.post(
    `${V}/update_last_seen`,
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Mark the conversation read by the contact (contact_last_seen_at)',
        params: ConversationParams,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await svc.markSeen(req.params.inbox_identifier, req.params.contact_identifier, req.params.conversation_id);
      return {};
    },
  );

  app.get(
    `${V}/messages`,
    {
      config,
      schema: {
        tags,
        security,
        summary:
          'Messages the contact sees (no private notes): the latest 20, oldest first; 20 before `before`; 100 after `after`',
        params: ConversationParams,
        querystring: PublicMessageListQuery,
        response: { 200: Type.Array(PublicMessageSchema), ...errors },
      },
    },
    async (req) =>
      (
        await svc.listMessages(
          req.params.inbox_identifier,
          req.params.contact_identifier,
          req.params.conversation_id,
          req.query,
        )
      ).map(presentPublicMessage),
  );

  app.post(
    `${V}/messages`,
    {
      config: { ...config, bodyKey: 'message' },
      schema: {
        tags,
        security,
        summary: 'Send a message as the contact (incoming); echo_id comes back as sent',
        params: ConversationParams,
        body: PublicMessageBody,
        response: { 200: PublicMessageSchema, ...errors },
      },
    },
    async (req) =>
      presentPublicMessage(
        await svc.createMessage(
          req.params.inbox_identifier,
          req.params.contact_identifier,
          req.params.conversation_id,
          req.body,
        ),
      ),
  );

  app.patch(
    `${V}/messages/:message_id`,
    {
      config: { ...config, bodyKey: 'message' },
      schema: {
        tags,
        security,
        summary: 'Answer an options or form message (submitted_values); marks the conversation read',
        params: MessageParams,
        body: PublicMessageUpdateBody,
        response: { 200: PublicMessageSchema, ...errors },
      },
    },
    async (req) => {
      const p = req.params;
      const view = await svc.updateMessage(
        p.inbox_identifier,
        p.contact_identifier,
        p.conversation_id,
        p.message_id,
        req.body?.submitted_values,
      );
      return presentPublicMessage(view);
    },
  );

  app.post(
    `${C}/events`,
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Widget event: webwidget.triggered records webwidget_triggered',
        params: ContactParams,
        body: PublicEventBody,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await svc.trigger(req.params.inbox_identifier, req.params.contact_identifier, req.body);
      return {};
    },
  );
};
