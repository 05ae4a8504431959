import { toIso } from '../../../core/time.js';
import type { ReportingEvent } from './reports.migration.js';

/** Chatwoot's reporting_event: times as ISO 8601, the conversation by its per-account number. */
export function presentReportingEvent(e: ReportingEvent) {
  return {
    id: e.id,
    name: e.name,
    value: e.value === null ? null : Number(e.value),
    // Counted within the inbox's working hours when the event was written (docs/decisions/0022).
    value_in_business_hours: e.value === null ? null : Number(e.value_in_business_hours ?? e.value),
    event_start_time: toIso(e.event_start),
    event_end_time: toIso(e.event_end),
    account_id: e.account_id,
    conversation_id: e.display_id,
    inbox_id: e.inbox_id,
    user_id: e.user_id,
    team_id: e.team_id,
    created_at: toIso(e.created_at),
    updated_at: toIso(e.created_at),
  };
}
