import { invalidField, notFound } from '../../../core/http/errors.js';
import type { AccountContext, ChatDeps } from '../../context.js';
import type { ContactInbox } from '../../db/schema.js';
import type { ContactsService } from '../contacts/contacts.service.js';
import type { InboxesService } from '../inboxes/inboxes.service.js';
import type { ConversationMessagesService } from '../messages/conversation-messages.service.js';
import type { ConversationBundle } from './conversations.presenter.js';
import type { ConversationCreateBody } from './conversations.schema.js';
import type { ConversationsService } from './conversations.service.js';

/**
 * POST {A}/conversations: a conversation with the contact of `source_id` in the inbox, and its
 * first message if one is given, in one transaction (conversation_created, then message_created).
 * A use case of its own because it needs both the conversations and the messages services.
 *
 * References in the body that do not resolve answer 404 (Chatwoot's `find_by!`): an inbox the
 * caller may not see, a contact of another account, a `source_id` unknown in that inbox. With
 * `contact_id`, the source id is attached to that contact (409 when another contact holds it);
 * without a source id, the contact's own in that inbox is used, or a new one (Chatwoot; the SDK and
 * Evolution API start conversations with contact_id and inbox_id only).
 */
export class StartConversation {
  constructor(
    private readonly deps: ChatDeps,
    private readonly services: {
      inboxes: InboxesService;
      contacts: ContactsService;
      conversations: ConversationsService;
      conversationMessages: ConversationMessagesService;
    },
  ) {}

  async start(ctx: AccountContext, body: ConversationCreateBody): Promise<ConversationBundle> {
    const { inboxes, contacts, conversations, conversationMessages } = this.services;
    return this.deps.db.transaction().execute(async (trx) => {
      const inbox = await inboxes.get(ctx, body.inbox_id, trx);
      let contactInbox: ContactInbox | undefined;
      if (body.contact_id !== undefined) {
        const contact = await contacts.get(ctx, body.contact_id, trx);
        contactInbox = await contacts.ensureContactInbox(trx, ctx.accountId, contact.id, inbox.id, body.source_id);
      } else {
        if (body.source_id === undefined) throw invalidField('source_id', "can't be blank without contact_id");
        contactInbox = await contacts.findContactInbox(trx, ctx.accountId, inbox.id, body.source_id);
        if (!contactInbox) throw notFound('Contact inbox');
      }
      let conversation = await conversations.createInTransaction(trx, ctx, {
        inboxId: inbox.id,
        contactId: contactInbox.contact_id,
        contactInboxId: contactInbox.id,
        status: body.status,
        assigneeId: body.assignee_id,
        teamId: body.team_id,
        additionalAttributes: body.additional_attributes,
        customAttributes: body.custom_attributes,
      });
      if (body.message) {
        const created = await conversationMessages.createInTransaction(trx, ctx, conversation, {
          content: body.message.content,
          content_type: body.message.content_type,
          message_type: 'outgoing',
        });
        conversation = created.conversation;
      }
      return conversations.bundles.loadOne(trx, conversation);
    });
  }
}
