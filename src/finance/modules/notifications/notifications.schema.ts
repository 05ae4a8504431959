import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../../core/http/schemas.js';
import { IdPathParam } from '../../http/envelope.js';

export const NOTIFICATION_TYPES = [
  'bill_due_soon',
  'bill_overdue',
  'payment_confirmed',
  'accountant_sent',
  'system',
] as const;
export const NotificationTypeSchema = Type.Union(NOTIFICATION_TYPES.map((t) => Type.Literal(t)));

/** The largest `daysBeforeDue` (the daily job looks that far ahead at most). */
export const MAX_DAYS_BEFORE_DUE = 60;
export const DEFAULT_DAYS_BEFORE_DUE = 3;

export const NotificationSchema = Type.Object({
  id: Type.String(),
  type: NotificationTypeSchema,
  title: Type.String(),
  message: Type.String(),
  read: Type.Boolean(),
  readAt: Nullable(Type.String({ description: 'ISO 8601' })),
  data: Nullable(
    Type.Record(Type.String(), Type.Unknown(), {
      description: 'what the notification is about, e.g. {"billId": "12"}',
    }),
  ),
  createdAt: Type.String({ description: 'ISO 8601' }),
});

export const NotificationListQuery = Type.Object({
  page: Type.Integer({ minimum: 1, maximum: 100000, default: 1 }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  unreadOnly: Type.Boolean({ default: false, description: 'only unread notifications' }),
  type: Type.Optional(NotificationTypeSchema),
});
export type NotificationListQuery = Static<typeof NotificationListQuery>;

export const NotificationListSchema = Type.Object({
  notifications: Type.Array(NotificationSchema),
  total: Type.Integer({ description: 'how many match the filters' }),
  page: Type.Integer(),
  limit: Type.Integer(),
});

export const NotificationParams = Type.Object({ id: IdPathParam });

export const UnreadCountSchema = Type.Object({ unreadCount: Type.Integer() });
export const UpdatedCountSchema = Type.Object({ updatedCount: Type.Integer() });
export const DeletedCountSchema = Type.Object({ deletedCount: Type.Integer() });

export const PreferencesSchema = Type.Object({
  billDueSoon: Type.Boolean(),
  billOverdue: Type.Boolean(),
  paymentConfirmed: Type.Boolean(),
  accountantSent: Type.Boolean(),
  daysBeforeDue: Type.Integer({ minimum: 0, maximum: MAX_DAYS_BEFORE_DUE }),
});

/** Any of the preference fields; at least one; unknown fields are refused (a typo must not look saved). */
export const PreferencesBody = Type.Partial(PreferencesSchema, { minProperties: 1, additionalProperties: false });
export type PreferencesBody = Static<typeof PreferencesBody>;

export const DailyJobSummarySchema = Type.Object({
  day: Type.String({ description: "the UTC day the job ran for, 'YYYY-MM-DD'" }),
  accountId: Type.String({ description: 'the account the run covered' }),
  billDueSoon: Type.Integer({ description: 'bill_due_soon notifications created' }),
  billOverdue: Type.Integer({ description: 'bill_overdue notifications created' }),
  invoicesOverdue: Type.Integer({ description: 'invoices marked overdue (invoice.overdue recorded)' }),
  accountantReports: Type.Integer({ description: 'automatic accountant reports sent' }),
});
