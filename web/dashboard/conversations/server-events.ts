import type { Conversation, Message } from '../api.js';

/**
 * A change the server reports, in the names and shapes of Chatwoot's realtime events (`{event,
 * data}`, the data being the REST shape of the record). Today the app makes these itself from the
 * answers to its own requests; wiring `/cable` later means handing each pushed event to
 * `applyServerEvent` (stores/server-events.store.ts), which every store that shows conversations
 * or messages listens to.
 */
export type ConversationEvent = {
  event: 'conversation.created' | 'conversation.updated' | 'conversation.status_changed';
  data: Conversation;
};
export type MessageEvent = { event: 'message.created' | 'message.updated'; data: Message };
export type ServerEvent = ConversationEvent | MessageEvent;

export const isConversationEvent = (e: ServerEvent): e is ConversationEvent => e.event.startsWith('conversation.');

/** A message as the conversation list shows it (the newest one the customer would see, or a note). */
export function withMessage(c: Conversation, m: Message, created: boolean): Conversation {
  const activity = m.message_type === 2;
  const newer = m.created_at >= c.last_activity_at;
  const unread = created && m.message_type === 0 ? 1 : 0;
  return {
    ...c,
    last_activity_at: newer ? m.created_at : c.last_activity_at,
    timestamp: newer ? m.created_at : c.timestamp,
    last_non_activity_message:
      !activity && (!c.last_non_activity_message || m.id >= c.last_non_activity_message.id)
        ? m
        : c.last_non_activity_message,
    unread_count: c.unread_count + unread,
  };
}
