import { ctxOf } from '../../auth/finance-auth.plugin.js';
import { idString } from '../../context.js';
import { Envelope, MessageEnvelope, bearer, errorResponses, ok } from '../../http/envelope.js';
import type { FinanceRoutes } from '../../module.types.js';
import { presentNotification, presentPreferences } from './notifications.presenter.js';
import {
  DailyJobSummarySchema,
  DeletedCountSchema,
  NotificationListQuery,
  NotificationListSchema,
  NotificationParams,
  NotificationSchema,
  PreferencesBody,
  PreferencesSchema,
  UnreadCountSchema,
  UpdatedCountSchema,
} from './notifications.schema.js';
import { t } from '../../../core/i18n/catalogue.js';

const tags = ['notifications'];

/**
 * The caller's own notifications in the current account, and their alert preferences. Static
 * paths (/read, /read-all, /unread-count, /preferences, /run-daily-job) win over `/:id` in the
 * router, so they are never taken for an id. Another user's or account's notification is 404.
 */
export const notificationsRoutes: FinanceRoutes = async (app, { services }) => {
  const svc = services.notifications;

  app.get(
    '/api/notifications',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'List my notifications in the current account, newest first',
        querystring: NotificationListQuery,
        response: { 200: Envelope(NotificationListSchema), ...errorResponses(401, 422) },
      },
    },
    async (req) => {
      const { rows, total } = await svc.list(ctxOf(req), req.query);
      return ok({ notifications: rows.map(presentNotification), total, page: req.query.page, limit: req.query.limit });
    },
  );

  app.get(
    '/api/notifications/unread-count',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'How many of my notifications are unread',
        response: { 200: Envelope(UnreadCountSchema), ...errorResponses(401) },
      },
    },
    async (req) => ok({ unreadCount: await svc.unreadCount(ctxOf(req)) }),
  );

  app.post(
    '/api/notifications/read-all',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Mark all my notifications read',
        response: { 200: Envelope(UpdatedCountSchema), ...errorResponses(401) },
      },
    },
    async (req) => {
      const updatedCount = await svc.markAllRead(ctxOf(req));
      return ok({ updatedCount }, 'All notifications marked as read');
    },
  );

  app.delete(
    '/api/notifications/read',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Delete my read notifications',
        response: { 200: Envelope(DeletedCountSchema), ...errorResponses(401) },
      },
    },
    async (req) => {
      const deletedCount = await svc.deleteRead(ctxOf(req));
      return ok({ deletedCount }, t('%{count} read notification(s) deleted', { count: deletedCount }));
    },
  );

  app.get(
    '/api/notifications/preferences',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'My alert preferences (defaults until saved)',
        response: { 200: Envelope(PreferencesSchema), ...errorResponses(401) },
      },
    },
    async (req) => ok(presentPreferences(await svc.preferences(ctxOf(req)))),
  );

  app.put(
    '/api/notifications/preferences',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Change any of my alert preferences',
        body: PreferencesBody,
        response: { 200: Envelope(PreferencesSchema), ...errorResponses(401, 422) },
      },
    },
    async (req) => ok(presentPreferences(await svc.updatePreferences(ctxOf(req), req.body)), 'Preferences saved'),
  );

  app.post(
    '/api/notifications/run-daily-job',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        security: bearer,
        summary:
          'Run the daily job now for the current account (due-soon and overdue alerts, overdue invoices, a due automatic accountant report); idempotent',
        response: { 200: Envelope(DailyJobSummarySchema), ...errorResponses(401, 403) },
      },
    },
    async (req) => {
      const ctx = ctxOf(req);
      const { accountId: _all, ...summary } = await services.dailyAlerts.run({ accountId: ctx.accountId });
      return ok({ ...summary, accountId: idString(ctx.accountId) }, 'Daily job run for this account');
    },
  );

  app.post(
    '/api/notifications/:id/read',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Mark one of my notifications read',
        params: NotificationParams,
        response: { 200: Envelope(NotificationSchema), ...errorResponses(401, 404, 422) },
      },
    },
    async (req) =>
      ok(presentNotification(await svc.markRead(ctxOf(req), req.params.id)), 'Notification marked as read'),
  );

  app.delete(
    '/api/notifications/:id',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Delete one of my notifications',
        params: NotificationParams,
        response: { 200: MessageEnvelope, ...errorResponses(401, 404, 422) },
      },
    },
    async (req) => {
      await svc.delete(ctxOf(req), req.params.id);
      return ok(null, 'Notification deleted');
    },
  );
};
