import type { Insertable } from 'kysely';
import type { Q } from '../../context.js';
import type {
  LeadScoreApplication,
  LeadScoreApplicationsTable,
  LeadScoreEvent,
  LeadScoreEventsTable,
  LeadScoreLogsTable,
} from './lead-scoring.tables.js';

/**
 * The engine's SQL: stored events, applied rules and log rows. Cards are found, loaded and changed
 * through the pipeline's services (its card reads port: pipelines/card-reads.ts).
 */

/** Stores an event for a card; undefined when that (card, key) is already stored (a second delivery). */
export async function insertEvent(q: Q, values: Insertable<LeadScoreEventsTable>): Promise<LeadScoreEvent | undefined> {
  return q
    .insertInto('lead_score_events')
    .values(values)
    .onConflict((oc) => oc.columns(['card_id', 'event_key']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** A card's stored events in time order (recalculation replays them). */
export function eventsOfCard(q: Q, accountId: number, cardId: number): Promise<LeadScoreEvent[]> {
  return q
    .selectFrom('lead_score_events')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('card_id', '=', cardId)
    .orderBy('occurred_at')
    .orderBy('id')
    .execute();
}

/** Whether the card already has an event of this type for this conversation (first_response once). */
export async function hasEventFor(
  q: Q,
  accountId: number,
  cardId: number,
  eventType: string,
  conversationId: number,
): Promise<boolean> {
  const row = await q
    .selectFrom('lead_score_events')
    .select('id')
    .where('account_id', '=', accountId)
    .where('card_id', '=', cardId)
    .where('event_type', '=', eventType)
    .where('conversation_id', '=', conversationId)
    .executeTakeFirst();
  return row !== undefined;
}

/** When a rule last applied to a card at or before `at` (cooldowns). */
export async function lastApplication(
  q: Q,
  accountId: number,
  cardId: number,
  ruleId: number,
  at: number,
): Promise<number | null> {
  const row = await q
    .selectFrom('lead_score_applications')
    .select('applied_at')
    .where('account_id', '=', accountId)
    .where('card_id', '=', cardId)
    .where('rule_id', '=', ruleId)
    .where('applied_at', '<=', at)
    .orderBy('applied_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.applied_at) : null;
}

export async function insertApplications(q: Q, rows: Insertable<LeadScoreApplicationsTable>[]): Promise<void> {
  if (rows.length === 0) return;
  await q.insertInto('lead_score_applications').values(rows).execute();
}

export async function deleteApplications(q: Q, accountId: number, cardId: number): Promise<void> {
  await q
    .deleteFrom('lead_score_applications')
    .where('account_id', '=', accountId)
    .where('card_id', '=', cardId)
    .execute();
}

/** The sum of the points a card's applied rules gave. */
export async function appliedPoints(q: Q, accountId: number, cardId: number): Promise<number> {
  const row = await q
    .selectFrom('lead_score_applications')
    .select((eb) => eb.fn.sum<number>('points').as('points'))
    .where('account_id', '=', accountId)
    .where('card_id', '=', cardId)
    .executeTakeFirst();
  return Number(row?.points ?? 0);
}

/** What a card's score is made of: points per rule. */
export function factorsOfCard(
  q: Q,
  accountId: number,
  cardId: number,
): Promise<Pick<LeadScoreApplication, 'rule_id' | 'rule_name' | 'points'>[]> {
  return q
    .selectFrom('lead_score_applications')
    .select((eb) => ['rule_id', eb.fn.max('rule_name').as('rule_name'), eb.fn.sum<number>('points').as('points')])
    .where('account_id', '=', accountId)
    .where('card_id', '=', cardId)
    .groupBy('rule_id')
    .orderBy('rule_id')
    .execute() as Promise<Pick<LeadScoreApplication, 'rule_id' | 'rule_name' | 'points'>[]>;
}

export async function insertLogs(q: Q, rows: Insertable<LeadScoreLogsTable>[]): Promise<void> {
  if (rows.length === 0) return;
  await q.insertInto('lead_score_logs').values(rows).execute();
}
