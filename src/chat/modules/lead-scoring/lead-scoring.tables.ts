import type { Generated, Selectable } from 'kysely';

/**
 * Row types of lead scoring (migration 0100_lead_scoring). Timestamps are epoch milliseconds,
 * booleans 0/1, JSON documents text.
 */

export interface LeadScoreRulesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  description: string | null;
  event_type: string;
  /** Null matches any subtype. */
  event_subtype: string | null;
  /** JSON object: `{key: value}` or `{key: {operator, value}}`. */
  conditions: string;
  points: number;
  enabled: number;
  priority: number;
  cooldown_minutes: number;
  /** Set on the rules `create_defaults` made (one per key and account), so a second call creates nothing. */
  default_key: string | null;
  created_at: number;
  updated_at: number;
}

/** One event that reached one card, with its attributes: what a score is recomputed from. */
export interface LeadScoreEventsTable {
  id: Generated<number>;
  account_id: number;
  card_id: number;
  /** What makes a delivery unique: `outbox:{event id}`, `custom:{random}`, `stale:{stage}:{entered}`. */
  event_key: string;
  event_type: string;
  event_subtype: string | null;
  /** JSON object: the event's attributes (the card's are read at apply time and stored with them). */
  attributes: string;
  contact_id: number | null;
  conversation_id: number | null;
  occurred_at: number;
  created_at: number;
}

/** A rule applied to a card for an event: the score is the sum of these plus the checklist. */
export interface LeadScoreApplicationsTable {
  id: Generated<number>;
  account_id: number;
  card_id: number;
  event_id: number;
  /** Kept after the rule is deleted (until the card is recalculated). */
  rule_id: number;
  rule_name: string;
  points: number;
  /** The event's time (cooldowns compare these). */
  applied_at: number;
}

export interface LeadScoreLogsTable {
  id: Generated<number>;
  account_id: number;
  card_id: number;
  contact_id: number | null;
  rule_id: number | null;
  rule_name: string | null;
  event_type: string | null;
  event_subtype: string | null;
  points: number;
  old_score: number;
  new_score: number;
  old_category: string;
  new_category: string;
  /** rule_applied, checklist, manual_override, recalculation. */
  reason: string;
  created_at: number;
}

export type BulkJobStatus = 'queued' | 'running' | 'completed' | 'failed';

/** A `bulk_recalculate` run: its progress, read by the progress endpoint. */
export interface LeadScoreBulkJobsTable {
  id: Generated<number>;
  account_id: number;
  status: BulkJobStatus;
  total: number;
  processed: number;
  /** The last card done: the next batch starts after it (so a re-run resumes, never repeats). */
  last_card_id: number;
  error: string | null;
  created_by: number | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export interface LeadScoringTables {
  lead_score_rules: LeadScoreRulesTable;
  lead_score_events: LeadScoreEventsTable;
  lead_score_applications: LeadScoreApplicationsTable;
  lead_score_logs: LeadScoreLogsTable;
  lead_score_bulk_jobs: LeadScoreBulkJobsTable;
}

export type LeadScoreRule = Selectable<LeadScoreRulesTable>;
export type LeadScoreEvent = Selectable<LeadScoreEventsTable>;
export type LeadScoreApplication = Selectable<LeadScoreApplicationsTable>;
export type LeadScoreLog = Selectable<LeadScoreLogsTable>;
export type LeadScoreBulkJob = Selectable<LeadScoreBulkJobsTable>;
