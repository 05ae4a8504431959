import type { ConversationRefs } from '../../events.js';
import { presentConversation, type ConversationBundle } from './conversations.presenter.js';

export type ConversationEventName = 'conversation_created' | 'conversation_updated' | 'conversation_status_changed';

export type ChangedAttributes = Record<string, { previous_value: unknown; current_value: unknown }>[];

/**
 * Conversation webhook payloads follow Chatwoot: the conversation object with `event` added;
 * `conversation_updated` and `conversation_status_changed` also carry
 * `changed_attributes: [{<key>: {previous_value, current_value}}]`.
 */
export function conversationEventPayload(
  event: ConversationEventName,
  bundle: ConversationBundle,
  changed?: ChangedAttributes,
) {
  return {
    event,
    ...presentConversation(bundle),
    ...(changed ? { changed_attributes: changed } : {}),
  };
}

/** One entry per key whose value differs between `before` and `after` (keys of `after` only). */
export function changedAttributes(before: Record<string, unknown>, after: Record<string, unknown>): ChangedAttributes {
  const out: ChangedAttributes = [];
  for (const key of Object.keys(after)) {
    if (JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null)) {
      out.push({ [key]: { previous_value: before[key] ?? null, current_value: after[key] ?? null } });
    }
  }
  return out;
}

type ConversationSnapshot = ReturnType<typeof conversationEventPayload>;

declare module '../../events.js' {
  interface ChatEvents {
    conversation_created: { refs: ConversationRefs; snapshot: ConversationSnapshot };
    conversation_updated: { refs: ConversationRefs; snapshot: ConversationSnapshot };
    conversation_status_changed: { refs: ConversationRefs; snapshot: ConversationSnapshot };
  }
}
