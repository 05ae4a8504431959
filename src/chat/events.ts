import { listenerOf } from '../core/events/dispatcher.js';
import { eventRecorder } from '../core/events/outbox.js';
import type { ChatDatabase } from './db/schema.js';

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

/**
 * The conversation service's event catalogue. `snapshot` is the webhook body (Chatwoot's shapes),
 * `refs` what internal listeners read; both are recorded with the change, in its transaction.
 * Each module declares its own events, with their snapshot types, by declaration merging (the
 * conversations', messages' and contacts' in their `*.events.ts`, the widget's in public/):
 *   declare module '../../events.js' { interface ChatEvents { pipeline_card_won: {refs: ...; snapshot: ...} } }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface ChatEvents {}

export type ChatEventName = keyof ChatEvents & string;

/** Records a chat event in the change's transaction. */
export const emitChatEvent = eventRecorder<ChatEvents>();

/** Declares a listener of chat events (its handler's events are typed by the names it lists). */
export const chatListener = listenerOf<ChatDatabase, ChatEvents>();
