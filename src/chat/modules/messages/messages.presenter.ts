import type { AttachmentView } from './attachments.schema.js';
import { parseJsonObject, toUnix } from '../../../core/time.js';
import type { AgentBot, Contact, Message } from '../../db/schema.js';
import type { userSenders } from './messages.repository.js';

export type UserSenderRow = Awaited<ReturnType<typeof userSenders>>[number];

/** Who sent a message: the conversation's contact, an agent (user) or an agent bot. */
export type MessageSender =
  { type: 'contact'; contact: Contact } | { type: 'user'; user: UserSenderRow } | { type: 'agent_bot'; bot: AgentBot };

/** An attachment as the attachments presenter renders it (Chatwoot's shape). */
export type MessageAttachment = AttachmentView;

/** A message with what its response needs, loaded for a whole page at once. */
export interface MessageView {
  message: Message;
  /** The display id of its conversation (the id clients know). */
  conversationDisplayId: number;
  sender: MessageSender | null;
  /** Filled by MessagesService.attachmentsFor for pages of messages. */
  attachments?: MessageAttachment[];
}

/** The sender as Chatwoot's `push_event_data` renders it; also the `sender` of webhook payloads. */
export function presentSender(sender: MessageSender) {
  switch (sender.type) {
    case 'contact': {
      const c = sender.contact;
      return {
        id: c.id,
        name: c.name,
        type: 'contact' as const,
        email: c.email,
        phone_number: c.phone_number,
        identifier: c.identifier,
        thumbnail: c.avatar_url ?? '',
        blocked: c.blocked === 1,
        additional_attributes: parseJsonObject(c.additional_attributes),
        custom_attributes: parseJsonObject(c.custom_attributes),
      };
    }
    case 'user': {
      const u = sender.user;
      return {
        id: u.id,
        name: u.name,
        type: 'user' as const,
        email: u.email,
        available_name: u.display_name || u.name,
        availability_status: u.availability ?? 'offline',
        thumbnail: u.avatar_url ?? '',
        avatar_url: u.avatar_url ?? '',
      };
    }
    case 'agent_bot':
      return { id: sender.bot.id, name: sender.bot.name, type: 'agent_bot' as const, thumbnail: '', avatar_url: '' };
  }
}

/**
 * A message as Chatwoot renders it: integer `message_type`, UNIX-second times, the conversation's
 * display id. `attachments` defaults to the ones loaded with the view (none when not loaded).
 */
export function presentMessage(view: MessageView, attachments: MessageAttachment[] = view.attachments ?? []) {
  const m = view.message;
  return {
    id: m.id,
    content: m.content,
    account_id: m.account_id,
    inbox_id: m.inbox_id,
    conversation_id: view.conversationDisplayId,
    message_type: m.message_type,
    content_type: m.content_type,
    content_attributes: parseJsonObject(m.content_attributes),
    additional_attributes: parseJsonObject(m.additional_attributes),
    private: m.private === 1,
    status: m.status,
    source_id: m.source_id,
    echo_id: m.echo_id,
    created_at: toUnix(m.created_at),
    updated_at: toUnix(m.updated_at),
    sender_type: m.sender_type,
    sender_id: m.sender_id,
    sender: view.sender ? presentSender(view.sender) : null,
    attachments,
  };
}
