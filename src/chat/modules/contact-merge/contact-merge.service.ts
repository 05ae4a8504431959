import { invalidField } from '../../../core/http/errors.js';
import { assertStaff, type AccountContext, type ChatDeps } from '../../context.js';
import type { Contact } from '../../db/schema.js';
import type { ContactsService } from '../contacts/contacts.service.js';
import type { ConversationsService } from '../conversations/conversations.service.js';
import type { MessagesService } from '../messages/messages.service.js';
import type { ContactMergeBody } from './contact-merge.schema.js';

export interface ContactMergeServices {
  contacts: ContactsService;
  conversations: ConversationsService;
  messages: MessagesService;
}

/**
 * POST {A}/actions/contact_merge (Chatwoot's contact merge): the mergee's conversations (and the
 * messages it sent in them), contact inboxes, labels and attributes move into the base contact,
 * then the mergee is deleted; all in one transaction, so a failure leaves both contacts as they were.
 */
export class ContactMergeService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly services: ContactMergeServices,
  ) {}

  async merge(ctx: AccountContext, body: ContactMergeBody): Promise<Contact> {
    assertStaff(ctx);
    if (body.base_contact_id === body.mergee_contact_id)
      throw invalidField('mergee_contact_id', 'must be another contact than base_contact_id');
    const { contacts, conversations, messages } = this.services;
    return this.deps.db.transaction().execute(async (trx) => {
      const base = await contacts.get(ctx, body.base_contact_id, trx);
      const mergee = await contacts.get(ctx, body.mergee_contact_id, trx);
      const moved = await conversations.reassignContact(trx, ctx.accountId, mergee.id, base.id);
      await messages.reassignContactSender(trx, ctx.accountId, moved, mergee.id, base.id);
      return contacts.absorb(trx, ctx, base, mergee);
    });
  }
}
