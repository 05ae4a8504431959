import { Type } from '@sinclair/typebox';
import { languageOf } from '../../../core/i18n/language.js';
import { ctxOf } from '../../auth/finance-auth.plugin.js';
import { Envelope, bearer, errorResponses, ok } from '../../http/envelope.js';
import type { FinanceRoutes } from '../../module.types.js';
import { presentMembership, presentProfile, presentSession } from './auth.presenter.js';
import {
  AccountsQuery,
  LoginBody,
  MembershipSchema,
  NeedsSetupSchema,
  ProfileSchema,
  RefreshBody,
  RegisterBody,
  SessionSchema,
  SetupBody,
  SetupHeaders,
  SwitchAccountBody,
  TokenPairSchema,
} from './auth.schema.js';

const tags = ['auth'];
const publicRoute = { access: 'public' as const };

export const authRoutes: FinanceRoutes = async (app, { services }) => {
  const svc = services.auth;

  app.get(
    '/api/auth/needs-setup',
    {
      config: publicRoute,
      schema: {
        tags,
        summary: 'Whether the first user still has to be created',
        response: { 200: Envelope(NeedsSetupSchema) },
      },
    },
    async () => ok(await svc.needsSetup()),
  );

  app.post(
    '/api/auth/setup',
    {
      config: publicRoute,
      schema: {
        tags,
        summary: 'Create the first user (SuperAdmin) and their account; needs the setup token when one is configured',
        headers: SetupHeaders,
        body: SetupBody,
        response: { 201: Envelope(SessionSchema), ...errorResponses(401, 403, 409, 422, 429) },
      },
    },
    async (req, reply) => {
      const session = await svc.setup(req.body, req.headers['x-setup-token'], req.ip);
      return reply.status(201).send(ok(presentSession(session), 'Setup complete'));
    },
  );

  app.post(
    '/api/auth/register',
    {
      config: publicRoute,
      schema: {
        tags,
        summary: 'Register a user with a new account they administer (403 signup_closed when FINANCE_SIGNUP=closed)',
        body: RegisterBody,
        response: { 201: Envelope(SessionSchema), ...errorResponses(403, 409, 422, 429) },
      },
    },
    async (req, reply) =>
      reply
        .status(201)
        .send(
          ok(
            presentSession(await svc.register(req.body, req.ip, languageOf(req.headers['accept-language']))),
            'Registered',
          ),
        ),
  );

  app.post(
    '/api/auth/login',
    {
      config: publicRoute,
      schema: {
        tags,
        summary: 'Sign in with e-mail and password',
        body: LoginBody,
        response: { 200: Envelope(SessionSchema), ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (req) => ok(presentSession(await svc.login(req.body, req.ip))),
  );

  app.post(
    '/api/auth/refresh',
    {
      config: publicRoute,
      schema: {
        tags,
        summary: 'Exchange a refresh token for a new pair (rotation)',
        body: RefreshBody,
        response: { 200: Envelope(TokenPairSchema), ...errorResponses(401, 422) },
      },
    },
    async (req) => ok(await svc.refresh(req.body.refreshToken)),
  );

  app.get(
    '/api/auth/me',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'The calling user in the current account',
        response: { 200: Envelope(ProfileSchema), ...errorResponses(401) },
      },
    },
    async (req) => {
      const me = await svc.me(ctxOf(req));
      return ok(presentProfile(me.user, me.role, me.account));
    },
  );

  app.get(
    '/api/auth/accounts',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'The accounts the calling user belongs to, oldest membership first',
        querystring: AccountsQuery,
        response: { 200: Envelope(Type.Array(MembershipSchema)), ...errorResponses(401, 422) },
      },
    },
    async (req) => ok((await svc.accountsOf(ctxOf(req), req.query)).rows.map(presentMembership)),
  );

  app.post(
    '/api/auth/switch-account',
    {
      schema: {
        tags,
        security: bearer,
        summary: 'New tokens for another account of the calling user',
        body: SwitchAccountBody,
        response: { 200: Envelope(SessionSchema), ...errorResponses(401, 404, 422) },
      },
    },
    async (req) => ok(presentSession(await svc.switchAccount(ctxOf(req), Number(req.body.accountId)))),
  );
};
