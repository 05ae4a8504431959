import type { EventOf } from '../../../core/events/dispatcher.js';
import type { ChatEvents } from '../../events.js';
import type { LeadEventType } from './lead-score.conditions.js';
import type { LeadEvent } from './lead-score.engine.js';

type ScoredName =
  | 'message_created'
  | 'conversation_created'
  | 'conversation_status_changed'
  | 'conversation_updated'
  | 'contact_updated'
  | 'pipeline_card_created'
  | 'pipeline_card_moved'
  | 'pipeline_card_updated';
export type ScoredEvent = EventOf<ChatEvents, ScoredName>;

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

/** Adds one lead event (its key is the outbox event's id, its type and the suffix). */
type Add = (
  type: LeadEventType,
  attributes: Record<string, unknown>,
  reach: LeadEvent['reach'],
  conversationId: number | null,
  suffix?: string,
) => void;

/** The lead events one chat event is: a small mapper per event name. */
type Mapper<N extends ScoredName> = (event: EventOf<ChatEvents, N>, add: Add) => void;

const conversationReach = (r: { conversationId: number; contactId: number }) => ({
  conversationId: r.conversationId,
  contactId: r.contactId,
});

/** Incoming is `message_received`; an outgoing public one `message_sent`, and from an agent `agent_replied` (and `first_response` for the first). */
const messageCreated: Mapper<'message_created'> = (event, add) => {
  const r = event.refs;
  const snapshot = event.snapshot as { content?: string; conversation?: ConversationFacts; created_at?: string };
  const reach = conversationReach(r);
  const base = {
    ...conversationAttributes(snapshot.conversation),
    message_length: typeof snapshot.content === 'string' ? snapshot.content.length : 0,
    sender_type: r.senderType,
  };
  if (r.messageType === 0) add('message_received', base, reach, r.conversationId);
  if (r.messageType !== 1 || r.private) return;
  add('message_sent', base, reach, r.conversationId);
  if (r.senderType !== 'user') return;
  add('agent_replied', base, reach, r.conversationId);
  const conversation = snapshot.conversation;
  const sentAt = Math.floor(isoMs(snapshot.created_at) / 1000);
  const openedAt = isoMs(conversation?.created_at);
  if (conversation?.first_reply_created_at === sentAt && Number.isFinite(openedAt)) {
    const minutes = Math.max(0, Math.floor((isoMs(snapshot.created_at) - openedAt) / 60_000));
    add('first_response', { ...base, response_minutes: minutes }, reach, r.conversationId);
  }
};

const conversationCreated: Mapper<'conversation_created'> = (event, add) => {
  const attributes = { ...conversationAttributes(event.snapshot as ConversationFacts), previous_status: null };
  add('conversation_opened', attributes, conversationReach(event.refs), event.refs.conversationId);
};

/** Resolved, reopened (open after resolved) or opened. */
const conversationStatusChanged: Mapper<'conversation_status_changed'> = (event, add) => {
  const r = event.refs;
  const snapshot = event.snapshot as ConversationFacts;
  const status = changesOf(event.snapshot).status;
  const previous = (status?.previous_value as string | undefined) ?? null;
  const current = (status?.current_value as string | undefined) ?? snapshot.status;
  const attributes = { ...conversationAttributes(snapshot), previous_status: previous };
  const reach = conversationReach(r);
  if (current === 'resolved') add('conversation_resolved', attributes, reach, r.conversationId);
  else if (current === 'open' && previous === 'resolved')
    add('conversation_reopened', attributes, reach, r.conversationId);
  else if (current === 'open') add('conversation_opened', attributes, reach, r.conversationId);
};

/** Each label added or removed, and an assignment. */
const conversationUpdated: Mapper<'conversation_updated'> = (event, add) => {
  const r = event.refs;
  const changes = changesOf(event.snapshot);
  const reach = conversationReach(r);
  const attributes = conversationAttributes(event.snapshot as ConversationFacts);
  if (changes.labels) {
    const before = strings(changes.labels.previous_value);
    const after = strings(changes.labels.current_value);
    for (const label of after.filter((l) => !before.includes(l)))
      add('label_added', { ...attributes, label }, reach, r.conversationId, `:${label}`);
    for (const label of before.filter((l) => !after.includes(l)))
      add('label_removed', { ...attributes, label }, reach, r.conversationId, `:${label}`);
  }
  if (changes.assignee_id && present(changes.assignee_id.current_value))
    add('agent_assigned', { ...attributes, assignee_id: changes.assignee_id.current_value }, reach, r.conversationId);
};

/** An e-mail or phone number given for the first time, and any other change of the profile. */
const contactUpdated: Mapper<'contact_updated'> = (event, add) => {
  const changes = changesOf(event.snapshot);
  const reach = { contactId: event.refs.contactId };
  const snapshot = event.snapshot as { email?: unknown; phone_number?: unknown };
  const facts = { email: snapshot.email ?? null, phone_number: snapshot.phone_number ?? null };
  const added = (key: string) =>
    changes[key] !== undefined && !present(changes[key].previous_value) && present(changes[key].current_value);
  if (added('email')) add('contact_email_added', facts, reach, null);
  if (added('phone_number')) add('contact_phone_added', facts, reach, null);
  const others = Object.keys(changes).filter(
    (k) => !((k === 'email' && added('email')) || (k === 'phone_number' && added('phone_number'))),
  );
  if (others.length > 0) add('contact_profile_updated', { ...facts, changed_attributes: others }, reach, null);
};

const cardCreated: Mapper<'pipeline_card_created'> = (event, add) =>
  add('card_created', {}, { cardId: event.refs.cardId }, event.refs.conversationId);

const cardMoved: Mapper<'pipeline_card_moved'> = (event, add) => {
  const r = event.refs;
  const attributes = { from_stage_id: r.fromStageId, to_stage_id: r.toStageId, reason: r.reason };
  add('stage_changed', attributes, { cardId: r.cardId }, r.conversationId);
};

/** A new owner (not a cleared one). */
const cardUpdated: Mapper<'pipeline_card_updated'> = (event, add) => {
  const r = event.refs;
  if (r.previousOwnerId !== undefined && r.ownerId !== null)
    add('card_assigned', { previous_owner_id: r.previousOwnerId }, { cardId: r.cardId }, r.conversationId);
};

const MAPPERS: { readonly [N in ScoredName]: Mapper<N> } = {
  message_created: messageCreated,
  conversation_created: conversationCreated,
  conversation_status_changed: conversationStatusChanged,
  conversation_updated: conversationUpdated,
  contact_updated: contactUpdated,
  pipeline_card_created: cardCreated,
  pipeline_card_moved: cardMoved,
  pipeline_card_updated: cardUpdated,
};

/** The chat events lead scoring reads: those with a mapper. */
export const SCORED_EVENTS = Object.keys(MAPPERS) as ScoredName[];

/**
 * Maps one chat event to the lead events it is (docs/spec/decisions.md §8): none, one, or several (an agent's
 * first reply is `message_sent`, `agent_replied` and `first_response`). Card events reach their
 * card; conversation and message events reach the open cards linked to the conversation and the
 * contact's open cards; contact events the contact's open cards.
 */
export function leadEventsOf(event: ScoredEvent): LeadEvent[] {
  const out: LeadEvent[] = [];
  const add: Add = (type, attributes, reach, conversationId, suffix = '') =>
    out.push({
      key: `outbox:${event.id}:${type}${suffix}`,
      type,
      subtype: null,
      attributes,
      occurredAt: event.createdAt,
      reach,
      conversationId,
    });
  (MAPPERS[event.name] as Mapper<ScoredName>)(event, add);
  return out;
}
