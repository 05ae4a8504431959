import { forbidden, invalidField, notFound } from '../../../core/http/errors.js';
import { parseJsonObject } from '../../../core/time.js';
import type { AccountContext, ChatDeps, Q } from '../../context.js';
import type { Conversation, Message, SenderType } from '../../db/schema.js';
import type { AttachmentFilesService } from '../attachments-files/attachments-files.service.js';
import { presentAttachment } from './attachments.presenter.js';
import type { MessageAttachment, MessageSender, MessageView } from './messages.presenter.js';
import * as repo from './messages.repository.js';
import {
  MAX_CONTENT_ATTRIBUTES_CHARS,
  MESSAGE_TYPE_CODES,
  type MessageInput,
  type MessageListQuery,
  type MessageStatus,
} from './messages.schema.js';
import { t } from '../../../core/i18n/catalogue.js';

export const DELETED_MESSAGE_CONTENT = 'This message was deleted';
/** Content types a contact answers with `submitted_values` (options, forms, inputs, CSAT). */
const SUBMITTABLE_CONTENT_TYPES = new Set([
  'input_text',
  'input_textarea',
  'input_email',
  'input_select',
  'cards',
  'form',
  'input_csat',
]);
const LATEST_PAGE = 20;
const AFTER_PAGE = 100;

/** The message side of a conversation, as its list entry shows it. */
export interface ConversationMessageStats {
  last: MessageView | null;
  lastNonActivity: MessageView | null;
  unreadCount: number;
}

export interface SoftDeleteResult {
  before: Message;
  view: MessageView;
  /** False when the message was already deleted (nothing was written). */
  changed: boolean;
  /** Storage keys of the attachment rows removed with the message, for file removal after commit. */
  removedStorageKeys: string[];
}

/**
 * Messages as records: validation, insertion, windows of a conversation, soft deletion, and the
 * loading of what their responses show (senders, attachments) for a whole page at once. It takes
 * conversation rows that its callers have already resolved and checked access to; the effects of
 * a message on its conversation belong to ConversationMessagesService.
 */
export class MessagesService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly attachmentFiles: AttachmentFilesService,
  ) {}

  /** The attachment objects of a page of messages, in one query (on the caller's executor). */
  async attachmentsFor(q: Q, accountId: number, messageIds: number[]): Promise<MessageAttachment[]> {
    const rows = await this.attachmentFiles.rowsOfMessages(q, accountId, messageIds);
    return rows.map((row) => presentAttachment(row, this.deps.config.chat.publicUrl));
  }

  /** Views of messages (all of one account) with their senders and attachments: a few queries in all. */
  async views(
    q: Q,
    accountId: number,
    messages: Message[],
    displayIdOf: (conversationId: number) => number,
  ): Promise<MessageView[]> {
    if (messages.length === 0) return [];
    const idsOf = (type: SenderType) => [
      ...new Set(
        messages.filter((m) => m.sender_type === type && m.sender_id !== null).map((m) => m.sender_id as number),
      ),
    ];
    const [contacts, users, bots, attachments] = await Promise.all([
      repo.contactSenders(q, accountId, idsOf('Contact')),
      repo.userSenders(q, accountId, idsOf('User')),
      repo.botSenders(q, accountId, idsOf('AgentBot')),
      this.attachmentsFor(
        q,
        accountId,
        messages.map((m) => m.id),
      ),
    ]);
    const contactById = new Map(contacts.map((c) => [c.id, c]));
    const userById = new Map(users.map((u) => [u.id, u]));
    const botById = new Map(bots.map((b) => [b.id, b]));
    const attachmentsByMessage = new Map<number, MessageAttachment[]>();
    for (const a of attachments)
      attachmentsByMessage.set(a.message_id, [...(attachmentsByMessage.get(a.message_id) ?? []), a]);
    const senderOf = (m: Message): MessageSender | null => {
      if (m.sender_id === null) return null;
      const id = m.sender_id;
      if (m.sender_type === 'Contact')
        return contactById.has(id) ? { type: 'contact', contact: contactById.get(id)! } : null;
      if (m.sender_type === 'User') return userById.has(id) ? { type: 'user', user: userById.get(id)! } : null;
      if (m.sender_type === 'AgentBot') return botById.has(id) ? { type: 'agent_bot', bot: botById.get(id)! } : null;
      return null;
    };
    return messages.map((message) => ({
      message,
      conversationDisplayId: displayIdOf(message.conversation_id),
      sender: senderOf(message),
      attachments: attachmentsByMessage.get(message.id) ?? [],
    }));
  }

  /**
   * The latest 20 messages, oldest first; the 20 before `before`; or up to 100 after `after`.
   * `contactVisible`: only what the contact sees (no private notes, no activities).
   */
  async window(
    q: Q,
    conversation: Conversation,
    query: MessageListQuery,
    options: { contactVisible?: boolean } = {},
  ): Promise<MessageView[]> {
    const rows = await repo.messageWindow(q, conversation.account_id, conversation.id, {
      before: query.before,
      after: query.after,
      limit: query.after !== undefined ? AFTER_PAGE : LATEST_PAGE,
      contactVisible: options.contactVisible,
    });
    return this.views(q, conversation.account_id, rows, () => conversation.display_id);
  }

  /** The last message the contact sees (not private, not an activity) of each conversation of a page. */
  async lastContactVisibleFor(
    q: Q,
    accountId: number,
    conversations: Conversation[],
  ): Promise<Map<number, MessageView>> {
    const last = await repo.lastContactVisibleIds(
      q,
      accountId,
      conversations.map((c) => c.id),
    );
    const displayIds = new Map(conversations.map((c) => [c.id, c.display_id]));
    const rows = await repo.messagesByIds(
      q,
      accountId,
      last.flatMap((r) => (r.last_id === null ? [] : [Number(r.last_id)])),
    );
    const views = await this.views(q, accountId, rows, (id) => displayIds.get(id) ?? 0);
    return new Map(views.map((v) => [v.message.conversation_id, v]));
  }

  /** Last message, last non-activity message and unread count of each conversation of a page. */
  async statsFor(
    q: Q,
    accountId: number,
    conversations: Conversation[],
  ): Promise<Map<number, ConversationMessageStats>> {
    const out = new Map<number, ConversationMessageStats>();
    const stats = await repo.conversationMessageStats(
      q,
      accountId,
      conversations.map((c) => c.id),
    );
    const ids = new Set<number>();
    for (const s of stats) {
      if (s.last_id !== null) ids.add(Number(s.last_id));
      if (s.last_non_activity_id !== null) ids.add(Number(s.last_non_activity_id));
    }
    const displayIds = new Map(conversations.map((c) => [c.id, c.display_id]));
    const views = await this.views(
      q,
      accountId,
      await repo.messagesByIds(q, accountId, [...ids]),
      (id) => displayIds.get(id) ?? 0,
    );
    const viewById = new Map(views.map((v) => [v.message.id, v]));
    for (const s of stats) {
      out.set(s.conversation_id, {
        last: s.last_id === null ? null : (viewById.get(Number(s.last_id)) ?? null),
        lastNonActivity:
          s.last_non_activity_id === null ? null : (viewById.get(Number(s.last_non_activity_id)) ?? null),
        unreadCount: Number(s.unread_count ?? 0),
      });
    }
    return out;
  }

  /**
   * Validates and inserts a message in the caller's transaction. The sender follows the type:
   * incoming messages come from the conversation's contact, outgoing and template messages from
   * the calling user or bot, activities from no one.
   */
  async insert(trx: Q, ctx: AccountContext, conversation: Conversation, input: MessageInput): Promise<MessageView> {
    const type = input.message_type ?? 'outgoing';
    const isPrivate = input.private ?? false;
    const attributes = input.content_attributes ?? {};
    const hasContent = typeof input.content === 'string' && input.content.trim() !== '';
    const files = input.files ?? [];
    const hasAttachments = files.length > 0;
    const contentType = input.content_type ?? 'text';
    const structured = contentType !== 'text' && Object.keys(attributes).length > 0;
    if (!hasContent && !hasAttachments && !structured) throw invalidField('content', "can't be blank");
    if (isPrivate && type !== 'outgoing' && type !== 'activity') {
      throw invalidField('private', 'is only allowed on outgoing messages and activities');
    }
    if (JSON.stringify(attributes).length > MAX_CONTENT_ATTRIBUTES_CHARS) {
      throw invalidField(
        'content_attributes',
        t('is too large (maximum is %{max} characters as JSON)', { max: MAX_CONTENT_ATTRIBUTES_CHARS }),
      );
    }
    // A contact (public interface) only ever writes incoming messages in its own conversation.
    if (ctx.actor.type === 'contact') {
      if (type !== 'incoming' || isPrivate) throw forbidden('A contact may only send incoming messages');
      if (conversation.contact_id !== ctx.actor.contactId) throw notFound('Conversation');
    }
    let senderType: SenderType | null = null;
    let senderId: number | null = null;
    if (type === 'incoming') {
      senderType = 'Contact';
      senderId = conversation.contact_id;
    } else if (type !== 'activity') {
      if (ctx.actor.type === 'user') [senderType, senderId] = ['User', ctx.actor.user.id];
      else if (ctx.actor.type === 'bot') [senderType, senderId] = ['AgentBot', ctx.actor.bot.id];
    }
    const now = Date.now();
    const message = await repo.insertMessage(trx, {
      account_id: conversation.account_id,
      conversation_id: conversation.id,
      inbox_id: conversation.inbox_id,
      content: hasContent ? (input.content as string) : (input.content ?? null),
      message_type: MESSAGE_TYPE_CODES[type],
      content_type: contentType,
      content_attributes: JSON.stringify(attributes),
      additional_attributes: '{}',
      private: isPrivate ? 1 : 0,
      status: 'sent',
      source_id: input.source_id ?? null,
      echo_id: input.echo_id ?? null,
      sender_type: senderType,
      sender_id: senderId,
      created_at: now,
      updated_at: now,
    });
    await this.attachmentFiles.insertForMessage(trx, conversation.account_id, message.id, files, now);
    const [view] = await this.views(trx, conversation.account_id, [message], () => conversation.display_id);
    return view;
  }

  /**
   * A message the contact sees (404 for private notes and activities), with `submitted` (the
   * contact's answer to an options, form or input message) stored as `content_attributes.submitted_values`.
   * Without `submitted` nothing is written. `changed` is false when nothing was written.
   */
  async submitValues(
    trx: Q,
    conversation: Conversation,
    messageId: number,
    submitted: unknown,
  ): Promise<Omit<SoftDeleteResult, 'removedStorageKeys'>> {
    const accountId = conversation.account_id;
    const before = await repo.findMessage(trx, accountId, conversation.id, messageId);
    if (!before || before.private === 1 || before.message_type === 2) throw notFound('Message');
    let after = before;
    if (submitted !== undefined) {
      if (
        !SUBMITTABLE_CONTENT_TYPES.has(before.content_type) ||
        (before.message_type !== 1 && before.message_type !== 3)
      ) {
        throw invalidField(
          'submitted_values',
          'can only answer an agent or bot message that asks for input (input_select, form, ...)',
        );
      }
      const attributes = { ...parseJsonObject(before.content_attributes), submitted_values: submitted };
      const json = JSON.stringify(attributes);
      if (json.length > MAX_CONTENT_ATTRIBUTES_CHARS) {
        throw invalidField(
          'submitted_values',
          t('is too large (maximum is %{max} characters as JSON)', { max: MAX_CONTENT_ATTRIBUTES_CHARS }),
        );
      }
      if (json !== JSON.stringify(parseJsonObject(before.content_attributes))) {
        after = await repo.updateMessage(trx, accountId, before.id, {
          content_attributes: json,
          updated_at: Date.now(),
        });
      }
    }
    const [view] = await this.views(trx, accountId, [after], () => conversation.display_id);
    return { before, view, changed: after !== before };
  }

  /**
   * Makes `toContactId` the sender of what `fromContactId` sent in these conversations, in the
   * caller's transaction (contact merge).
   */
  reassignContactSender(
    trx: Q,
    accountId: number,
    conversationIds: number[],
    fromContactId: number,
    toContactId: number,
  ): Promise<void> {
    return repo.reassignContactSender(trx, accountId, conversationIds, fromContactId, toContactId);
  }

  /**
   * Sets a message's delivery status (API inboxes' bridges report it): `external_error` is kept in
   * `content_attributes` with `failed` and dropped with any other status; a read message does not
   * go back to delivered (as in Chatwoot). `changed` is false when nothing was written.
   */
  async updateStatus(
    trx: Q,
    conversation: Conversation,
    messageId: number,
    input: { status?: MessageStatus; external_error?: string | null },
  ): Promise<Omit<SoftDeleteResult, 'removedStorageKeys'>> {
    const accountId = conversation.account_id;
    const before = await repo.findMessage(trx, accountId, conversation.id, messageId);
    if (!before) throw notFound('Message');
    let after = before;
    const status = input.status;
    if (status !== undefined && !(before.status === 'read' && status === 'delivered')) {
      const { external_error: _previous, ...attributes } = parseJsonObject(before.content_attributes);
      if (status === 'failed' && input.external_error) attributes.external_error = input.external_error;
      const json = JSON.stringify(attributes);
      if (status !== before.status || json !== before.content_attributes) {
        after = await repo.updateMessage(trx, accountId, before.id, {
          status,
          content_attributes: json,
          updated_at: Date.now(),
        });
      }
    }
    const [view] = await this.views(trx, accountId, [after], () => conversation.display_id);
    return { before, view, changed: after !== before };
  }

  /**
   * Soft delete (Chatwoot): the content becomes "This message was deleted", `content_attributes`
   * becomes `{deleted: true}`, and the attachment rows go. Deleting twice changes nothing.
   */
  async softDelete(trx: Q, conversation: Conversation, messageId: number): Promise<SoftDeleteResult> {
    const accountId = conversation.account_id;
    const before = await repo.findMessage(trx, accountId, conversation.id, messageId);
    if (!before) throw notFound('Message');
    const alreadyDeleted = parseJsonObject(before.content_attributes).deleted === true;
    let after = before;
    let removedStorageKeys: string[] = [];
    if (!alreadyDeleted) {
      removedStorageKeys = await this.attachmentFiles.deleteOfMessage(trx, accountId, before.id);
      after = await repo.updateMessage(trx, accountId, before.id, {
        content: DELETED_MESSAGE_CONTENT,
        content_type: 'text',
        content_attributes: JSON.stringify({ deleted: true }),
        updated_at: Date.now(),
      });
    }
    const [view] = await this.views(trx, accountId, [after], () => conversation.display_id);
    return { before, view, changed: !alreadyDeleted, removedStorageKeys };
  }
}
