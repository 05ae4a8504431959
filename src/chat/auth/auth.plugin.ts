import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { readAccessToken } from '../../core/http/compat.js';
import { forbidden, notFound, unauthorized } from '../../core/http/errors.js';
import type { App } from '../../core/http/app-base.js';
import type { AccountContext, Actor, ChatDeps } from '../context.js';
import * as repo from './auth.repository.js';
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
  }
}

async function resolveActor(deps: ChatDeps, token: string): Promise<Actor | undefined> {
  const owner = await repo.findTokenOwner(deps.db, token);
  if (!owner) return undefined;
  switch (owner.owner_type) {
    case 'User': {
      const user = await repo.findUser(deps.db, owner.owner_id);
      return user ? { type: 'user', user } : undefined;
    }
    case 'AgentBot': {
      const bot = await repo.findBot(deps.db, owner.owner_id);
      return bot ? { type: 'bot', bot } : undefined;
    }
    case 'PlatformApp':
      return { type: 'platform', platformAppId: owner.owner_id };
    default:
      return undefined;
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
async function authenticate(deps: ChatDeps, request: FastifyRequest): Promise<Actor | undefined> {
  const token = readAccessToken(request);
  if (token) return resolveActor(deps, token);
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

async function buildAccountContext(deps: ChatDeps, request: FastifyRequest, actor: Actor): Promise<AccountContext> {
  const accountId = accountIdFrom(request);
  if (accountId === undefined) throw notFound('Account');
  const config = request.routeOptions.config;
  if (actor.type === 'user') {
    const role = await repo.findMembershipRole(deps.db, accountId, actor.user.id);
    // Not a member: the account does not exist as far as this token is concerned.
    if (!role) throw notFound('Account');
    if (config.adminOnly && role !== 'administrator')
      throw forbidden('Only administrators of this account may do this');
    return { accountId, actor, role, userId: actor.user.id };
  }
  if (actor.type === 'bot') {
    const allowed =
      actor.bot.account_id === accountId ||
      (actor.bot.account_id === null && (await repo.botConnectedToAccount(deps.db, accountId, actor.bot.id)));
    if (!allowed) throw notFound('Account');
    if (!config.allowBot || config.adminOnly) throw forbidden('Agent bots may not do this');
    return { accountId, actor, role: 'bot', userId: null };
  }
  throw unauthorized('A user or agent bot access token is required');
}

/** Installs the authentication hook on every route of the scope it is registered in. */
export const authPlugin = fp<{ deps: ChatDeps }>(async (app: App, { deps }) => {
  app.addHook('onRequest', async (request) => {
    const mode: AuthMode = request.routeOptions.config?.auth ?? 'account';
    if (mode === 'none') return;
    const actor = await authenticate(deps, request);
    if (!actor) throw unauthorized();
    request.actor = actor;
    if (mode === 'platform') {
      if (actor.type !== 'platform') throw unauthorized('A platform app token is required');
      return;
    }
    if (mode === 'user') {
      if (actor.type !== 'user') throw unauthorized('A user access token is required');
      return;
    }
    request.ctx = await buildAccountContext(deps, request, actor);
  });
});

/** The account context of a route with `auth: 'account'`; set by the hook before the handler runs. */
export function ctxOf(request: FastifyRequest): AccountContext {
  if (!request.ctx) throw unauthorized();
  return request.ctx;
}
