import { parseJsonObject, toIso } from '../../../core/time.js';
import type { MessageRefs } from '../../events.js';
import type { MessageAttachment, MessageView } from './messages.presenter.js';
import { presentSender } from './messages.presenter.js';
import { MESSAGE_TYPE_NAMES } from './messages.schema.js';

export type MessageEventName = 'message_created' | 'message_updated';

/** What a message payload carries besides the message: its account, inbox and conversation. */
export interface MessageEventContext {
  account: { id: number; name: string };
  inbox: { id: number; name: string };
  /** The conversation webhook object (at least `id`, the display id, and `status`). */
  conversation: { id: number; status: string } & Record<string, unknown>;
}

/**
 * The payload of `message_created` / `message_updated`: exactly the spec's fields (event, id as a
 * string, account {id, name}, content, conversation {id, status, ...}, sender {id, name, type},
 * created_at as ISO 8601), plus Chatwoot's extras (message_type as a string, content_type,
 * content_attributes, additional_attributes, private, source_id, inbox {id, name}, attachments).
 */
export function messageEventPayload(
  event: MessageEventName,
  view: MessageView,
  context: MessageEventContext,
  extra: {
    changed_attributes?: Record<string, { previous_value: unknown; current_value: unknown }>[];
    attachments?: MessageAttachment[];
  } = {},
) {
  const m = view.message;
  return {
    event,
    id: String(m.id),
    account: { id: context.account.id, name: context.account.name },
    content: m.content ?? '',
    conversation: context.conversation,
    sender: view.sender ? presentSender(view.sender) : null,
    created_at: toIso(m.created_at),
    message_type: MESSAGE_TYPE_NAMES[m.message_type],
    content_type: m.content_type,
    content_attributes: parseJsonObject(m.content_attributes),
    additional_attributes: parseJsonObject(m.additional_attributes),
    private: m.private === 1,
    source_id: m.source_id,
    echo_id: m.echo_id,
    inbox: { id: context.inbox.id, name: context.inbox.name },
    attachments: extra.attachments ?? view.attachments ?? [],
    ...(extra.changed_attributes ? { changed_attributes: extra.changed_attributes } : {}),
  };
}

type MessageSnapshot = ReturnType<typeof messageEventPayload>;

declare module '../../events.js' {
  interface ChatEvents {
    message_created: { refs: MessageRefs; snapshot: MessageSnapshot };
    message_updated: { refs: MessageRefs; snapshot: MessageSnapshot };
  }
}
