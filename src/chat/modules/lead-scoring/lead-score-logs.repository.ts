import type { SelectQueryBuilder } from 'kysely';
import type { Q } from '../../context.js';
import type { ChatDatabase } from '../../db/schema.js';
import type { LeadScoreLog } from './lead-scoring.tables.js';

export interface LogFilter {
  cardId?: number;
  contactId?: number;
  ruleId?: number;
  eventType?: string;
  categoryChangesOnly?: boolean;
  /** Epoch ms, included. */
  from?: number;
  /** Epoch ms, excluded. */
  to?: number;
}

function filtered(q: Q, accountId: number, f: LogFilter): SelectQueryBuilder<ChatDatabase, 'lead_score_logs', object> {
  let query = q.selectFrom('lead_score_logs').where('account_id', '=', accountId);
  if (f.cardId !== undefined) query = query.where('card_id', '=', f.cardId);
  if (f.contactId !== undefined) query = query.where('contact_id', '=', f.contactId);
  if (f.ruleId !== undefined) query = query.where('rule_id', '=', f.ruleId);
  if (f.eventType !== undefined) query = query.where('event_type', '=', f.eventType);
  if (f.categoryChangesOnly) query = query.whereRef('old_category', '!=', 'new_category');
  if (f.from !== undefined) query = query.where('created_at', '>=', f.from);
  if (f.to !== undefined) query = query.where('created_at', '<', f.to);
  return query;
}

/** A page of log rows, newest first, and how many match. */
export async function listLogs(
  q: Q,
  accountId: number,
  f: LogFilter,
  page: number,
  perPage: number,
): Promise<{ rows: LeadScoreLog[]; total: number }> {
  const [rows, count] = await Promise.all([
    filtered(q, accountId, f)
      .selectAll()
      .orderBy('id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute(),
    filtered(q, accountId, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export function findLog(q: Q, accountId: number, id: number): Promise<LeadScoreLog | undefined> {
  return q
    .selectFrom('lead_score_logs')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}
