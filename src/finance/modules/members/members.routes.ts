import { ctxOf } from '../../auth/finance-auth.plugin.js';
import { Envelope, MessageEnvelope, PageQuery, bearer, errorResponses, ok } from '../../http/envelope.js';
import type { FinanceRoutes } from '../../module.types.js';
import { presentMember } from './members.presenter.js';
import { MemberListSchema, MemberParams, MemberSchema, UpdateMemberBody } from './members.schema.js';

const tags = ['members'];
const admin = { access: 'admin' as const };

/**
 * Members of the caller's current account (the account of the access token); administrators only.
 * Adding one is an invitation: `POST /api/accounts/members` lives in invitations.routes.ts.
 */
export const membersRoutes: FinanceRoutes = async (app, { services }) => {
  const svc = services.members;

  app.get(
    '/api/accounts/members',
    {
      config: admin,
      schema: {
        tags,
        security: bearer,
        summary: 'List the members of the current account',
        querystring: PageQuery(20, 100),
        response: { 200: Envelope(MemberListSchema), ...errorResponses(401, 403, 422) },
      },
    },
    async (req) => {
      const { members, total } = await svc.list(ctxOf(req), req.query);
      return ok({ members: members.map(presentMember), total, page: req.query.page, limit: req.query.limit });
    },
  );

  app.put(
    '/api/accounts/members/:userId',
    {
      config: admin,
      schema: {
        tags,
        security: bearer,
        summary: "Change a member's role (an account keeps at least one administrator)",
        params: MemberParams,
        body: UpdateMemberBody,
        response: { 200: Envelope(MemberSchema), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) => ok(presentMember(await svc.updateRole(ctxOf(req), req.params.userId, req.body.role))),
  );

  app.delete(
    '/api/accounts/members/:userId',
    {
      config: admin,
      schema: {
        tags,
        security: bearer,
        summary: 'Remove a member from the current account (not the last administrator)',
        params: MemberParams,
        response: { 200: MessageEnvelope, ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) => {
      await svc.remove(ctxOf(req), req.params.userId);
      return ok(null, 'Member removed');
    },
  );
};
