import { toIso, toUnix } from '../../../core/time.js';
import type { ConversationSla } from '../conversations/conversations.presenter.js';
import type { SlaEvent, SlaPolicy } from './sla.migration.js';
import type { AppliedListRow, AppliedWithPolicy } from './sla.repository.js';

export function presentPolicy(p: SlaPolicy) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    first_response_time_threshold: p.first_response_time_threshold,
    next_response_time_threshold: p.next_response_time_threshold,
    resolution_time_threshold: p.resolution_time_threshold,
    only_during_business_hours: p.only_during_business_hours === 1,
    // The spec's convention: ISO 8601 unless a field says UNIX seconds (its SLA policy does not).
    created_at: toIso(p.created_at),
  };
}

export function presentBreach(e: SlaEvent) {
  return { id: e.id, event_type: e.event_type, due_at: toUnix(e.due_at), created_at: toUnix(e.created_at) };
}

/** What a conversation shows of its applied SLA: Chatwoot's `applied_sla` (with the deadlines) and `sla_events`. */
export function presentConversationSla(row: AppliedWithPolicy, breaches: readonly SlaEvent[]): ConversationSla {
  return {
    sla_policy_id: row.sla_policy_id,
    applied_sla: {
      id: row.id,
      sla_id: row.sla_policy_id,
      sla_status: row.status,
      sla_name: row.policy_name,
      sla_description: row.policy_description,
      sla_first_response_time_threshold: row.policy_first_response,
      sla_next_response_time_threshold: row.policy_next_response,
      sla_resolution_time_threshold: row.policy_resolution,
      sla_only_during_business_hours: row.policy_business_hours === 1,
      first_response_due_at: toUnix(row.first_response_due),
      next_response_due_at: toUnix(row.next_response_due),
      resolution_due_at: toUnix(row.resolution_due),
      created_at: toUnix(row.created_at),
      updated_at: toUnix(row.updated_at),
    },
    sla_events: breaches.map((e) => ({
      id: e.id,
      event_type: e.event_type,
      due_at: toUnix(e.due_at),
      created_at: toUnix(e.created_at),
    })),
  };
}

/** An applied SLA with its conversation (by its per-account number), policy and breaches. */
export function presentApplied(row: AppliedListRow, breaches: readonly SlaEvent[]) {
  return {
    id: row.id,
    sla_policy_id: row.sla_policy_id,
    sla_status: row.status,
    created_at: toUnix(row.created_at),
    first_response_due_at: toUnix(row.first_response_due),
    first_response_at: toUnix(row.first_response_at),
    next_response_due_at: toUnix(row.next_response_due),
    resolution_due_at: toUnix(row.resolution_due),
    resolved_at: toUnix(row.resolved_at),
    sla_policy: { id: row.sla_policy_id, name: row.policy_name },
    conversation: {
      id: row.display_id,
      inbox_id: row.inbox_id,
      status: row.conversation_status,
      assignee_id: row.assignee_id,
      team_id: row.team_id,
      contact: { id: row.contact_id, name: row.contact_name },
    },
    sla_events: breaches.map(presentBreach),
  };
}
