import { ctxOf, optionalCtxOf } from '../../auth/finance-auth.plugin.js';
import { Envelope, MessageEnvelope, bearer, errorResponses, ok } from '../../http/envelope.js';
import type { FinanceRoutes } from '../../module.types.js';
import { presentSession } from '../auth/auth.presenter.js';
import { SessionSchema } from '../auth/auth.schema.js';
import { presentInvitation, presentInvitationPreview } from './invitations.presenter.js';
import {
  AcceptInvitationBody,
  InvitationListQuery,
  InvitationListSchema,
  InvitationParams,
  InvitationPreviewSchema,
  InvitationSchema,
  InvitationTokenParams,
  InviteBody,
} from './invitations.schema.js';
import { t } from '../../../core/i18n/catalogue.js';

const tags = ['invitations'];
const admin = { access: 'admin' as const };

/**
 * Invitations: administrators invite, list, resend and revoke within their current account; the
 * invitee looks the link up and accepts it through the public routes under /api/auth.
 */
export const invitationsRoutes: FinanceRoutes = async (app, { services }) => {
  const svc = services.invitations;
  const acceptance = services.invitationAcceptance;

  app.post(
    '/api/accounts/members',
    {
      config: admin,
      schema: {
        tags,
        security: bearer,
        summary:
          'Invite an e-mail address to the current account with a role (e-mails a link; a pending invitation of the address is renewed)',
        body: InviteBody,
        response: { 201: Envelope(InvitationSchema), ...errorResponses(401, 403, 409, 422) },
      },
    },
    async (req, reply) => {
      const { invitation, renewed } = await svc.invite(ctxOf(req), req.body);
      const message = renewed
        ? t('Invitation renewed and sent again to %{email}', { email: invitation.email })
        : t('Invitation sent to %{email}', { email: invitation.email });
      return reply.status(201).send(ok(presentInvitation(invitation), message));
    },
  );

  app.get(
    '/api/accounts/invitations',
    {
      config: admin,
      schema: {
        tags,
        security: bearer,
        summary: 'The invitations of the current account, newest first',
        querystring: InvitationListQuery,
        response: { 200: Envelope(InvitationListSchema), ...errorResponses(401, 403, 422) },
      },
    },
    async (req) => {
      const { rows, total } = await svc.list(ctxOf(req), req.query);
      const now = Date.now();
      return ok({
        invitations: rows.map((r) => presentInvitation(r, now)),
        total,
        page: req.query.page,
        limit: req.query.limit,
      });
    },
  );

  app.post(
    '/api/accounts/invitations/:id/resend',
    {
      config: admin,
      schema: {
        tags,
        security: bearer,
        summary: 'E-mail a pending invitation again with a new link and expiry (the earlier link stops working)',
        params: InvitationParams,
        response: { 200: Envelope(InvitationSchema), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (req) => {
      const invitation = await svc.resend(ctxOf(req), req.params.id);
      return ok(presentInvitation(invitation), t('Invitation sent again to %{email}', { email: invitation.email }));
    },
  );

  app.delete(
    '/api/accounts/invitations/:id',
    {
      config: admin,
      schema: {
        tags,
        security: bearer,
        summary: 'Revoke a pending invitation (its link stops working)',
        params: InvitationParams,
        response: { 200: MessageEnvelope, ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (req) => {
      await svc.revoke(ctxOf(req), req.params.id);
      return ok(null, 'Invitation revoked');
    },
  );

  app.get(
    '/api/auth/invitations/:token',
    {
      config: { access: 'public' },
      // The token is in the path: keep it out of the request log lines (which carry the URL).
      logLevel: 'warn',
      schema: {
        tags,
        summary: 'What an invitation link is for: account, e-mail, role, and whether a password must be chosen',
        params: InvitationTokenParams,
        response: { 200: Envelope(InvitationPreviewSchema), ...errorResponses(422, 429) },
      },
    },
    async (req) => ok(presentInvitationPreview(await acceptance.preview(req.params.token, req.ip))),
  );

  app.post(
    '/api/auth/invitations/accept',
    {
      config: { access: 'optional' },
      schema: {
        tags,
        security: [{}, ...bearer],
        summary:
          'Accept an invitation: a new address chooses password and fullName; an address that already has a user must be signed in as that user (Bearer)',
        body: AcceptInvitationBody,
        response: { 200: Envelope(SessionSchema), ...errorResponses(401, 403, 409, 422, 429) },
      },
    },
    async (req) =>
      ok(presentSession(await acceptance.accept(req.body, optionalCtxOf(req), req.ip)), 'Invitation accepted'),
  );
};
