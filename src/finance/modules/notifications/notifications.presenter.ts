import { parseJsonObject, toIso } from '../../../core/time.js';
import { idString } from '../../context.js';
import type { Notification, NotificationPreferences } from '../../db/schema.js';
import { DEFAULT_DAYS_BEFORE_DUE } from './notifications.schema.js';

export const presentNotification = (n: Notification) => ({
  id: idString(n.id),
  type: n.type,
  title: n.title,
  message: n.message,
  read: n.read === 1,
  readAt: toIso(n.read_at),
  data: n.data === null ? null : parseJsonObject(n.data),
  createdAt: toIso(n.created_at),
});

/** A user's preferences; the defaults (every alert on, 3 days) when they never saved any. */
export const presentPreferences = (p: NotificationPreferences | undefined) => ({
  billDueSoon: p ? p.bill_due_soon === 1 : true,
  billOverdue: p ? p.bill_overdue === 1 : true,
  paymentConfirmed: p ? p.payment_confirmed === 1 : true,
  accountantSent: p ? p.accountant_sent === 1 : true,
  daysBeforeDue: p ? p.days_before_due : DEFAULT_DAYS_BEFORE_DUE,
});
