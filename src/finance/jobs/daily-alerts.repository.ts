import { sql, type Expression, type SqlBool } from 'kysely';
import type { Language } from '../../core/i18n/language.js';
import type { Q } from '../context.js';

/**
 * The daily job's read-only queries over the finance data (bills, invoices) joined with members,
 * their preferences and the notifications already created; and the claim of a day's run. Each
 * query is one set-based statement over all accounts (or one account), paged by key.
 */

export interface BillAlertCandidate {
  bill_id: number;
  account_id: number;
  user_id: number;
  supplier: string;
  description: string | null;
  amount_cents: number;
  currency: string;
  due_date: string;
  /** The account's language: the notification is written in it. */
  locale: Language;
}

export interface Cursor {
  billId: number;
  userId: number;
}

interface CandidateQuery {
  accountId?: number;
  /** The notification type whose dedupe key `type:<bill id>` must not exist yet. */
  type: 'bill_due_soon' | 'bill_overdue';
  after: Cursor | null;
  limit: number;
}

/**
 * (open bill, member) pairs selected by `billCondition` (on `b` and the preferences `p`) whose
 * member has no notification with the key `<type>:<bill id>` yet, ordered by bill id and user id.
 */
function candidates(q: Q, query: CandidateQuery, billCondition: (p: { b: string; p: string }) => Expression<SqlBool>) {
  let select = q
    .selectFrom('bills as b')
    .innerJoin('memberships as m', 'm.account_id', 'b.account_id')
    .innerJoin('accounts as a', 'a.id', 'b.account_id')
    .leftJoin('notification_preferences as p', (join) =>
      join.onRef('p.account_id', '=', 'm.account_id').onRef('p.user_id', '=', 'm.user_id'),
    )
    .select([
      'b.id as bill_id',
      'b.account_id',
      'm.user_id',
      'b.supplier',
      'b.description',
      'b.amount_cents',
      'b.currency',
      'b.due_date',
      'a.locale',
    ])
    .where('b.status', '=', 'open')
    .where(billCondition({ b: 'b', p: 'p' }))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('notifications as n')
            .select(sql`1`.as('one'))
            .whereRef('n.account_id', '=', 'm.account_id')
            .whereRef('n.user_id', '=', 'm.user_id')
            .where('n.dedupe_key', '=', sql<string>`${`${query.type}:`} || cast(b.id as text)`),
        ),
      ),
    );
  if (query.accountId !== undefined) select = select.where('b.account_id', '=', query.accountId);
  const after = query.after;
  if (after) {
    select = select.where((eb) =>
      eb.or([
        eb('b.id', '>', after.billId),
        eb.and([eb('b.id', '=', after.billId), eb('m.user_id', '>', after.userId)]),
      ]),
    );
  }
  return select.orderBy('b.id').orderBy('m.user_id').limit(query.limit).execute() as Promise<BillAlertCandidate[]>;
}

/**
 * Open bills due between today and each member's `daysBeforeDue` (no preference row: 3 days),
 * for members whose `billDueSoon` is on. `cutoffs[d]` is the date d days after today (UTC); the
 * member's cutoff is picked with a CASE over those dates (no date arithmetic in SQL, which the two
 * dialects spell differently).
 */
export function dueSoonCandidates(
  q: Q,
  query: Omit<CandidateQuery, 'type'> & { today: string; cutoffs: string[]; defaultDays: number },
) {
  const { today, cutoffs, defaultDays } = query;
  const cutoff = sql<string>`case coalesce(p.days_before_due, ${sql.lit(defaultDays)}) ${sql.join(
    cutoffs.map((date, days) => sql`when ${sql.lit(days)} then ${date}`),
    sql` `,
  )} end`;
  return candidates(
    q,
    { ...query, type: 'bill_due_soon' },
    () =>
      sql<SqlBool>`b.due_date >= ${today} and b.due_date <= ${cutoffs[cutoffs.length - 1]} and b.due_date <= ${cutoff} and coalesce(p.bill_due_soon, 1) = 1`,
  );
}

/** Open bills past due (due date before today, UTC) for members whose `billOverdue` is on. */
export function overdueCandidates(q: Q, query: Omit<CandidateQuery, 'type'> & { today: string }) {
  return candidates(
    q,
    { ...query, type: 'bill_overdue' },
    () => sql<SqlBool>`b.due_date < ${query.today} and coalesce(p.bill_overdue, 1) = 1`,
  );
}

/** Issued invoices past due, by id (keyset pages). */
export function overdueInvoices(q: Q, query: { accountId?: number; today: string; afterId: number; limit: number }) {
  let select = q
    .selectFrom('invoices')
    .select(['id', 'account_id'])
    .where('status', '=', 'issued')
    .where('due_date', '<', query.today)
    .where('id', '>', query.afterId);
  if (query.accountId !== undefined) select = select.where('account_id', '=', query.accountId);
  return select.orderBy('id').limit(query.limit).execute();
}
