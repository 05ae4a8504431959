import { Nullable } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/finance-auth.plugin.js';
import { Envelope, MessageEnvelope, bearer, errorResponses, ok } from '../../http/envelope.js';
import type { FinanceRoutes } from '../../module.types.js';
import { presentSmtp } from './smtp.presenter.js';
import { SmtpSaveBody, SmtpSchema, SmtpTestResultSchema } from './smtp.schema.js';
import { t } from '../../../core/i18n/catalogue.js';

const tags = ['smtp'];
const admin = { access: 'admin' as const };

/** The current account's SMTP configuration; administrators only (agents get 403). */
export const smtpRoutes: FinanceRoutes = async (app, { services }) => {
  const svc = services.smtp;

  app.get(
    '/api/email/smtp',
    {
      config: admin,
      schema: {
        tags,
        security: bearer,
        summary: 'The SMTP configuration (never the password); data is null when none is saved',
        response: { 200: Envelope(Nullable(SmtpSchema)), ...errorResponses(401, 403) },
      },
    },
    async (req) => {
      const settings = await svc.get(ctxOf(req));
      return settings ? ok(presentSmtp(settings)) : ok(null, 'SMTP is not configured');
    },
  );

  app.post(
    '/api/email/smtp',
    {
      config: admin,
      schema: {
        tags,
        security: bearer,
        summary: 'Save the SMTP configuration (password required the first time; omit it later to keep it)',
        body: SmtpSaveBody,
        response: { 200: Envelope(SmtpSchema), ...errorResponses(401, 403, 422) },
      },
    },
    async (req) => ok(presentSmtp(await svc.save(ctxOf(req), req.body)), 'SMTP configuration saved'),
  );

  app.post(
    '/api/email/smtp/test',
    {
      config: admin,
      schema: {
        tags,
        security: bearer,
        summary: 'Send a test e-mail to the calling administrator with the saved configuration, now',
        response: { 200: Envelope(SmtpTestResultSchema), ...errorResponses(401, 403, 422) },
      },
    },
    async (req) => {
      const sent = await svc.sendTest(ctxOf(req));
      return ok(
        { to: sent.to, messageId: sent.messageId, response: sent.response },
        t('Test e-mail sent to %{email}: %{response}', { email: sent.to, response: sent.response }),
      );
    },
  );

  app.delete(
    '/api/email/smtp',
    {
      config: admin,
      schema: {
        tags,
        security: bearer,
        summary: 'Remove the SMTP configuration',
        response: { 200: MessageEnvelope, ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => {
      await svc.delete(ctxOf(req));
      return ok(null, 'SMTP configuration removed');
    },
  );
};
