import { sql, type Insertable } from 'kysely';
import type { Q } from '../../context.js';
import type { NotificationType, NotificationsTable } from '../../db/schema.js';

/** A preference column of notification_preferences that gates a notification type. */
export type PreferenceColumn = 'bill_due_soon' | 'bill_overdue' | 'payment_confirmed' | 'accountant_sent';

export interface ListFilter {
  unreadOnly: boolean;
  type?: NotificationType;
}

/** The caller's notifications in the account, with the list filters (each served by an index). */
function mine(q: Q, accountId: number, userId: number, filter: ListFilter) {
  let query = q.selectFrom('notifications').where('account_id', '=', accountId).where('user_id', '=', userId);
  if (filter.unreadOnly) query = query.where('read', '=', 0);
  if (filter.type) query = query.where('type', '=', filter.type);
  return query;
}

export async function listNotifications(
  q: Q,
  accountId: number,
  userId: number,
  filter: ListFilter,
  page: { limit: number; offset: number },
) {
  return mine(q, accountId, userId, filter)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countNotifications(q: Q, accountId: number, userId: number, filter: ListFilter): Promise<number> {
  const row = await mine(q, accountId, userId, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findNotification(q: Q, accountId: number, userId: number, id: number) {
  return q
    .selectFrom('notifications')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Marks one notification read (keeps the first read time); undefined when it is not the caller's. */
export async function markRead(q: Q, accountId: number, userId: number, id: number, now: number) {
  return q
    .updateTable('notifications')
    .set({ read: 1, read_at: sql<number>`coalesce(read_at, ${now})` })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
}

export async function markAllRead(q: Q, accountId: number, userId: number, now: number): Promise<number> {
  const result = await q
    .updateTable('notifications')
    .set({ read: 1, read_at: now })
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .where('read', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteNotification(q: Q, accountId: number, userId: number, id: number): Promise<boolean> {
  const result = await q
    .deleteFrom('notifications')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function deleteReadNotifications(q: Q, accountId: number, userId: number): Promise<number> {
  const result = await q
    .deleteFrom('notifications')
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .where('read', '=', 1)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Inserts notifications, skipping any whose (account, user, dedupe key) exists already (another
 * run, another instance). Returns how many were inserted.
 */
export async function insertNotifications(q: Q, rows: Insertable<NotificationsTable>[]): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await q
    .insertInto('notifications')
    .values(rows)
    .onConflict((oc) => oc.columns(['account_id', 'user_id', 'dedupe_key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

export interface MemberNotification {
  accountId: number;
  type: NotificationType;
  /** Only members whose preference column is on (no preference row counts as on); null: everyone. */
  preference: PreferenceColumn | null;
  /** Only the account's administrators. */
  adminsOnly?: boolean;
  title: string;
  message: string;
  data: string | null;
  dedupeKey: string | null;
  createdAt: number;
}

/**
 * One notification for every member of the account whose preference allows it, in one
 * INSERT ... SELECT (members joined with their preferences). Returns how many were inserted.
 */
export async function insertForMembers(q: Q, n: MemberNotification): Promise<number> {
  const text = (value: string | null) => sql<string>`cast(${value} as text)`;
  let members = q
    .selectFrom('memberships as m')
    .leftJoin('notification_preferences as p', (join) =>
      join.onRef('p.account_id', '=', 'm.account_id').onRef('p.user_id', '=', 'm.user_id'),
    )
    .select([
      'm.account_id',
      'm.user_id',
      text(n.type).as('type'),
      text(n.title).as('title'),
      text(n.message).as('message'),
      sql<number>`0`.as('read'),
      text(n.data).as('data'),
      text(n.dedupeKey).as('dedupe_key'),
      sql<number>`cast(${n.createdAt} as bigint)`.as('created_at'),
    ])
    .where('m.account_id', '=', n.accountId);
  if (n.preference) members = members.where(sql<number>`coalesce(${sql.ref(`p.${n.preference}`)}, 1)`, '=', 1);
  if (n.adminsOnly) {
    // The SuperAdmin counts as an administrator in every account they belong to.
    members = members.where(({ or, eb, exists, selectFrom }) =>
      or([
        eb('m.role', '=', 'admin'),
        exists(
          selectFrom('users as u').select('u.id').whereRef('u.id', '=', 'm.user_id').where('u.is_super_admin', '=', 1),
        ),
      ]),
    );
  }
  const result = await q
    .insertInto('notifications')
    .columns(['account_id', 'user_id', 'type', 'title', 'message', 'read', 'data', 'dedupe_key', 'created_at'])
    .expression(members)
    .onConflict((oc) => oc.columns(['account_id', 'user_id', 'dedupe_key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

export async function findPreferences(q: Q, accountId: number, userId: number) {
  return q
    .selectFrom('notification_preferences')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export interface PreferenceValues {
  bill_due_soon: number;
  bill_overdue: number;
  payment_confirmed: number;
  accountant_sent: number;
  days_before_due: number;
}

/** Creates the row with `initial` or updates only the `changes` of an existing one (one statement). */
export async function upsertPreferences(
  q: Q,
  accountId: number,
  userId: number,
  initial: PreferenceValues,
  changes: Partial<PreferenceValues>,
  now: number,
) {
  return q
    .insertInto('notification_preferences')
    .values({ account_id: accountId, user_id: userId, ...initial, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['account_id', 'user_id']).doUpdateSet({ ...changes, updated_at: now }))
    .returningAll()
    .executeTakeFirstOrThrow();
}
