import { parseJsonObject, toIso, toUnix } from '../../core/time.js';
import type { Contact, ContactInbox, Conversation, Inbox } from '../db/schema.js';
import { parseWorkingHours } from '../modules/inboxes/inboxes.schema.js';
import type { MessageSender, MessageView } from '../modules/messages/messages.presenter.js';

/**
 * What the public interface shows. It is read by the contact (or a widget acting for it), so it
 * never carries internal data: no private notes or activities, no agent e-mails, no labels,
 * assignees or custom attributes set by the team.
 */

/**
 * Chatwoot's public contact: the contact with its contact inbox's source_id and pubsub_token, and
 * whether the contact was identified there with a valid identifier_hash.
 */
export function presentPublicContact(contact: Contact, contactInbox: ContactInbox) {
  return {
    id: contact.id,
    source_id: contactInbox.source_id,
    pubsub_token: contactInbox.pubsub_token,
    name: contact.name,
    email: contact.email,
    phone_number: contact.phone_number,
    hmac_verified: contactInbox.hmac_verified === 1,
  };
}

/** The sender as the contact sees it: name and picture only. */
function presentPublicSender(sender: MessageSender) {
  switch (sender.type) {
    case 'contact':
      return {
        id: sender.contact.id,
        name: sender.contact.name,
        type: 'contact' as const,
        thumbnail: sender.contact.avatar_url ?? '',
      };
    case 'user': {
      const u = sender.user;
      const name = u.display_name || u.name;
      return { id: u.id, name, type: 'user' as const, available_name: name, thumbnail: u.avatar_url ?? '' };
    }
    case 'agent_bot':
      return { id: sender.bot.id, name: sender.bot.name, type: 'agent_bot' as const, thumbnail: '' };
  }
}

/** Chatwoot's public message (integer message_type, UNIX-second created_at, display id). */
export function presentPublicMessage(view: MessageView) {
  const m = view.message;
  return {
    id: m.id,
    content: m.content,
    message_type: m.message_type,
    content_type: m.content_type,
    content_attributes: parseJsonObject(m.content_attributes),
    created_at: toUnix(m.created_at),
    conversation_id: view.conversationDisplayId,
    echo_id: m.echo_id,
    sender: view.sender ? presentPublicSender(view.sender) : null,
    attachments: view.attachments ?? [],
  };
}

/** Chatwoot's public conversation; `messages` holds the messages given (the last one in lists). */
export function presentPublicConversation(conversation: Conversation, contact: Contact, messages: MessageView[]) {
  return {
    id: conversation.display_id,
    uuid: conversation.uuid,
    inbox_id: conversation.inbox_id,
    status: conversation.status,
    contact_last_seen_at: toIso(conversation.contact_last_seen_at),
    agent_last_seen_at: toUnix(conversation.agent_last_seen_at),
    created_at: toIso(conversation.created_at),
    messages: messages.map(presentPublicMessage),
    contact: { id: contact.id, name: contact.name, email: contact.email, phone_number: contact.phone_number },
  };
}

/** The inbox for widgets and third parties: what they show, never its secrets. */
export function presentPublicInbox(inbox: Inbox) {
  return {
    identifier: inbox.identifier,
    name: inbox.name,
    timezone: inbox.timezone,
    working_hours: parseWorkingHours(inbox.working_hours),
    working_hours_enabled: inbox.working_hours_enabled === 1,
    csat_survey_enabled: false,
    greeting_enabled: inbox.greeting_enabled === 1,
    greeting_message: inbox.greeting_message,
    out_of_office_message: inbox.out_of_office_message,
    identity_validation_enabled: inbox.hmac_mandatory === 1,
  };
}
