import { parseJsonObject, toIso } from '../../../core/time.js';
import type { LeadScoreRule } from './lead-scoring.tables.js';

/** A rule as the API shows it (conversation-service.md, "Lead score rule"). */
export function presentRule(rule: LeadScoreRule) {
  return {
    id: rule.id,
    account_id: rule.account_id,
    name: rule.name,
    description: rule.description,
    event_type: rule.event_type,
    event_subtype: rule.event_subtype,
    conditions: parseJsonObject(rule.conditions),
    points: rule.points,
    enabled: rule.enabled === 1,
    priority: rule.priority,
    cooldown_minutes: rule.cooldown_minutes,
    created_at: toIso(rule.created_at),
    updated_at: toIso(rule.updated_at),
  };
}
