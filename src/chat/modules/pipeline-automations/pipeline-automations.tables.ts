import type { Generated, Selectable } from 'kysely';
import type { AutomationRun } from '../../db/schema.js';

/** The triggers of docs/spec/decisions.md §9. */
export const TRIGGERS = [
  'card_created',
  'stage_change',
  'score_threshold',
  'deal_won',
  'deal_lost',
  'card_assigned',
  'time_in_stage',
  'manual',
] as const;
export type Trigger = (typeof TRIGGERS)[number];

/** An automation: `trigger_config` holds the trigger's settings (`threshold`/`direction`, `days`). */
export interface PipelineAutomationsTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  description: string | null;
  /** Restricts it to one pipeline's cards; null: every pipeline of the account. */
  pipeline_id: number | null;
  trigger: Trigger;
  trigger_config: string;
  conditions: string;
  actions: string;
  is_active: number;
  executions_count: number;
  last_executed_at: number | null;
  /** Signs its `send_webhook` deliveries; shown once, in the response that created the automation. */
  webhook_secret: string;
  /** round_robin assignment: the user the automation assigned last. */
  round_robin_cursor: number | null;
  created_at: number;
  updated_at: number;
}

export type RunStatus = 'succeeded' | 'failed' | 'skipped';

/**
 * One run of an automation on one card: a row of the shared `automation_runs` (core
 * 0013_automation_runs, moved there by 0131) with `automation_kind` 'pipeline_automation' and
 * `subject_type` 'card'. `dedupe_key` makes a scheduled check fire once per occasion
 * (time_in_stage: once per stage entry).
 */
export type PipelineAutomationRun = AutomationRun & { status: RunStatus };

export type AuditAction = 'created' | 'updated' | 'activated' | 'deactivated' | 'duplicated' | 'executed' | 'deleted';

/** Who changed what; kept after the automation is deleted (no foreign key on it). */
export interface PipelineAutomationAuditLogsTable {
  id: Generated<number>;
  account_id: number;
  automation_id: number;
  action: AuditAction;
  user_id: number | null;
  user_name: string | null;
  changes: string;
  created_at: number;
}

export interface PipelineAutomationTables {
  pipeline_automations: PipelineAutomationsTable;
  pipeline_automation_audit_logs: PipelineAutomationAuditLogsTable;
}

export type PipelineAutomation = Selectable<PipelineAutomationsTable>;
export type PipelineAutomationAuditLog = Selectable<PipelineAutomationAuditLogsTable>;
