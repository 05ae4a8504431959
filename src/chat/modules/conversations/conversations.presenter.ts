import { parseJsonObject, toIso, toUnix } from '../../../core/time.js';
import type { Contact, Conversation, Team } from '../../db/schema.js';
import { presentAgent } from '../agents/agents.presenter.js';
import type { AgentRow } from '../agents/agents.repository.js';
import { presentMessage } from '../messages/messages.presenter.js';
import type { ConversationMessageStats } from '../messages/messages.service.js';
import type { ConversationAppliedSla, ConversationSlaEvent, PriorityName } from './conversations.schema.js';

/** The SLA applied to a conversation, as its response shows it (the SLA module loads it: SlaPolicies.appliedTo). */
export interface ConversationSla {
  sla_policy_id: number;
  applied_sla: ConversationAppliedSla;
  sla_events: ConversationSlaEvent[];
}

/** A conversation with everything its response shows, loaded for a whole page at once. */
export interface ConversationBundle {
  conversation: Conversation;
  contact: Contact | null;
  inbox: { id: number; name: string; channel_type: string } | null;
  contactInbox: { source_id: string; hmac_verified: number } | null;
  assignee: AgentRow | null;
  team: Team | null;
  labels: string[];
  /** Last messages and unread count; null when not loaded (no messages shown). */
  stats: ConversationMessageStats | null;
  /** The applied SLA with its policy and breaches; null when none is applied. */
  sla: ConversationSla | null;
}

/** What a conversation's message page shows of it (`ConversationBundles.meta`). */
export type ConversationMeta = Pick<ConversationBundle, 'conversation' | 'contact' | 'assignee' | 'labels'>;

export interface ConversationCounts {
  mine: number;
  unassigned: number;
  assigned: number;
  all: number;
}

export const priorityName = (c: Pick<Conversation, 'priority'>): PriorityName => c.priority ?? 'none';

/** The contact as a conversation shows it (Chatwoot's `meta.sender`). */
export function presentContactSummary(contact: Contact) {
  return {
    id: contact.id,
    name: contact.name,
    email: contact.email,
    phone_number: contact.phone_number,
    identifier: contact.identifier,
    thumbnail: contact.avatar_url ?? '',
    availability_status: 'offline',
    blocked: contact.blocked === 1,
    type: 'contact' as const,
    additional_attributes: parseJsonObject(contact.additional_attributes),
    custom_attributes: parseJsonObject(contact.custom_attributes),
    last_activity_at: toUnix(contact.last_activity_at),
    created_at: toUnix(contact.created_at),
  };
}

export function presentTeamSummary(team: Team) {
  return {
    id: team.id,
    name: team.name,
    description: team.description,
    allow_auto_assign: team.allow_auto_assign === 1,
    account_id: team.account_id,
  };
}

/**
 * The conversation object: the spec's fields (id = display id, inbox_id, status, priority,
 * contact, assignee, team, labels, additional_attributes, messages, created_at as ISO 8601,
 * contact_last_seen_at as ISO 8601) plus Chatwoot's (uuid, meta.sender/assignee/team/channel,
 * UNIX-second activity times, unread_count, can_reply, muted, sla_policy_id, applied_sla,
 * sla_events...). Also the webhook object.
 */
export function presentConversation(bundle: ConversationBundle) {
  const c = bundle.conversation;
  const contact = bundle.contact ? presentContactSummary(bundle.contact) : null;
  const assignee = bundle.assignee ? presentAgent(bundle.assignee) : null;
  const team = bundle.team ? presentTeamSummary(bundle.team) : null;
  const last = bundle.stats?.last ?? null;
  const lastNonActivity = bundle.stats?.lastNonActivity ?? null;
  return {
    id: c.display_id,
    uuid: c.uuid,
    account_id: c.account_id,
    inbox_id: c.inbox_id,
    status: c.status,
    priority: priorityName(c),
    contact,
    assignee,
    team,
    labels: bundle.labels,
    additional_attributes: parseJsonObject(c.additional_attributes),
    custom_attributes: parseJsonObject(c.custom_attributes),
    messages: last ? [presentMessage(last)] : [],
    last_non_activity_message: lastNonActivity ? presentMessage(lastNonActivity) : null,
    contact_inbox: bundle.contactInbox ? { source_id: bundle.contactInbox.source_id } : null,
    created_at: toIso(c.created_at),
    updated_at: toUnix(c.updated_at),
    timestamp: toUnix(c.last_activity_at),
    last_activity_at: toUnix(c.last_activity_at),
    unread_count: bundle.stats?.unreadCount ?? 0,
    snoozed_until: toUnix(c.snoozed_until),
    waiting_since: toUnix(c.waiting_since),
    first_reply_created_at: toUnix(c.first_reply_created_at),
    agent_last_seen_at: toUnix(c.agent_last_seen_at),
    assignee_last_seen_at: toUnix(c.assignee_last_seen_at),
    contact_last_seen_at: toIso(c.contact_last_seen_at),
    can_reply: true,
    muted: c.muted === 1,
    sla_policy_id: bundle.sla?.sla_policy_id ?? null,
    applied_sla: bundle.sla?.applied_sla ?? null,
    sla_events: bundle.sla?.sla_events ?? [],
    meta: {
      sender: contact,
      assignee,
      team,
      channel: bundle.inbox?.channel_type ?? '',
      hmac_verified: bundle.contactInbox?.hmac_verified === 1,
    },
  };
}

export function presentCounts(counts: ConversationCounts) {
  return {
    mine_count: counts.mine,
    unassigned_count: counts.unassigned,
    assigned_count: counts.assigned,
    all_count: counts.all,
  };
}

/** A page of conversations: `{meta: counts, payload}` (the list wraps it in `data`). */
export function presentConversationPage(page: { counts: ConversationCounts; bundles: ConversationBundle[] }) {
  return { meta: presentCounts(page.counts), payload: page.bundles.map(presentConversation) };
}
