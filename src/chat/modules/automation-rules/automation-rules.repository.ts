import type { Insertable, Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type {
  AutomationRuleRun,
  AutomationRunOutcome,
  AutomationRunsTable,
  AutomationRulesTable,
} from '../../db/schema.js';
import type { ConversationCondition } from '../conversations/conversations.filter.js';

export async function insertRule(q: Q, values: Insertable<AutomationRulesTable>) {
  return q.insertInto('automation_rules').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findRule(q: Q, accountId: number, id: number) {
  return q
    .selectFrom('automation_rules')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A page of the account's rules, oldest first (automation_rules_account_event_idx leads with account_id). */
export async function listRules(q: Q, accountId: number, page: { limit: number; offset: number }) {
  return q
    .selectFrom('automation_rules')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** The account's active rules for any of `events`, in id order (automation_rules_account_event_idx). */
export async function activeRulesFor(q: Q, accountId: number, events: readonly string[]) {
  if (events.length === 0) return [];
  return q
    .selectFrom('automation_rules')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('event_name', 'in', [...events])
    .where('active', '=', 1)
    .orderBy('id')
    .execute();
}

export async function updateRule(q: Q, accountId: number, id: number, values: Updateable<AutomationRulesTable>) {
  return q
    .updateTable('automation_rules')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** The runs of conversation rules: this kind's rows of the shared `automation_runs`. */
const KIND = 'automation_rule';

/** Deletes a rule; its runs go with it (also by the foreign key on `rule_id`). */
export async function deleteRule(q: Q, accountId: number, id: number) {
  await q
    .deleteFrom('automation_runs')
    .where('account_id', '=', accountId)
    .where('automation_kind', '=', KIND)
    .where('automation_id', '=', id)
    .execute();
  await q.deleteFrom('automation_rules').where('account_id', '=', accountId).where('id', '=', id).execute();
}

/** A run as the engine records it; the kind and its cascade column are filled in here. */
export type NewRuleRun = Omit<
  Insertable<AutomationRunsTable>,
  'automation_kind' | 'rule_id' | 'pipeline_automation_id' | 'status'
> & { status: AutomationRunOutcome };

export async function insertRun(q: Q, values: NewRuleRun) {
  await q
    .insertInto('automation_runs')
    .values({ ...values, automation_kind: KIND, rule_id: values.automation_id })
    .execute();
}

/** A page of a rule's runs, newest first (automation_runs_automation_idx). */
export async function listRuns(
  q: Q,
  accountId: number,
  ruleId: number,
  page: { limit: number; offset: number },
): Promise<AutomationRuleRun[]> {
  const rows = await q
    .selectFrom('automation_runs')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('automation_kind', '=', KIND)
    .where('automation_id', '=', ruleId)
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return rows as AutomationRuleRun[];
}

/**
 * Whether the conversation (account + id) satisfies a rule's conditions now: one query with the
 * condition compiled by the conversation filter (whitelisted columns, every value bound).
 */
export async function conversationMatches(
  q: Q,
  accountId: number,
  conversationId: number,
  condition: ConversationCondition,
) {
  const row = await q
    .selectFrom('conversations')
    .select('conversations.id')
    .where('conversations.account_id', '=', accountId)
    .where('conversations.id', '=', conversationId)
    .where(condition)
    .executeTakeFirst();
  return row !== undefined;
}
