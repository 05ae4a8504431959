import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam, Nullable } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentContact, presentContactInboxOf, presentContactPage } from './contacts.presenter.js';
import { presentInbox } from '../inboxes/inboxes.presenter.js';
import { InboxSchema } from '../inboxes/inboxes.schema.js';
import { isAdmin } from '../../context.js';
import {
  ContactCreateBody,
  ContactFilterBody,
  ContactFilterQuery,
  ContactInboxCreateBody,
  ContactInboxSchema,
  ContactLabelsBody,
  ContactListQuery,
  ContactPage,
  ContactSchema,
  ContactSearchQuery,
  ContactUpdateBody,
  LabelsResponse,
} from './contacts.schema.js';

const A = '/api/v1/accounts/:accountId';
const tags = ['contacts'];
const security = [{ userApiKey: [] }];
const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 409: ChatErrorBody, 422: ChatErrorBody };
const AccountParams = Type.Object({ accountId: IdParam });
const ContactParams = Type.Object({ accountId: IdParam, id: IdParam });
const ContactResponse = Type.Object({ payload: ContactSchema });

export const contactsRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.contacts;
  const labels = services.contactLabels;

  app.get(
    `${A}/contacts`,
    {
      schema: {
        tags,
        security,
        summary: 'List contacts, 15 per page (optionally only those with any of `labels`)',
        params: AccountParams,
        querystring: ContactListQuery,
        response: { 200: ContactPage, ...errors },
      },
    },
    async (req) => presentContactPage(await svc.list(ctxOf(req), req.query)),
  );

  app.get(
    `${A}/contacts/search`,
    {
      schema: {
        tags,
        security,
        summary: 'Search contacts by name, email, phone number or identifier, 15 per page',
        params: AccountParams,
        querystring: ContactSearchQuery,
        response: { 200: ContactPage, ...errors },
      },
    },
    async (req) => presentContactPage(await svc.search(ctxOf(req), req.query)),
  );

  app.post(
    `${A}/contacts/filter`,
    {
      schema: {
        tags,
        security,
        summary:
          'Filter contacts by criteria (attribute_key, filter_operator, values, query_operator), 15 per page: name, email, phone_number, identifier, country_code, city, company, labels, created_at, last_activity_at, blocked',
        params: AccountParams,
        querystring: ContactFilterQuery,
        body: ContactFilterBody,
        response: { 200: ContactPage, ...errors },
      },
    },
    async (req) => presentContactPage(await svc.filter(ctxOf(req), req.body.payload, req.query.page ?? 1)),
  );

  app.get(
    `${A}/contacts/:id/contactable_inboxes`,
    {
      schema: {
        tags,
        security,
        summary:
          'The inboxes (the caller sees) where a conversation with the contact can start, with the source_id to use',
        params: ContactParams,
        response: {
          200: Type.Object({ payload: Type.Array(Type.Object({ source_id: Type.String(), inbox: InboxSchema })) }),
          ...errors,
        },
      },
    },
    async (req) => {
      const ctx = ctxOf(req);
      const found = await svc.contactableInboxes(ctx, req.params.id);
      return { payload: found.map((c) => ({ source_id: c.sourceId, inbox: presentInbox(c.inbox, isAdmin(ctx)) })) };
    },
  );

  app.post(
    `${A}/contacts`,
    {
      config: { bodyKey: 'contact' },
      schema: {
        tags,
        security,
        summary: 'Create a contact (with inbox_id, also its contact inbox)',
        params: AccountParams,
        body: ContactCreateBody,
        response: {
          200: Type.Object({
            payload: Type.Object({ contact: ContactSchema, contact_inbox: Nullable(ContactInboxSchema) }),
          }),
          ...errors,
        },
      },
    },
    async (req) => {
      const ctx = ctxOf(req);
      const { contact } = await svc.create(ctx, req.body);
      const inboxes = (await svc.contactInboxesOf(ctx.accountId, [contact.id])).get(contact.id) ?? [];
      const presented = presentContact(contact, inboxes);
      return { payload: { contact: presented, contact_inbox: presented.contact_inboxes[0] ?? null } };
    },
  );

  app.get(
    `${A}/contacts/:id`,
    {
      schema: {
        tags,
        security,
        summary: 'Show a contact',
        params: ContactParams,
        response: { 200: ContactResponse, ...errors },
      },
    },
    async (req) => {
      const ctx = ctxOf(req);
      const contact = await svc.get(ctx, req.params.id);
      const inboxes = (await svc.contactInboxesOf(ctx.accountId, [contact.id])).get(contact.id) ?? [];
      return { payload: presentContact(contact, inboxes) };
    },
  );

  // PUT answers too (Chatwoot documents PUT): core/http/put-aliases.ts.
  app.patch(
    `${A}/contacts/:id`,
    {
      config: { bodyKey: 'contact' },
      schema: {
        tags,
        security,
        summary: 'Update a contact (custom and additional attributes merge into the stored ones)',
        params: ContactParams,
        body: ContactUpdateBody,
        response: { 200: ContactResponse, ...errors },
      },
    },
    async (req) => {
      const { contact, contactInboxes } = await svc.update(ctxOf(req), req.params.id, req.body);
      return { payload: presentContact(contact, contactInboxes) };
    },
  );

  app.delete(
    `${A}/contacts/:id`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'Delete a contact with its conversations and messages (administrators)',
        params: ContactParams,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await svc.delete(ctxOf(req), req.params.id);
      return {};
    },
  );

  app.get(
    `${A}/contacts/:id/labels`,
    {
      schema: {
        tags,
        security,
        summary: "List a contact's labels",
        params: ContactParams,
        response: { 200: LabelsResponse, ...errors },
      },
    },
    async (req) => ({ payload: await labels.list(ctxOf(req), req.params.id) }),
  );

  app.post(
    `${A}/contacts/:id/labels`,
    {
      schema: {
        tags,
        security,
        summary: "Replace all of a contact's labels (trimmed, lower-cased)",
        params: ContactParams,
        body: ContactLabelsBody,
        response: { 200: LabelsResponse, ...errors },
      },
    },
    async (req) => ({ payload: await labels.replace(ctxOf(req), req.params.id, req.body.labels) }),
  );

  app.post(
    `${A}/contacts/:id/contact_inboxes`,
    {
      schema: {
        tags,
        security,
        summary: 'Add the contact to an inbox (returns the existing contact inbox when there is one)',
        params: ContactParams,
        body: ContactInboxCreateBody,
        response: { 200: ContactInboxSchema, ...errors },
      },
    },
    async (req) => {
      const { contactInbox, inbox } = await svc.addToInbox(ctxOf(req), req.params.id, req.body);
      return presentContactInboxOf(contactInbox, inbox);
    },
  );
};
