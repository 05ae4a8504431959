import { Nullable } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/finance-auth.plugin.js';
import { Envelope, MessageEnvelope, bearer, errorResponses, ok } from '../../http/envelope.js';
import type { FinanceRoutes } from '../../module.types.js';
import { presentAccountant, presentSentReport } from './accountant.presenter.js';
import { AccountantSaveBody, AccountantSchema, SendReportBody, SendReportResultSchema } from './accountant.schema.js';
import { t } from '../../../core/i18n/catalogue.js';

const tags = ['accountant'];
const admin = { access: 'admin' as const };

/**
 * The accountant's configuration and the monthly report. Any member may read the configuration
 * (it holds no secret, and the `accountant_sent` notifications name the address anyway); only
 * administrators save, remove it or send a report (agents get 403).
 */
export const accountantRoutes: FinanceRoutes = async (app, { services }) => {
  const svc = services.accountant;

  app.get(
    '/api/email/accountant',
    {
      schema: {
        tags,
        security: bearer,
        summary: "The accountant's configuration; data is null when none is saved",
        response: { 200: Envelope(Nullable(AccountantSchema)), ...errorResponses(401) },
      },
    },
    async (req) => {
      const settings = await svc.get(ctxOf(req));
      return settings ? ok(presentAccountant(settings)) : ok(null, 'The accountant is not configured');
    },
  );

  app.post(
    '/api/email/accountant',
    {
      config: admin,
      schema: {
        tags,
        security: bearer,
        summary: "Save the accountant's configuration (omitted options keep their value; defaults on the first save)",
        body: AccountantSaveBody,
        response: { 200: Envelope(AccountantSchema), ...errorResponses(401, 403, 422) },
      },
    },
    async (req) => ok(presentAccountant(await svc.save(ctxOf(req), req.body)), 'Accountant configuration saved'),
  );

  app.delete(
    '/api/email/accountant',
    {
      config: admin,
      schema: {
        tags,
        security: bearer,
        summary: "Remove the accountant's configuration",
        response: { 200: MessageEnvelope, ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => {
      await svc.delete(ctxOf(req));
      return ok(null, 'Accountant configuration removed');
    },
  );

  app.post(
    '/api/email/accountant/send',
    {
      config: admin,
      schema: {
        tags,
        security: bearer,
        summary:
          "Send the report of referenceMonth ('YYYY-MM', not in the future) to the accountant now, through the account's SMTP",
        body: SendReportBody,
        response: { 200: Envelope(SendReportResultSchema), ...errorResponses(401, 403, 422) },
      },
    },
    async (req) => {
      const sent = await svc.send(ctxOf(req), req.body.referenceMonth);
      const message = t('Report for %{month} sent to %{email}', { month: sent.referenceMonth, email: sent.email });
      return ok(presentSentReport(sent), message);
    },
  );
};
