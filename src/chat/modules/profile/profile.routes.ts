import { Type } from '@sinclair/typebox';
import { ChatErrorBody } from '../../../core/http/schemas.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentProfile, sessionHeaders } from './profile.presenter.js';
import { Profile, SignInBody } from './profile.schema.js';

export const profileRoutes: ChatRoutes = async (app, { services }) => {
  app.get(
    '/api/v1/profile',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['profile'],
        security: [{ userApiKey: [] }],
        summary: 'The calling user, with access token, pubsub token and accounts',
        response: { 200: Profile, 401: ChatErrorBody },
      },
    },
    async (req) => {
      const actor = req.actor;
      if (actor?.type !== 'user') throw new Error('auth hook let a non-user through');
      return presentProfile(
        await services.profile.profile(actor.user, { token: req.accessToken, membershipEpoch: req.membershipEpoch }),
      );
    },
  );

  app.post(
    '/auth/sign_in',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['profile'],
        summary:
          'Sign in with e-mail and password, or with the token of a platform SSO link (10 attempts a minute per e-mail, 30 per client address); answers the user with its access_token, and the devise-token headers access-token, client, uid, token-type and expiry of a new sign-in session',
        body: SignInBody,
        response: { 200: Type.Object({ data: Profile }), 401: ChatErrorBody, 422: ChatErrorBody, 429: ChatErrorBody },
      },
    },
    async (req, reply) => {
      const signedIn = await services.profile.signIn(req.body, req.ip);
      void reply.headers(sessionHeaders(signedIn.user.email, signedIn.session));
      return { data: presentProfile(signedIn) };
    },
  );

  app.delete(
    '/auth/sign_out',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['profile'],
        security: [{ userApiKey: [] }],
        summary: 'End the sign-in session whose devise-token headers (access-token, client, uid) the request carries',
        response: { 200: Type.Object({ success: Type.Boolean() }), 401: ChatErrorBody },
      },
    },
    async (req) => {
      const actor = req.actor;
      if (actor?.type !== 'user') throw new Error('auth hook let a non-user through');
      await services.profile.signOut(actor.user, req.sessionClient);
      return { success: true };
    },
  );
};
