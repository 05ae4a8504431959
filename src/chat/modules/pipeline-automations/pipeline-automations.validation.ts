import { HttpError, fieldSentence, unprocessable } from '../../../core/http/errors.js';
import type { Q } from '../../context.js';
import { validateConditions } from '../lead-scoring/lead-score.conditions.js';
import {
  ACTION_TYPES,
  ACTIONS,
  paramsOf,
  type ActionServices,
  type CheckContext,
  type Problem,
} from './automation-actions.js';
import { CARD_CONDITION_KEYS } from './automation-card.subject.js';
import { TRIGGERS } from './pipeline-automations.tables.js';
import { t } from '../../../core/i18n/catalogue.js';

/** An automation's configuration, as stored or as a create/update would leave it. */
export interface AutomationConfig {
  name: string;
  trigger: string;
  trigger_config: Record<string, unknown>;
  conditions: Record<string, unknown>;
  actions: Record<string, unknown>[];
}

export interface ValidationResult {
  valid: boolean;
  errors: Problem[];
  warnings: Problem[];
}

const KEYS = new Set<string>(CARD_CONDITION_KEYS);
const TRIGGER_SET = new Set<string>(TRIGGERS);

/** Every problem of the trigger's settings. */
function checkTrigger(config: AutomationConfig, errors: Problem[]) {
  const settings = config.trigger_config;
  const allowed: Record<string, string[]> = { score_threshold: ['threshold', 'direction'], time_in_stage: ['days'] };
  for (const key of Object.keys(settings))
    if (!(allowed[config.trigger] ?? []).includes(key))
      errors.push({
        path: `trigger_config.${key}`,
        message: t('is not a setting of %{trigger}', { trigger: config.trigger }),
      });
  if (config.trigger === 'score_threshold') {
    const threshold = settings.threshold;
    if (!Number.isInteger(threshold) || (threshold as number) < 0 || (threshold as number) > 100)
      errors.push({ path: 'trigger_config.threshold', message: 'must be an integer between 0 and 100' });
    if (settings.direction !== 'up' && settings.direction !== 'down')
      errors.push({ path: 'trigger_config.direction', message: 'must be up or down' });
  }
  if (config.trigger === 'time_in_stage') {
    const d = settings.days;
    if (!Number.isInteger(d) || (d as number) < 1 || (d as number) > 3650)
      errors.push({ path: 'trigger_config.days', message: 'must be an integer between 1 and 3650' });
  }
}

/** Every problem of the conditions: known keys, and operators and values the lead-score format accepts. */
function checkConditions(conditions: Record<string, unknown>, errors: Problem[]) {
  for (const [key, condition] of Object.entries(conditions)) {
    if (!KEYS.has(key)) {
      errors.push({
        path: `conditions.${key}`,
        message: t('is not a known key (%{keys})', { keys: CARD_CONDITION_KEYS.join(', ') }),
      });
      continue;
    }
    try {
      // The lead-score checks, on a key they know; the path is put back to ours.
      validateConditions({ value: condition });
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      for (const d of err.details ?? [])
        errors.push({ path: d.field.replace(/^conditions\.value/, `conditions.${key}`), message: d.message });
    }
  }
}

/**
 * Validates a configuration (docs/spec/decisions.md §9): the trigger and its settings, the conditions, and
 * each action's parameters (unknown stages, owners, bad templates). Lists every problem; never
 * throws for one. Warnings point at what works but is probably not meant.
 */
export async function validateAutomation(
  q: Q,
  accountId: number,
  config: AutomationConfig,
  services: ActionServices,
): Promise<ValidationResult> {
  const errors: Problem[] = [];
  const warnings: Problem[] = [];
  if (config.name.trim() === '') errors.push({ path: 'name', message: "can't be blank" });
  if (!TRIGGER_SET.has(config.trigger))
    errors.push({ path: 'trigger', message: t('must be one of %{values}', { values: TRIGGERS.join(', ') }) });
  else checkTrigger(config, errors);
  checkConditions(config.conditions, errors);
  if (
    (config.conditions.from_stage !== undefined || config.conditions.to_stage !== undefined) &&
    config.trigger !== 'stage_change'
  )
    warnings.push({ path: 'conditions', message: 'from_stage and to_stage are only set by stage_change' });
  if (config.actions.length === 0) errors.push({ path: 'actions', message: 'must hold at least one action' });
  for (const [i, action] of config.actions.entries()) {
    const path = `actions.${i}`;
    const definition = typeof action.type === 'string' ? ACTIONS[action.type] : undefined;
    if (!definition) {
      errors.push({
        path: `${path}.type`,
        message: t('must be one of %{values}', { values: ACTION_TYPES.join(', ') }),
      });
      continue;
    }
    const check: CheckContext = { q, accountId, path, errors, warnings, services };
    await definition.check(paramsOf(action), check);
  }
  return { valid: errors.length === 0, errors, warnings };
}

/** The 422 create and update answer: the validator's errors as the error body's details. */
export function invalidAutomation(result: ValidationResult): HttpError {
  const first = result.errors[0];
  return unprocessable(
    fieldSentence({ field: first.path, message: first.message }),
    result.errors.map((e) => ({ field: e.path, message: e.message })),
  );
}
