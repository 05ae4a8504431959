import type { Insertable } from 'kysely';
import { notFound } from '../../../core/http/errors.js';
import type { FinanceContext, FinanceDeps, Q } from '../../context.js';
import type { Notification, NotificationPreferences, NotificationsTable } from '../../db/schema.js';
import * as repo from './notifications.repository.js';
import type { MemberNotification } from './notifications.repository.js';
import type { NotificationListQuery, PreferencesBody } from './notifications.schema.js';
import { DEFAULT_DAYS_BEFORE_DUE } from './notifications.schema.js';

export type { MemberNotification, PreferenceColumn } from './notifications.repository.js';

const flag = (b: boolean | undefined) => (b === undefined ? undefined : b ? 1 : 0);

/**
 * In-service notifications of the calling user in the current account, and their alert
 * preferences. Other modules create notifications through `notifyMembers` (in their transaction).
 */
export class NotificationsService {
  constructor(private readonly deps: FinanceDeps) {}

  async list(ctx: FinanceContext, query: NotificationListQuery): Promise<{ rows: Notification[]; total: number }> {
    const filter = { unreadOnly: query.unreadOnly, type: query.type };
    const page = { limit: query.limit, offset: (query.page - 1) * query.limit };
    const [rows, total] = await Promise.all([
      repo.listNotifications(this.deps.db, ctx.accountId, ctx.userId, filter, page),
      repo.countNotifications(this.deps.db, ctx.accountId, ctx.userId, filter),
    ]);
    return { rows, total };
  }

  unreadCount(ctx: FinanceContext): Promise<number> {
    return repo.countNotifications(this.deps.db, ctx.accountId, ctx.userId, { unreadOnly: true });
  }

  /** Marks the caller's notification read (again is fine); another user's or account's id is 404. */
  async markRead(ctx: FinanceContext, id: number): Promise<Notification> {
    const row = await this.deps.db
      .transaction()
      .execute((trx) => repo.markRead(trx, ctx.accountId, ctx.userId, id, Date.now()));
    if (!row) throw notFound('Notification');
    return row;
  }

  markAllRead(ctx: FinanceContext): Promise<number> {
    return this.deps.db.transaction().execute((trx) => repo.markAllRead(trx, ctx.accountId, ctx.userId, Date.now()));
  }

  async delete(ctx: FinanceContext, id: number): Promise<void> {
    const deleted = await this.deps.db
      .transaction()
      .execute((trx) => repo.deleteNotification(trx, ctx.accountId, ctx.userId, id));
    if (!deleted) throw notFound('Notification');
  }

  deleteRead(ctx: FinanceContext): Promise<number> {
    return this.deps.db.transaction().execute((trx) => repo.deleteReadNotifications(trx, ctx.accountId, ctx.userId));
  }

  async preferences(ctx: FinanceContext): Promise<NotificationPreferences | undefined> {
    return repo.findPreferences(this.deps.db, ctx.accountId, ctx.userId);
  }

  /** Saves the given fields; the others keep their value (or default on the first save). */
  async updatePreferences(ctx: FinanceContext, body: PreferencesBody): Promise<NotificationPreferences> {
    const changes: Record<keyof repo.PreferenceValues, number | undefined> = {
      bill_due_soon: flag(body.billDueSoon),
      bill_overdue: flag(body.billOverdue),
      payment_confirmed: flag(body.paymentConfirmed),
      accountant_sent: flag(body.accountantSent),
      days_before_due: body.daysBeforeDue,
    };
    const defined = Object.fromEntries(
      Object.entries(changes).filter(([, v]) => v !== undefined),
    ) as Partial<repo.PreferenceValues>;
    const initial = {
      bill_due_soon: 1,
      bill_overdue: 1,
      payment_confirmed: 1,
      accountant_sent: 1,
      days_before_due: DEFAULT_DAYS_BEFORE_DUE,
      ...defined,
    };
    return this.deps.db
      .transaction()
      .execute((trx) => repo.upsertPreferences(trx, ctx.accountId, ctx.userId, initial, defined, Date.now()));
  }

  /**
   * Creates a notification for every member of the account whose preference allows it, in the
   * caller's transaction `q`; a `dedupeKey` makes it once per member. Returns how many were created.
   */
  notifyMembers(q: Q, notification: MemberNotification): Promise<number> {
    return repo.insertForMembers(q, notification);
  }

  /** Inserts prepared notifications, skipping existing dedupe keys; returns how many were created. */
  insertMany(q: Q, rows: Insertable<NotificationsTable>[]): Promise<number> {
    return repo.insertNotifications(q, rows);
  }
}
