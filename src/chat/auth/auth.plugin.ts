import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { readAccessToken } from '../../core/http/compat.js';
import { forbidden, notFound, unauthorized } from '../../core/http/errors.js';
import type { App } from '../../core/http/app.types.js';
import type { AccountContext, Actor, ChatDeps } from '../context.js';
import { AuthCache, type AuthLookups } from './auth.cache.js';
import { userOfSession, type SessionHeaders } from './sessions.js';

/**
 * How a route is protected, declared in its `config`:
 * - `account` (the default inside the API scope): a user who is a member of the path's account,
 *   or an agent bot allowed there; builds `request.ctx`.
 * - `user`: any user token (profile).
 * - `platform`: a platform app token.
 * - `none`: public.
 */
export type AuthMode = 'none' | 'user' | 'account' | 'platform';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
    /** Only administrators of the account may call the route. */
    adminOnly?: boolean;
    /** Agent bot tokens may call the route (messages, status, priority, assignments). */
    allowBot?: boolean;
  }
  interface FastifyRequest {
    actor?: Actor;
    ctx?: AccountContext;
    /** The `client` of the sign-in session the request authenticated with (devise-token headers), if any. */
    sessionClient?: string;
    /**
     * The access token the request authenticated with (not a session's): an owner has one token
     * (access_tokens_owner_uidx), so the profile answers it without looking it up again.
     */
    accessToken?: string;
    /** The membership epoch read with the auth epoch, so the profile's cache needs no read of its own. */
    membershipEpoch?: number;
  }
}

/** The devise-token headers (`access-token`, `client`, `uid`) when all three are there. */
function readSessionHeaders(request: FastifyRequest): SessionHeaders | undefined {
  const one = (name: string) => {
    const value = request.headers[name];
    const text = (Array.isArray(value) ? value[0] : value)?.trim();
    return text && text.length <= 512 ? text : undefined;
  };
  const accessToken = one('access-token');
  const client = one('client');
  const uid = one('uid');
  return accessToken && client && uid ? { accessToken, client, uid } : undefined;
}

/**
 * Who is calling: an access token (`api_access_token`, `Api-Access-Token` or `Authorization:
 * Bearer`), or else a sign-in session's devise-token headers (sessions.ts).
 */
async function authenticate(deps: ChatDeps, auth: AuthLookups, request: FastifyRequest): Promise<Actor | undefined> {
  const token = readAccessToken(request);
  if (token) {
    const actor = await auth.actor(token);
    if (actor) request.accessToken = token;
    return actor;
  }
  const session = readSessionHeaders(request);
  if (!session) return undefined;
  const user = await userOfSession(deps.db, session);
  if (!user) return undefined;
  request.sessionClient = session.client;
  return { type: 'user', user };
}

function accountIdFrom(request: FastifyRequest): number | undefined {
  const raw = (request.params as Record<string, string | undefined>)?.accountId;
  if (raw === undefined || !/^[1-9]\d{0,9}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id <= 2147483647 ? id : undefined;
}

async function buildAccountContext(auth: AuthLookups, request: FastifyRequest, actor: Actor): Promise<AccountContext> {
  const accountId = accountIdFrom(request);
  if (accountId === undefined) throw notFound('Account');
  const config = request.routeOptions.config;
  if (actor.type === 'user') {
    const role = await auth.role(accountId, actor.user.id);
    // Not a member: the account does not exist as far as this token is concerned.
    if (!role) throw notFound('Account');
    if (config.adminOnly && role !== 'administrator')
      throw forbidden('Only administrators of this account may do this');
    return { accountId, actor, role, userId: actor.user.id };
  }
  if (actor.type === 'bot') {
    if (!(await auth.botAllowed(accountId, actor.bot))) throw notFound('Account');
    if (!config.allowBot || config.adminOnly) throw forbidden('Agent bots may not do this');
    return { accountId, actor, role: 'bot', userId: null };
  }
  throw unauthorized('A user or agent bot access token is required');
}

/** Installs the authentication hook on every route of the scope it is registered in. */
export const authPlugin = fp<{ deps: ChatDeps }>(async (app: App, { deps }) => {
  // One per app, as one per instance: each instance empties its own when the auth epoch moves.
  const cache = new AuthCache(deps.db);
  app.addHook('onRequest', async (request) => {
    const mode: AuthMode = request.routeOptions.config?.auth ?? 'account';
    if (mode === 'none') return;
    const auth = await cache.open();
    const actor = await authenticate(deps, auth, request);
    if (!actor) throw unauthorized();
    request.actor = actor;
    request.membershipEpoch = auth.membershipEpoch;
    if (mode === 'platform') {
      if (actor.type !== 'platform') throw unauthorized('A platform app token is required');
      return;
    }
    if (mode === 'user') {
      if (actor.type !== 'user') throw unauthorized('A user access token is required');
      return;
    }
    request.ctx = await buildAccountContext(auth, request, actor);
  });
});

/** The account context of a route with `auth: 'account'`; set by the hook before the handler runs. */
export function ctxOf(request: FastifyRequest): AccountContext {
  if (!request.ctx) throw unauthorized();
  return request.ctx;
}
