import { requestedLanguage } from '../../core/i18n/language.js';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { App } from '../../core/http/app.types.js';
import { readAccessToken } from '../../core/http/compat.js';
import { forbidden, unauthorized } from '../../core/http/errors.js';
import type { FinanceContext, FinanceDeps } from '../context.js';
import { isAdmin } from '../context.js';
import { verifyAccessToken } from './access-token.js';
import { findAuthState } from './finance-auth.repository.js';

/**
 * Who may call a finance route, declared in its `config.access`:
 * - `member` (the default): a valid access token of a user who is still a member of the token's
 *   account; builds the FinanceContext (`ctxOf(req)`).
 * - `admin`: the same, and the membership is admin (or the user is the SuperAdmin); others get 403.
 * - `public`: no token (login, register, refresh, forgot/reset password, needs-setup, setup).
 * - `optional`: public, but a token, when one is sent, is checked as for `member` (a bad one is a
 *   401) and gives the context (`optionalCtxOf(req)`): accepting an invitation as a signed-in user.
 */
export type FinanceAccess = 'public' | 'optional' | 'member' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: FinanceAccess;
  }
  interface FastifyRequest {
    financeCtx?: FinanceContext;
  }
}

/**
 * Installs the access-token check on every route of the scope it is registered in. A token is
 * accepted when its signature and expiry are valid, its token version matches the user's (password
 * changes bump it), and the user is still a member of its account (one indexed query).
 */
export const financeAuthPlugin = fp<{ deps: FinanceDeps }>(async (app: App, { deps }) => {
  app.addHook('onRequest', async (request) => {
    const access: FinanceAccess = request.routeOptions.config?.access ?? 'member';
    if (access === 'public') return;
    const token = readAccessToken(request);
    if (!token && access === 'optional') return;
    if (!token) throw unauthorized('Missing access token');
    const claims = await verifyAccessToken(deps.secrets.jwtKey, token);
    if (!claims) throw unauthorized('Invalid or expired access token');
    const state = await findAuthState(deps.db, claims.userId, claims.accountId);
    if (!state || state.token_version !== claims.tokenVersion || !state.role)
      throw unauthorized('Invalid or expired access token');
    const ctx: FinanceContext = {
      accountId: claims.accountId,
      userId: claims.userId,
      role: state.role,
      isSuperAdmin: state.is_super_admin === 1,
      language: requestedLanguage(request.headers['accept-language']),
    };
    if (access === 'admin' && !isAdmin(ctx)) throw forbidden('Only administrators of this account may do this');
    request.financeCtx = ctx;
  });
});

/** The caller's context on an `access: 'optional'` route, or undefined when no token was sent. */
export function optionalCtxOf(request: FastifyRequest): FinanceContext | undefined {
  return request.financeCtx;
}

/** The context of a route with `access: 'member' | 'admin'`; set by the hook before the handler. */
export function ctxOf(request: FastifyRequest): FinanceContext {
  if (!request.financeCtx) throw unauthorized();
  return request.financeCtx;
}
