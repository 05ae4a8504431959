import { Type } from '@sinclair/typebox';
import { t } from '../../../core/i18n/catalogue.js';
import { languageOf } from '../../../core/i18n/language.js';
import { ctxOf } from '../../auth/finance-auth.plugin.js';
import { MessageEnvelope, bearer, errorResponses, ok } from '../../http/envelope.js';
import type { FinanceRoutes } from '../../module.types.js';

const tags = ['auth'];
const VerifyBody = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 200, description: 'the token from the e-mailed link' }),
});

/** Verifying a self-registered user's e-mail address (the page at /verify-email posts the same). */
export const emailVerificationRoutes: FinanceRoutes = async (app, { services }) => {
  const svc = services.emailVerification;

  app.post(
    '/api/auth/verify-email',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Verify the e-mail address with the e-mailed token (once, within 3 days)',
        body: VerifyBody,
        response: { 200: MessageEnvelope, ...errorResponses(422, 429) },
      },
    },
    async (req) => {
      const user = await svc.verify(req.body.token, req.ip);
      return ok(null, t('E-mail address %{email} verified', { email: user.email }));
    },
  );

  app.post(
    '/api/auth/verify-email/resend',
    {
      schema: {
        tags,
        security: bearer,
        summary:
          "E-mail the caller a new verification link (through SMTP_URL, else the account's SMTP server); a verified address needs none",
        response: { 200: MessageEnvelope, ...errorResponses(401, 422, 429) },
      },
    },
    async (req) => {
      const { already, to } = await svc.resend(ctxOf(req), languageOf(req.headers['accept-language']));
      const email = { email: to };
      return ok(
        null,
        already ? t('%{email} is already verified', email) : t('A verification link was sent to %{email}', email),
      );
    },
  );
};
