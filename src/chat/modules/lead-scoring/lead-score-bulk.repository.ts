import type { Insertable, Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { LeadScoreBulkJob, LeadScoreBulkJobsTable } from './lead-scoring.tables.js';

export function insertBulkJob(q: Q, values: Insertable<LeadScoreBulkJobsTable>): Promise<LeadScoreBulkJob> {
  return q.insertInto('lead_score_bulk_jobs').values(values).returningAll().executeTakeFirstOrThrow();
}

export function findBulkJob(q: Q, accountId: number, id: number): Promise<LeadScoreBulkJob | undefined> {
  return q
    .selectFrom('lead_score_bulk_jobs')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function updateBulkJob(
  q: Q,
  accountId: number,
  id: number,
  values: Updateable<LeadScoreBulkJobsTable>,
): Promise<void> {
  await q
    .updateTable('lead_score_bulk_jobs')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .execute();
}
