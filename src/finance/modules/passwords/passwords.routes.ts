import { languageOf } from '../../../core/i18n/language.js';
import { ctxOf } from '../../auth/finance-auth.plugin.js';
import { Envelope, MessageEnvelope, bearer, errorResponses, ok } from '../../http/envelope.js';
import type { FinanceRoutes } from '../../module.types.js';
import { TokenPairSchema } from '../auth/auth.schema.js';
import { ChangePasswordBody, ForgotPasswordBody, ResetPasswordBody } from './passwords.schema.js';

const tags = ['auth'];

/** The same answer whether or not the e-mail is registered. */
export const FORGOT_PASSWORD_MESSAGE =
  'If an account exists for this e-mail, a link to reset the password has been sent to it';

export const passwordsRoutes: FinanceRoutes = async (app, { services }) => {
  const svc = services.passwords;

  app.put(
    '/api/auth/password',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'Change the password; ends every session and returns a new pair for this one',
        body: ChangePasswordBody,
        response: { 200: Envelope(TokenPairSchema), ...errorResponses(401, 422, 429) },
      },
    },
    async (req) => ok(await svc.change(ctxOf(req), req.body), 'Password changed'),
  );

  app.post(
    '/api/auth/forgot-password',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'E-mail a password reset link (same answer for unknown e-mails)',
        body: ForgotPasswordBody,
        response: { 200: MessageEnvelope, ...errorResponses(422, 429) },
      },
    },
    async (req) => {
      await svc.forgot(req.body.email, req.ip, languageOf(req.headers['accept-language']));
      return ok(null, FORGOT_PASSWORD_MESSAGE);
    },
  );

  app.post(
    '/api/auth/reset-password',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Set a new password with the e-mailed token (once, within an hour)',
        body: ResetPasswordBody,
        response: { 200: MessageEnvelope, ...errorResponses(422, 429) },
      },
    },
    async (req) => {
      await svc.reset(req.body, req.ip);
      return ok(null, 'Password reset: sign in with the new password');
    },
  );
};
