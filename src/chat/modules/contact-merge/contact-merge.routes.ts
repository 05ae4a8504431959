import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentContact } from '../contacts/contacts.presenter.js';
import { ContactSchema } from '../contacts/contacts.schema.js';
import { ContactMergeBody } from './contact-merge.schema.js';

const A = '/api/v1/accounts/:accountId';

export const contactMergeRoutes: ChatRoutes = async (app, { services }) => {
  app.post(
    `${A}/actions/contact_merge`,
    {
      schema: {
        tags: ['contacts'],
        security: [{ userApiKey: [] }],
        summary:
          'Merge the mergee contact into the base contact (conversations, contact inboxes, labels, blank attributes); the mergee is deleted',
        params: Type.Object({ accountId: IdParam }),
        body: ContactMergeBody,
        response: {
          200: ContactSchema,
          401: ChatErrorBody,
          403: ChatErrorBody,
          404: ChatErrorBody,
          409: ChatErrorBody,
          422: ChatErrorBody,
        },
      },
    },
    async (req) => {
      const ctx = ctxOf(req);
      const contact = await services.contactMerge.merge(ctx, req.body);
      const inboxes = (await services.contacts.contactInboxesOf(ctx.accountId, [contact.id])).get(contact.id) ?? [];
      return presentContact(contact, inboxes);
    },
  );
};
