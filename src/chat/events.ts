import { listenerOf } from '../core/events/dispatcher.js';
import { eventRecorder } from '../core/events/outbox.js';
import type { ChatDatabase } from './db/schema.js';
import type { contactWebhookData } from './modules/contacts/contacts.events.js';
import type { conversationEventPayload } from './modules/conversations/conversations.events.js';
import type { messageEventPayload } from './modules/messages/messages.events.js';

/** What every conversation event names: the conversation (internal id and per-account number), its inbox and contact. */
export interface ConversationRefs {
  conversationId: number;
  displayId: number;
  inboxId: number;
  contactId: number;
}

/** A message event's ids, with the facts listeners filter on without refetching. */
export interface MessageRefs extends ConversationRefs {
  messageId: number;
  /** 0 incoming, 1 outgoing, 2 activity, 3 template. */
  messageType: number;
  private: boolean;
  senderType: 'contact' | 'user' | 'agent_bot' | null;
  senderId: number | null;
}

export interface ContactRefs {
  contactId: number;
}

export interface WidgetRefs extends ContactRefs {
  inboxId: number;
  contactInboxId: number;
  /** The contact's latest conversation there, if any. */
  displayId: number | null;
}

type ConversationSnapshot = ReturnType<typeof conversationEventPayload>;
type MessageSnapshot = ReturnType<typeof messageEventPayload>;
type ContactSnapshot = { event: string } & ReturnType<typeof contactWebhookData> & Record<string, unknown>;

/**
 * The conversation service's event catalogue. `snapshot` is the webhook body (Chatwoot's shapes),
 * `refs` what internal listeners read; both are recorded with the change, in its transaction. A
 * module adds its events by declaration merging:
 *   declare module '../../events.js' { interface ChatEvents { pipeline_card_won: {refs: ...; snapshot: ...} } }
 */
export interface ChatEvents {
  conversation_created: { refs: ConversationRefs; snapshot: ConversationSnapshot };
  conversation_updated: { refs: ConversationRefs; snapshot: ConversationSnapshot };
  conversation_status_changed: { refs: ConversationRefs; snapshot: ConversationSnapshot };
  message_created: { refs: MessageRefs; snapshot: MessageSnapshot };
  message_updated: { refs: MessageRefs; snapshot: MessageSnapshot };
  contact_created: { refs: ContactRefs; snapshot: ContactSnapshot };
  contact_updated: { refs: ContactRefs; snapshot: ContactSnapshot };
  webwidget_triggered: { refs: WidgetRefs; snapshot: Record<string, unknown> };
}

export type ChatEventName = keyof ChatEvents & string;

/** Records a chat event in the change's transaction. */
export const emitChatEvent = eventRecorder<ChatEvents>();

/** Declares a listener of chat events (its handler's events are typed by the names it lists). */
export const chatListener = listenerOf<ChatDatabase, ChatEvents>();
