import { MESSAGE_TYPE_CODES, type MessageTypeName } from '../modules/messages/messages.schema.js';

/**
 * What a contact's socket receives, projected from the webhook payloads: the same shapes as the
 * public interface (`public/public.presenter.ts`), so a widget sees no internal data (no agent
 * e-mails, assignee, team, labels or team-set attributes).
 */

type Payload = Record<string, unknown>;

const asObject = (v: unknown): Payload | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Payload) : null;
const unix = (iso: unknown): number | null => {
  const ms = typeof iso === 'string' ? Date.parse(iso) : NaN;
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
};

/** Whether a contact may see the message of a message payload: not a private note, not an activity. */
export function contactMaySee(payload: Payload): boolean {
  return payload.private === false && payload.message_type !== 'activity';
}

/** The sender as the contact sees it: name and picture only. */
function publicSender(sender: Payload | null) {
  if (!sender) return null;
  const thumbnail = typeof sender.thumbnail === 'string' ? sender.thumbnail : '';
  if (sender.type === 'user') {
    const name = sender.available_name ?? sender.name;
    return { id: sender.id, name, type: 'user' as const, available_name: name, thumbnail };
  }
  return { id: sender.id, name: sender.name, type: sender.type, thumbnail };
}

/** A `message_created`/`message_updated` payload as the public interface shows the message. */
export function publicMessage(payload: Payload) {
  const name = payload.message_type as MessageTypeName;
  return {
    id: Number(payload.id),
    content: payload.content ?? null,
    message_type: MESSAGE_TYPE_CODES[name] ?? null,
    content_type: payload.content_type,
    content_attributes: payload.content_attributes ?? {},
    created_at: unix(payload.created_at),
    conversation_id: asObject(payload.conversation)?.id ?? null,
    echo_id: payload.echo_id ?? null,
    sender: publicSender(asObject(payload.sender)),
    attachments: Array.isArray(payload.attachments) ? payload.attachments : [],
  };
}

/** A `conversation_status_changed` payload as the public interface shows the conversation. */
export function publicConversationStatus(payload: Payload) {
  const changed = Array.isArray(payload.changed_attributes) ? payload.changed_attributes : [];
  return {
    id: payload.id,
    uuid: payload.uuid,
    inbox_id: payload.inbox_id,
    status: payload.status,
    contact_last_seen_at: payload.contact_last_seen_at ?? null,
    agent_last_seen_at: payload.agent_last_seen_at ?? null,
    created_at: payload.created_at,
    changed_attributes: changed.filter((entry) => asObject(entry) && 'status' in (entry as Payload)),
  };
}
