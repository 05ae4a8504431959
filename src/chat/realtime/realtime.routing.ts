import type { RealtimeEvent } from '../../core/realtime/broadcaster.js';
import type { CableMessage } from '../../core/realtime/cable.protocol.js';
import type { AccountRole } from '../db/schema.js';
import { contactMaySee, publicConversationStatus, publicMessage } from './realtime.public.js';

/** A user (agent or administrator) subscribed in one account with their users.pubsub_token. */
export interface AgentSubscription {
  readonly kind: 'user';
  readonly accountId: number;
  readonly userId: number;
  /** The membership role; null once the user is no longer a member (then nothing is pushed). */
  role: AccountRole | null;
  /** Inboxes the user is a member of (what an agent sees; administrators see every inbox). */
  inboxIds: ReadonlySet<number>;
  /** When role and inboxIds were read (ms). */
  checkedAt: number;
}

/** A contact subscribed with the pubsub_token of one contact inbox (the web widget). */
export interface ContactSubscription {
  readonly kind: 'contact';
  readonly accountId: number;
  readonly contactInboxId: number;
  readonly inboxId: number;
  readonly sourceId: string;
}

export type ChatSubscription = AgentSubscription | ContactSubscription;

type Route = (subscription: ChatSubscription) => readonly CableMessage[];

const NOTHING: readonly CableMessage[] = [];

const asObject = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
const asId = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);

/** Keys named in a payload's `changed_attributes: [{<key>: {previous_value, current_value}}]`. */
function changedKeys(payload: Record<string, unknown>): Set<string> {
  const keys = new Set<string>();
  const changed = payload.changed_attributes;
  if (Array.isArray(changed))
    for (const entry of changed) for (const key of Object.keys(asObject(entry) ?? {})) keys.add(key);
  return keys;
}

/** Administrators of the account see every inbox; agents the inboxes they are members of. */
export function staffSees(subscription: ChatSubscription, inboxId: number): boolean {
  if (subscription.kind !== 'user') return false;
  return subscription.role === 'administrator' || (subscription.role === 'agent' && subscription.inboxIds.has(inboxId));
}

/** A contact sees the conversations of its own contact inbox (its inbox and source_id). */
export function contactSees(subscription: ChatSubscription, inboxId: number, sourceId: string | null): boolean {
  return (
    subscription.kind === 'contact' &&
    subscription.inboxId === inboxId &&
    sourceId !== null &&
    subscription.sourceId === sourceId
  );
}

/** The conversation's inbox and contact inbox source_id, from a conversation webhook object. */
function conversationAddress(conversation: Record<string, unknown> | null, inboxId: unknown) {
  const source = asObject(conversation?.contact_inbox)?.source_id;
  return { inboxId: asId(inboxId), sourceId: typeof source === 'string' ? source : null };
}

function forConversation(
  inboxId: number | null,
  sourceId: string | null,
  staff: readonly CableMessage[],
  contact: readonly CableMessage[],
): Route | null {
  if (inboxId === null) return null;
  return (s) => (staffSees(s, inboxId) ? staff : contactSees(s, inboxId, sourceId) ? contact : NOTHING);
}

/**
 * Who receives what for one event, decided once per event.
 * - Users: conversation.created/updated/status_changed, message.created/updated (private notes
 *   too) for conversations of inboxes they see; assignee.changed besides conversation.updated when
 *   the assignee changed; contact.created/updated and pipeline_card.* of their account; sla.missed
 *   (an SLA breach) for conversations of inboxes they see. `data` is the event payload as the
 *   webhook carries it.
 * - Contacts: message.created/updated (never private notes, nor activities) and
 *   conversation.status_changed of the conversations of their contact inbox. `data` is the public
 *   interface's shape of the message or conversation (realtime.public.ts), never internal fields.
 */
export function routeEvent(event: RealtimeEvent): Route | null {
  const payload = event.payload;
  const message = (name: string): CableMessage => ({ event: name, data: payload });
  switch (event.name) {
    case 'conversation_created': {
      const { inboxId, sourceId } = conversationAddress(payload, payload.inbox_id);
      return forConversation(inboxId, sourceId, [message('conversation.created')], NOTHING);
    }
    case 'conversation_updated': {
      const { inboxId, sourceId } = conversationAddress(payload, payload.inbox_id);
      const staff = [message('conversation.updated')];
      if (changedKeys(payload).has('assignee_id')) staff.push(message('assignee.changed'));
      return forConversation(inboxId, sourceId, staff, NOTHING);
    }
    case 'conversation_status_changed': {
      const { inboxId, sourceId } = conversationAddress(payload, payload.inbox_id);
      const contact = [{ event: 'conversation.status_changed', data: publicConversationStatus(payload) }];
      return forConversation(inboxId, sourceId, [message('conversation.status_changed')], contact);
    }
    case 'message_created':
    case 'message_updated': {
      const conversation = asObject(payload.conversation);
      const { inboxId, sourceId } = conversationAddress(
        conversation,
        asObject(payload.inbox)?.id ?? conversation?.inbox_id,
      );
      const name = event.name === 'message_created' ? 'message.created' : 'message.updated';
      const contact = contactMaySee(payload) ? [{ event: name, data: publicMessage(payload) }] : NOTHING;
      return forConversation(inboxId, sourceId, [message(name)], contact);
    }
    case 'contact_created':
    case 'contact_updated': {
      const pushes = [message(event.name === 'contact_created' ? 'contact.created' : 'contact.updated')];
      return (s) => (s.kind === 'user' && s.role !== null ? pushes : NOTHING);
    }
    case 'pipeline_card_created':
    case 'pipeline_card_updated':
    case 'pipeline_card_moved':
    case 'pipeline_card_won':
    case 'pipeline_card_lost':
    case 'pipeline_card_reopened':
    case 'pipeline_card_deleted': {
      // Cards are the account's, not an inbox's: every member's board follows them
      // (pipeline_card.moved and so on, `data` the card as the webhook carries it).
      const pushes = [message(event.name.replace(/^pipeline_card_/, 'pipeline_card.'))];
      return (s) => (s.kind === 'user' && s.role !== null ? pushes : NOTHING);
    }
    case 'sla_missed': {
      // A breach goes to the staff who see the conversation's inbox, never to the contact.
      return forConversation(asId(payload.inbox_id), null, [message('sla.missed')], NOTHING);
    }
    default:
      return null;
  }
}
