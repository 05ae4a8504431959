import { render } from '../../../core/i18n/catalogue.js';
import type { Language } from '../../../core/i18n/language.js';
import { parseJsonObject, toIso } from '../../../core/time.js';
import type { Problem } from './automation-actions.js';
import { actionsOf } from './pipeline-automations.engine.js';
import type { AutomationStats } from './pipeline-automations.service.js';
import type { ValidationResult } from './pipeline-automations.validation.js';
import type {
  PipelineAutomation,
  PipelineAutomationAuditLog,
  PipelineAutomationRun,
} from './pipeline-automations.tables.js';

/** A validation's problems in the caller's language. */
export function presentValidation(result: ValidationResult, language: Language) {
  const problems = (list: Problem[]) => list.map((p) => ({ path: p.path, message: render(p.message, language) }));
  return { valid: result.valid, errors: problems(result.errors), warnings: problems(result.warnings) };
}

/**
 * An automation as the API shows it (docs/spec/decisions.md §9); `withSecret` adds the secret that signs its
 * `send_webhook` deliveries (only in the response that created it).
 */
export function presentAutomation(a: PipelineAutomation, options: { withSecret?: boolean } = {}) {
  return {
    id: a.id,
    account_id: Number(a.account_id),
    name: a.name,
    description: a.description,
    pipeline_id: a.pipeline_id === null ? null : Number(a.pipeline_id),
    trigger: a.trigger,
    trigger_config: parseJsonObject(a.trigger_config),
    conditions: parseJsonObject(a.conditions),
    actions: actionsOf(a),
    is_active: Number(a.is_active) === 1,
    executions_count: Number(a.executions_count),
    last_executed_at: toIso(a.last_executed_at === null ? null : Number(a.last_executed_at)),
    created_at: toIso(Number(a.created_at)),
    updated_at: toIso(Number(a.updated_at)),
    ...(options.withSecret ? { webhook_secret: a.webhook_secret } : {}),
  };
}

function actionsOfRun(run: PipelineAutomationRun): { type: string; status: string; error: string | null }[] {
  try {
    const parsed = JSON.parse(run.actions) as unknown;
    return Array.isArray(parsed) ? (parsed as { type: string; status: string; error: string | null }[]) : [];
  } catch {
    return [];
  }
}

export function presentRun(run: PipelineAutomationRun) {
  return {
    id: run.id,
    status: run.status,
    trigger: run.trigger,
    card_id: Number(run.subject_id),
    started_at: toIso(Number(run.started_at)),
    finished_at: toIso(Number(run.finished_at)),
    duration_ms: Number(run.duration_ms),
    actions: actionsOfRun(run),
    error: run.error,
  };
}

export function presentStats(stats: AutomationStats) {
  return { ...stats, last_executed_at: toIso(stats.last_executed_at) };
}

export function presentAudit(log: PipelineAutomationAuditLog) {
  return {
    id: log.id,
    action: log.action,
    user: log.user_id === null ? null : { id: Number(log.user_id), name: log.user_name },
    changes: parseJsonObject(log.changes),
    created_at: toIso(Number(log.created_at)),
  };
}
