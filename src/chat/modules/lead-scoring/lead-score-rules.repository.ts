import type { Insertable, Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { LeadScoreRule, LeadScoreRulesTable } from './lead-scoring.tables.js';

/** The account's rules, in the order they apply (priority, then id). */
export function listRules(q: Q, accountId: number): Promise<LeadScoreRule[]> {
  return q
    .selectFrom('lead_score_rules')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('priority')
    .orderBy('id')
    .execute();
}

/** The enabled rules of one event type, in the order they apply. */
export function enabledRulesFor(q: Q, accountId: number, eventType: string): Promise<LeadScoreRule[]> {
  return q
    .selectFrom('lead_score_rules')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('event_type', '=', eventType)
    .where('enabled', '=', 1)
    .orderBy('priority')
    .orderBy('id')
    .execute();
}

/** Every enabled rule of the account (recalculation reads them once per batch). */
export function enabledRules(q: Q, accountId: number): Promise<LeadScoreRule[]> {
  return q
    .selectFrom('lead_score_rules')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('enabled', '=', 1)
    .orderBy('priority')
    .orderBy('id')
    .execute();
}

export async function findRule(q: Q, accountId: number, id: number): Promise<LeadScoreRule | undefined> {
  return q
    .selectFrom('lead_score_rules')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function insertRule(q: Q, values: Insertable<LeadScoreRulesTable>): Promise<LeadScoreRule> {
  return q.insertInto('lead_score_rules').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Inserts a default rule unless the account has it already (by its key); returns it when created. */
export async function insertDefaultRule(
  q: Q,
  values: Insertable<LeadScoreRulesTable> & { default_key: string },
): Promise<LeadScoreRule | undefined> {
  return q
    .insertInto('lead_score_rules')
    .values(values)
    .onConflict((oc) => oc.columns(['account_id', 'default_key']).where('default_key', 'is not', null).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function updateRule(
  q: Q,
  accountId: number,
  id: number,
  values: Updateable<LeadScoreRulesTable>,
): Promise<LeadScoreRule> {
  return q
    .updateTable('lead_score_rules')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteRule(q: Q, accountId: number, id: number): Promise<void> {
  await q.deleteFrom('lead_score_rules').where('account_id', '=', accountId).where('id', '=', id).execute();
}
