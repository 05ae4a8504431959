import { toUnix } from '../../../core/time.js';
import type { AutomationRule, AutomationRuleRun } from '../../db/schema.js';
import type { StoredAction } from './automation-rules.actions.js';

export interface StoredCondition {
  attribute_key: string;
  filter_operator: string;
  values: (string | number | boolean | null)[];
  query_operator: string | null;
}

function parseArray<T>(text: string): T[] {
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
}

export const conditionsOf = (rule: Pick<AutomationRule, 'conditions'>) => parseArray<StoredCondition>(rule.conditions);
export const actionsOf = (rule: Pick<AutomationRule, 'actions'>) => parseArray<StoredAction>(rule.actions);

/** Chatwoot's automation rule, with `created_at` beside Chatwoot's `created_on` (both UNIX seconds). */
export function presentRule(rule: AutomationRule) {
  return {
    id: rule.id,
    account_id: rule.account_id,
    name: rule.name,
    description: rule.description,
    event_name: rule.event_name,
    conditions: conditionsOf(rule),
    actions: actionsOf(rule),
    active: rule.active === 1,
    created_at: toUnix(rule.created_at),
    created_on: toUnix(rule.created_at),
  };
}

/** A rule's run (a row of `automation_runs`) in the shape the runs API has always had. */
export function presentRun(run: AutomationRuleRun) {
  return {
    id: run.id,
    rule_id: run.automation_id,
    event_name: run.trigger,
    event_id: run.event_id,
    conversation_id: run.subject_id,
    outcome: run.status,
    actions_applied: parseArray<string>(run.actions),
    error: run.error,
    created_at: toUnix(run.finished_at),
  };
}
