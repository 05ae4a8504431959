import { requestLanguage } from '../../../core/http/error-handler.js';
import { render } from '../../../core/i18n/catalogue.js';
import { Type } from '@sinclair/typebox';
import { ChatErrorBody } from '../../../core/http/schemas.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentProfile, sessionHeaders } from '../profile/profile.presenter.js';
import { Profile } from '../profile/profile.schema.js';
import { ForgotPasswordAnswer, ForgotPasswordBody, SetPasswordBody } from './invitations.schema.js';
import { PASSWORD_LIMITS } from './invitations.service.js';

const tags = ['profile'];
const config = { auth: 'none' as const };

/** The same answer whether or not the address has a user. */
export const FORGOT_PASSWORD_MESSAGE =
  'If a user exists for this e-mail, a link to reset its password has been sent to it';

/** Chatwoot's password routes (devise_token_auth): ask for a reset link, and set the password with one. */
export const passwordRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.invitations;

  app.post(
    '/auth/password',
    {
      config,
      schema: {
        tags,
        summary: `E-mail a link to choose a new password (valid one hour, once); the same answer whether or not the address has a user (${PASSWORD_LIMITS.forgotPerEmail.limit} requests an hour per e-mail, ${PASSWORD_LIMITS.forgotPerIp.limit} per client address)`,
        body: ForgotPasswordBody,
        response: { 200: ForgotPasswordAnswer, 422: ChatErrorBody, 429: ChatErrorBody },
      },
    },
    async (req) => {
      const language = requestLanguage(req);
      await svc.forgot(req.body.email, req.ip, language);
      return { message: render(FORGOT_PASSWORD_MESSAGE, language) };
    },
  );

  app.put(
    '/auth/password',
    {
      config,
      schema: {
        tags,
        summary:
          'Set the password with the token of an e-mailed link (an invitation or a reset; once, before it expires); ends every sign-in session and answers as sign-in does, with a new one',
        body: SetPasswordBody,
        response: { 200: Type.Object({ data: Profile }), 422: ChatErrorBody, 429: ChatErrorBody },
      },
    },
    async (req, reply) => {
      const { reset_password_token: token, password, password_confirmation: confirmation } = req.body;
      const { user, session } = await svc.setPassword({ token, password, confirmation }, req.ip, { signIn: true });
      if (session) void reply.headers(sessionHeaders(user.email, session));
      return { data: presentProfile(await services.profile.profile(user)) };
    },
  );
};
