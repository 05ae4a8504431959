import { languageOf } from '../../../core/i18n/language.js';
import formbody from '@fastify/formbody';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { HttpError } from '../../../core/http/errors.js';
import { escapeHtml, field, hidden, PAGE_HEADERS, renderPage } from '../../../core/http/pages.js';
import type { FinanceRoutes } from '../../routes.js';

/**
 * The pages the finance service's e-mails link to, served by the service itself (an operator may
 * point FINANCE_PUBLIC_URL at a front end of their own instead): choosing a new password from a
 * reset link, and accepting an invitation (a new user chooses a name and password; an existing user
 * confirms with theirs). Plain HTML forms posted back to the same path, no script; they call the
 * same services as the API, with the same rules and rate limits. Also confirming an e-mail
 * address: the link opens a page with one button, so that a mail scanner that fetches links does
 * not verify an address by itself.
 */

const TokenQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 512 })) });
const ResetForm = Type.Object({
  token: Type.String({ maxLength: 512 }),
  password: Type.String({ maxLength: 256 }),
  confirm: Type.String({ maxLength: 256 }),
});
const AcceptForm = Type.Object({
  token: Type.String({ maxLength: 512 }),
  password: Type.String({ maxLength: 256 }),
  confirm: Type.Optional(Type.String({ maxLength: 256 })),
  fullName: Type.Optional(Type.String({ maxLength: 200 })),
});

const page = (reply: FastifyReply, status: number, title: string, body: string) =>
  reply.code(status).headers(PAGE_HEADERS).send(renderPage({ title, body }));
const notice = (kind: 'error' | 'ok', text: string) => `<p class="${kind}">${escapeHtml(text)}</p>`;
const reason = (err: unknown) => (err instanceof HttpError ? err.message : 'Something went wrong; please try again.');
const statusOf = (err: unknown) => (err instanceof HttpError && err.statusCode < 500 ? err.statusCode : 500);
const MIN_PASSWORD = 8;

function resetForm(token: string, error?: string) {
  return (
    (error ? notice('error', error) : '') +
    `<form method="post" action="reset-password">${hidden('token', token)}` +
    field('password', 'New password', 'password', `required minlength="${MIN_PASSWORD}" autocomplete="new-password"`) +
    field('confirm', 'Repeat it', 'password', `required minlength="${MIN_PASSWORD}" autocomplete="new-password"`) +
    '<button type="submit">Change my password</button></form>'
  );
}

export const financePagesRoutes: FinanceRoutes = async (app, { services }) => {
  // Forms post application/x-www-form-urlencoded: understood on these routes only.
  await app.register(formbody);

  app.get(
    '/reset-password',
    { config: { access: 'public' }, schema: { hide: true, querystring: TokenQuery } },
    async (req, reply) => {
      const token = req.query.token ?? '';
      if (!token) return page(reply, 422, 'Reset your password', notice('error', 'This link has no reset token.'));
      return page(reply, 200, 'Choose a new password', resetForm(token));
    },
  );

  app.post(
    '/reset-password',
    { config: { access: 'public' }, schema: { hide: true, body: ResetForm } },
    async (req, reply) => {
      const { token, password, confirm } = req.body;
      if (password !== confirm)
        return page(reply, 422, 'Choose a new password', resetForm(token, 'The two passwords differ.'));
      if (password.length < MIN_PASSWORD) {
        return page(reply, 422, 'Choose a new password', resetForm(token, `Use at least ${MIN_PASSWORD} characters.`));
      }
      try {
        await services.passwords.reset({ token, password }, req.ip);
      } catch (err) {
        return page(reply, statusOf(err), 'Choose a new password', notice('error', reason(err)));
      }
      return page(reply, 200, 'Password changed', notice('ok', 'Your password was changed: sign in with it now.'));
    },
  );

  app.get(
    '/verify-email',
    { config: { access: 'public' }, schema: { hide: true, querystring: TokenQuery } },
    async (req, reply) => {
      const token = req.query.token ?? '';
      if (!token) return page(reply, 422, 'Confirm your address', notice('error', 'This link has no token.'));
      return page(
        reply,
        200,
        'Confirm your address',
        `<form method="post" action="verify-email">${hidden('token', token)}<button type="submit">Confirm my e-mail address</button></form>`,
      );
    },
  );

  app.post(
    '/verify-email',
    {
      config: { access: 'public' },
      schema: { hide: true, body: Type.Object({ token: Type.String({ maxLength: 512 }) }) },
    },
    async (req, reply) => {
      try {
        const user = await services.emailVerification.verify(req.body.token, req.ip);
        return page(
          reply,
          200,
          'Address confirmed',
          notice('ok', `${user.email} is confirmed. You can now invite members.`),
        );
      } catch (err) {
        return page(reply, statusOf(err), 'Confirm your address', notice('error', reason(err)));
      }
    },
  );

  app.get(
    '/accept-invitation',
    { config: { access: 'public' }, schema: { hide: true, querystring: TokenQuery } },
    async (req, reply) => {
      const token = req.query.token ?? '';
      try {
        const { invitation, passwordRequired } = await services.invitationAcceptance.preview(token, req.ip);
        return page(reply, 200, `Join ${invitation.account_name}`, acceptForm(token, invitation, passwordRequired));
      } catch (err) {
        return page(reply, statusOf(err), 'Invitation', notice('error', reason(err)));
      }
    },
  );

  app.post(
    '/accept-invitation',
    { config: { access: 'public' }, schema: { hide: true, body: AcceptForm } },
    async (req, reply) => {
      const { token, password, confirm, fullName } = req.body;
      let preview;
      try {
        preview = await services.invitationAcceptance.preview(token, req.ip);
      } catch (err) {
        return page(reply, statusOf(err), 'Invitation', notice('error', reason(err)));
      }
      const { invitation, passwordRequired } = preview;
      const again = (message: string, status = 422) =>
        page(
          reply,
          status,
          `Join ${invitation.account_name}`,
          notice('error', message) + acceptForm(token, invitation, passwordRequired),
        );
      try {
        if (passwordRequired) {
          if (password !== confirm) return again('The two passwords differ.');
          await services.invitationAcceptance.accept({ token, password, fullName }, undefined, req.ip);
        } else {
          // An existing user confirms with their own password: that is their sign-in.
          const session = await services.auth.login({ email: invitation.email, password }, req.ip);
          const caller = {
            accountId: session.account.id,
            userId: session.user.id,
            role: session.role,
            isSuperAdmin: session.user.is_super_admin === 1,
            language: languageOf(req.headers['accept-language']),
          };
          await services.invitationAcceptance.accept({ token }, caller, req.ip);
        }
      } catch (err) {
        return again(reason(err), statusOf(err));
      }
      return page(
        reply,
        200,
        `Welcome to ${invitation.account_name}`,
        notice(
          'ok',
          `You joined ${invitation.account_name} as ${invitation.role === 'admin' ? 'an administrator' : 'an agent'}. Sign in with ${invitation.email}.`,
        ),
      );
    },
  );
};

function acceptForm(
  token: string,
  invitation: { email: string; account_name: string; role: string },
  passwordRequired: boolean,
) {
  const intro = `<p>${escapeHtml(invitation.email)} is invited to join <strong>${escapeHtml(invitation.account_name)}</strong> as ${
    invitation.role === 'admin' ? 'an administrator' : 'an agent'
  }.</p>`;
  const fields = passwordRequired
    ? field('fullName', 'Your name', 'text', 'required maxlength="200" autocomplete="name"') +
      field(
        'password',
        'Choose a password',
        'password',
        `required minlength="${MIN_PASSWORD}" autocomplete="new-password"`,
      ) +
      field('confirm', 'Repeat it', 'password', `required minlength="${MIN_PASSWORD}" autocomplete="new-password"`)
    : '<p class="muted">You already have a user: confirm with your password.</p>' +
      field('password', 'Your password', 'password', 'required autocomplete="current-password"');
  return `${intro}<form method="post" action="accept-invitation">${hidden('token', token)}${fields}<button type="submit">Accept the invitation</button></form>`;
}
