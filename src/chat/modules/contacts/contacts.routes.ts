import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam, Nullable } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../routes.js';
import { presentContact } from './contacts.presenter.js';
import { ContactCreateBody, ContactInboxSchema, ContactSchema } from './contacts.schema.js';

const A = '/api/v1/accounts/:accountId';
const tags = ['contacts'];
const security = [{ userApiKey: [] }];
const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 409: ChatErrorBody, 422: ChatErrorBody };
const AccountParams = Type.Object({ accountId: IdParam });
const ContactParams = Type.Object({ accountId: IdParam, id: IdParam });

export const contactsRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.contacts;

  app.post(`${A}/contacts`, {
    config: { bodyKey: 'contact' },
    schema: {
      tags, security, summary: 'Create a contact (with inbox_id, also its contact inbox)',
      params: AccountParams, body: ContactCreateBody,
      response: {
        200: Type.Object({ payload: Type.Object({ contact: ContactSchema, contact_inbox: Nullable(ContactInboxSchema) }) }),
        ...errors,
      },
    },
  }, async (req) => {
    const ctx = ctxOf(req);
    const { contact } = await svc.create(ctx, req.body);
    const inboxes = (await svc.contactInboxesOf(ctx.accountId, [contact.id])).get(contact.id) ?? [];
    const presented = presentContact(contact, inboxes);
    return { payload: { contact: presented, contact_inbox: presented.contact_inboxes[0] ?? null } };
  });

  app.get(`${A}/contacts/:id`, {
    schema: { tags, security, summary: 'Show a contact', params: ContactParams, response: { 200: Type.Object({ payload: ContactSchema }), ...errors } },
  }, async (req) => {
    const ctx = ctxOf(req);
    const contact = await svc.get(ctx, req.params.id);
    const inboxes = (await svc.contactInboxesOf(ctx.accountId, [contact.id])).get(contact.id) ?? [];
    return { payload: presentContact(contact, inboxes) };
  });
};
