import type { EventOf } from '../../../core/events/dispatcher.js';
import type { ChatEvents } from '../../events.js';
import type { LeadEventType } from './lead-score.conditions.js';
import type { LeadEvent } from './lead-score.engine.js';

/** The chat events lead scoring reads. */
export const SCORED_EVENTS = [
  'message_created',
  'conversation_created',
  'conversation_status_changed',
  'conversation_updated',
  'contact_updated',
  'pipeline_card_created',
  'pipeline_card_moved',
  'pipeline_card_updated',
] as const;
export type ScoredEvent = EventOf<ChatEvents, (typeof SCORED_EVENTS)[number]>;

type Changes = Record<string, { previous_value: unknown; current_value: unknown }>;

/** `changed_attributes` (Chatwoot's list of one-key objects) as one object. */
export function changesOf(snapshot: unknown): Changes {
  const list = (snapshot as { changed_attributes?: unknown } | null)?.changed_attributes;
  if (!Array.isArray(list)) return {};
  return Object.assign({}, ...list.filter((c) => c && typeof c === 'object')) as Changes;
}

const present = (v: unknown) => v !== null && v !== undefined && v !== '';
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const isoMs = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : NaN);

interface ConversationFacts {
  id?: number;
  inbox_id?: number;
  labels?: unknown;
  status?: string;
  created_at?: string;
  first_reply_created_at?: number | null;
  meta?: { channel?: string };
}

/** What a conversation event says about its conversation (conditions may name these). */
function conversationAttributes(c: ConversationFacts | undefined) {
  return {
    conversation_id: c?.id ?? null,
    inbox_id: c?.inbox_id ?? null,
    channel_type: c?.meta?.channel ?? null,
    labels: strings(c?.labels),
  };
}

/**
 * Maps one chat event to the lead events it is (docs/spec/decisions.md §8): none, one, or several (an agent's
 * first reply is `message_sent`, `agent_replied` and `first_response`). Card events reach their
 * card; conversation and message events reach the open cards linked to the conversation and the
 * contact's open cards; contact events the contact's open cards.
 */
export function leadEventsOf(event: ScoredEvent): LeadEvent[] {
  const out: LeadEvent[] = [];
  const at = event.createdAt;
  const add = (
    type: LeadEventType,
    attributes: Record<string, unknown>,
    reach: LeadEvent['reach'],
    conversationId: number | null,
    suffix = '',
  ) =>
    out.push({
      key: `outbox:${event.id}:${type}${suffix}`,
      type,
      subtype: null,
      attributes,
      occurredAt: at,
      reach,
      conversationId,
    });

  switch (event.name) {
    case 'message_created': {
      const r = event.refs;
      const snapshot = event.snapshot as { content?: string; conversation?: ConversationFacts; created_at?: string };
      const reach = { conversationId: r.conversationId, contactId: r.contactId };
      const base = {
        ...conversationAttributes(snapshot.conversation),
        message_length: typeof snapshot.content === 'string' ? snapshot.content.length : 0,
        sender_type: r.senderType,
      };
      if (r.messageType === 0) add('message_received', base, reach, r.conversationId);
      if (r.messageType === 1 && !r.private) {
        add('message_sent', base, reach, r.conversationId);
        if (r.senderType === 'user') {
          add('agent_replied', base, reach, r.conversationId);
          const conversation = snapshot.conversation;
          const sentAt = Math.floor(isoMs(snapshot.created_at) / 1000);
          const openedAt = isoMs(conversation?.created_at);
          if (conversation?.first_reply_created_at === sentAt && Number.isFinite(openedAt)) {
            const minutes = Math.max(0, Math.floor((isoMs(snapshot.created_at) - openedAt) / 60_000));
            add('first_response', { ...base, response_minutes: minutes }, reach, r.conversationId);
          }
        }
      }
      break;
    }
    case 'conversation_created': {
      const r = event.refs;
      const snapshot = event.snapshot as ConversationFacts;
      add(
        'conversation_opened',
        { ...conversationAttributes(snapshot), previous_status: null },
        { conversationId: r.conversationId, contactId: r.contactId },
        r.conversationId,
      );
      break;
    }
    case 'conversation_status_changed': {
      const r = event.refs;
      const snapshot = event.snapshot as ConversationFacts;
      const status = changesOf(event.snapshot).status;
      const previous = (status?.previous_value as string | undefined) ?? null;
      const current = (status?.current_value as string | undefined) ?? snapshot.status;
      const attributes = { ...conversationAttributes(snapshot), previous_status: previous };
      const reach = { conversationId: r.conversationId, contactId: r.contactId };
      if (current === 'resolved') add('conversation_resolved', attributes, reach, r.conversationId);
      else if (current === 'open' && previous === 'resolved')
        add('conversation_reopened', attributes, reach, r.conversationId);
      else if (current === 'open') add('conversation_opened', attributes, reach, r.conversationId);
      break;
    }
    case 'conversation_updated': {
      const r = event.refs;
      const snapshot = event.snapshot as ConversationFacts;
      const changes = changesOf(event.snapshot);
      const reach = { conversationId: r.conversationId, contactId: r.contactId };
      const attributes = conversationAttributes(snapshot);
      if (changes.labels) {
        const before = strings(changes.labels.previous_value);
        const after = strings(changes.labels.current_value);
        for (const label of after.filter((l) => !before.includes(l)))
          add('label_added', { ...attributes, label }, reach, r.conversationId, `:${label}`);
        for (const label of before.filter((l) => !after.includes(l)))
          add('label_removed', { ...attributes, label }, reach, r.conversationId, `:${label}`);
      }
      if (changes.assignee_id && present(changes.assignee_id.current_value))
        add(
          'agent_assigned',
          { ...attributes, assignee_id: changes.assignee_id.current_value },
          reach,
          r.conversationId,
        );
      break;
    }
    case 'contact_updated': {
      const changes = changesOf(event.snapshot);
      const reach = { contactId: event.refs.contactId };
      const snapshot = event.snapshot as { email?: unknown; phone_number?: unknown };
      const facts = { email: snapshot.email ?? null, phone_number: snapshot.phone_number ?? null };
      const keys = Object.keys(changes);
      const added = (key: string) =>
        changes[key] !== undefined && !present(changes[key].previous_value) && present(changes[key].current_value);
      if (added('email')) add('contact_email_added', facts, reach, null);
      if (added('phone_number')) add('contact_phone_added', facts, reach, null);
      const others = keys.filter(
        (k) => !((k === 'email' && added('email')) || (k === 'phone_number' && added('phone_number'))),
      );
      if (others.length > 0) add('contact_profile_updated', { ...facts, changed_attributes: others }, reach, null);
      break;
    }
    case 'pipeline_card_created':
      add('card_created', {}, { cardId: event.refs.cardId }, event.refs.conversationId);
      break;
    case 'pipeline_card_moved': {
      const r = event.refs;
      add(
        'stage_changed',
        { from_stage_id: r.fromStageId, to_stage_id: r.toStageId, reason: r.reason },
        { cardId: r.cardId },
        r.conversationId,
      );
      break;
    }
    case 'pipeline_card_updated': {
      const r = event.refs;
      if (r.previousOwnerId !== undefined && r.ownerId !== null)
        add('card_assigned', { previous_owner_id: r.previousOwnerId }, { cardId: r.cardId }, r.conversationId);
      break;
    }
  }
  return out;
}
