import { forbidden, notFound } from '../../../core/http/errors.js';
import { parseJsonObject } from '../../../core/time.js';
import { assertStaff, eventOrigin, type AccountContext, type ChatDeps, type Trx } from '../../context.js';
import { emitChatEvent } from '../../events.js';
import type { Conversation } from '../../db/schema.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import { presentConversation, type ConversationMeta } from '../conversations/conversations.presenter.js';
import { conversationRefs, type ConversationsService } from '../conversations/conversations.service.js';
import { messageEventPayload, type MessageEventName } from './messages.events.js';
import type { MessageView } from './messages.presenter.js';
import type { MessageInput, MessageListQuery, MessageUpdateBody } from './messages.schema.js';
import type { MessagesService } from './messages.service.js';

export interface ConversationMessagesOptions {
  /**
   * Called after commit with the storage keys of attachment rows removed by a message deletion,
   * to remove the files. Failures are ignored: the rows are already gone.
   */
  onAttachmentsRemoved?: (storageKeys: string[]) => void | Promise<void>;
}

/**
 * The messages of a conversation as the API sees them: resolves the conversation (with its access
 * check), and keeps the conversation in step with its messages (activity, reopening) and the
 * outbox (message_created, message_updated) in the same transaction.
 */
export class ConversationMessagesService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly conversations: ConversationsService,
    private readonly messages: MessagesService,
    private readonly accounts: AccountsService,
    private readonly options: ConversationMessagesOptions = {},
  ) {}

  /**
   * A window of messages (see MessagesService.window) with the conversation for `meta`. A contact
   * (public interface) sees no private notes and no activities.
   */
  async list(
    ctx: AccountContext,
    displayId: number,
    query: MessageListQuery,
  ): Promise<{ meta: ConversationMeta; views: MessageView[] }> {
    const db = this.deps.db;
    const conversation = await this.conversations.get(ctx, displayId);
    const [meta, views] = await Promise.all([
      this.conversations.bundles.meta(db, conversation),
      this.messages.window(db, conversation, query, { contactVisible: ctx.role === 'contact' }),
    ]);
    return { meta, views };
  }

  async create(ctx: AccountContext, displayId: number, input: MessageInput): Promise<MessageView> {
    return this.deps.db.transaction().execute(async (trx) => {
      const conversation = await this.conversations.get(ctx, displayId, trx);
      return (await this.createInTransaction(trx, ctx, conversation, input)).view;
    });
  }

  /**
   * Creates a message in the caller's transaction: the row, its effect on the conversation (which
   * may record conversation_status_changed), then `message_created` with the updated conversation.
   */
  async createInTransaction(
    trx: Trx,
    ctx: AccountContext,
    conversation: Conversation,
    input: MessageInput,
  ): Promise<{ view: MessageView; conversation: Conversation }> {
    const view = await this.messages.insert(trx, ctx, conversation, input);
    const updated = await this.conversations.recordMessageActivity(trx, ctx, conversation, view.message);
    await this.emitMessageEvent(trx, 'message_created', view, updated, undefined, ctx);
    return { view, conversation: updated };
  }

  /** Soft delete; records `message_updated` with the changed content. Returns the message. */
  async softDelete(
    ctx: AccountContext,
    displayId: number,
    messageId: number,
  ): Promise<{ view: MessageView; removedStorageKeys: string[] }> {
    assertStaff(ctx);
    const result = await this.deps.db.transaction().execute(async (trx) => {
      const conversation = await this.conversations.get(ctx, displayId, trx);
      const deleted = await this.messages.softDelete(trx, conversation, messageId);
      if (deleted.changed) {
        const after = deleted.view.message;
        await this.emitMessageEvent(
          trx,
          'message_updated',
          deleted.view,
          conversation,
          [
            { content: { previous_value: deleted.before.content, current_value: after.content } },
            {
              content_attributes: {
                previous_value: parseJsonObject(deleted.before.content_attributes),
                current_value: parseJsonObject(after.content_attributes),
              },
            },
          ],
          ctx,
        );
      }
      return deleted;
    });
    if (result.removedStorageKeys.length > 0 && this.options.onAttachmentsRemoved) {
      try {
        await this.options.onAttachmentsRemoved(result.removedStorageKeys);
      } catch {
        // The rows are gone and the response stands; orphaned files are only wasted space.
      }
    }
    return { view: result.view, removedStorageKeys: result.removedStorageKeys };
  }

  /**
   * PATCH of a message by an agent or bot: its delivery status, in API inboxes only (403 elsewhere,
   * as in Chatwoot). Records `message_updated` with the changed status when it changes.
   */
  async updateStatus(
    ctx: AccountContext,
    displayId: number,
    messageId: number,
    input: MessageUpdateBody,
  ): Promise<MessageView> {
    assertStaff(ctx);
    return this.deps.db.transaction().execute(async (trx) => {
      const conversation = await this.conversations.get(ctx, displayId, trx);
      const inbox = await this.conversations.services.inboxes.get(ctx, conversation.inbox_id, trx);
      if (inbox.channel_type !== 'Channel::Api')
        throw forbidden('Message status update is only allowed for API inboxes');
      const result = await this.messages.updateStatus(trx, conversation, messageId, input);
      if (result.changed) {
        await this.emitMessageEvent(
          trx,
          'message_updated',
          result.view,
          conversation,
          [{ status: { previous_value: result.before.status, current_value: result.view.message.status } }],
          ctx,
        );
      }
      return result.view;
    });
  }

  /**
   * PATCH of a message by its contact (public interface): stores `submitted` (the answer to an
   * options or form message) and records `message_updated` when that changes the message; in any
   * case the contact has now read the conversation (contact_last_seen_at). One transaction.
   */
  async updateByContact(
    ctx: AccountContext,
    displayId: number,
    messageId: number,
    submitted: unknown,
  ): Promise<MessageView> {
    return this.deps.db.transaction().execute(async (trx) => {
      const conversation = await this.conversations.get(ctx, displayId, trx);
      const result = await this.messages.submitValues(trx, conversation, messageId, submitted);
      const seen = await this.conversations.markSeenByContact(trx, ctx, conversation);
      if (result.changed) {
        await this.emitMessageEvent(trx, 'message_updated', result.view, seen, [
          {
            content_attributes: {
              previous_value: parseJsonObject(result.before.content_attributes),
              current_value: parseJsonObject(result.view.message.content_attributes),
            },
          },
        ]);
      }
      return result.view;
    });
  }

  private async emitMessageEvent(
    trx: Trx,
    name: MessageEventName,
    view: MessageView,
    conversation: Conversation,
    changed?: Record<string, { previous_value: unknown; current_value: unknown }>[],
    ctx?: AccountContext,
  ): Promise<void> {
    const [account, bundle] = await Promise.all([
      this.accounts.find(trx, conversation.account_id),
      this.conversations.bundles.loadOne(trx, conversation),
    ]);
    if (!account) throw notFound('Account');
    const payload = messageEventPayload(
      name,
      view,
      {
        account: { id: account.id, name: account.name },
        inbox: bundle.inbox ?? { id: conversation.inbox_id, name: '' },
        conversation: presentConversation(bundle),
      },
      { changed_attributes: changed },
    );
    const sender = view.sender;
    await emitChatEvent(trx, {
      accountId: conversation.account_id,
      name,
      refs: {
        ...conversationRefs(conversation),
        messageId: view.message.id,
        messageType: view.message.message_type,
        private: view.message.private === 1,
        senderType: sender?.type ?? null,
        senderId: sender
          ? sender.type === 'contact'
            ? sender.contact.id
            : sender.type === 'user'
              ? sender.user.id
              : sender.bot.id
          : null,
      },
      snapshot: payload,
      origin: ctx ? eventOrigin(ctx) : null,
    });
  }
}
