import { languageOf } from '../../../core/i18n/language.js';
import formbody from '@fastify/formbody';
import { Type } from '@sinclair/typebox';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { chatErrorBody, mapError } from '../../../core/http/error-handler.js';
import { HttpError, invalidField } from '../../../core/http/errors.js';
import { escapeHtml, field, hidden, PAGE_HEADERS, renderPage } from '../../../core/http/pages.js';
import { ChatErrorBody } from '../../../core/http/schemas.js';
import type { ChatRoutes } from '../../routes.js';
import { FORGOT_PASSWORD_MESSAGE } from './invitations.routes.js';
import { ForgotForm, PageForm, PageQuery } from './invitations.schema.js';
import { MAX_PASSWORD, MIN_PASSWORD, type LinkPreview } from './invitations.service.js';

/**
 * The page an invitation or reset link opens, served by the conversation service at the path of
 * Chatwoot's reset links (`/auth/password/edit?reset_password_token=...`): GET shows a form, the
 * form posts back to the same path. And `/auth/password/new`, where a person asks for a reset
 * link. Plain HTML, everything escaped, no script, a strict Content-Security-Policy
 * (core/http/pages.ts); they call the same service as `PUT` and `POST /auth/password`, with the same
 * rules and rate limits.
 */

const PATH = '/auth/password/edit';
const NEW_PATH = '/auth/password/new';
const HTML = { description: 'An HTML page', content: { 'text/html': { schema: Type.String() } } };
const config = { auth: 'none' as const };

const send = (reply: FastifyReply, status: number, title: string, body: string) =>
  reply.code(status).headers(PAGE_HEADERS).send(renderPage({ title, body }));
const notice = (kind: 'error' | 'ok', text: string) => `<p class="${kind}">${escapeHtml(text)}</p>`;

/**
 * The dashboard's sign-in page (/app/login), relative to these pages' paths (/auth/password/...),
 * so that it also works behind a path prefix; `email` fills the address in.
 */
const signInHref = (email?: string) => `../../app/login${email ? `?${new URLSearchParams({ email }).toString()}` : ''}`;
const backToSignIn = `<p class="muted"><a href="${signInHref()}">Back to sign in</a></p>`;

function titleOf(link: LinkPreview): string {
  return link.purpose === 'invitation' && link.accountName ? `Join ${link.accountName}` : 'Choose a new password';
}

function form(token: string, link: LinkPreview, error?: string): string {
  const intro =
    link.purpose === 'invitation'
      ? `<p>Choose the password of <strong>${escapeHtml(link.email)}</strong> to start working in ${escapeHtml(link.accountName ?? 'your account')}.</p>`
      : `<p>Choose a new password for <strong>${escapeHtml(link.email)}</strong>.</p>`;
  const rules = `required minlength="${MIN_PASSWORD}" maxlength="${MAX_PASSWORD}" autocomplete="new-password"`;
  return (
    (error ? notice('error', error) : '') +
    intro +
    // `edit` is this page's own path, relative so that it also works behind a path prefix.
    `<form method="post" action="edit">${hidden('reset_password_token', token)}` +
    // The address, for password managers to file the new password under.
    `<input type="hidden" name="username" autocomplete="username" value="${escapeHtml(link.email)}">` +
    field('password', 'Password', 'password', rules) +
    field('password_confirmation', 'Repeat it', 'password', rules) +
    `<p class="muted">At least ${MIN_PASSWORD} characters.</p>` +
    '<button type="submit">Set my password</button></form>'
  );
}

const wantsHtml = (request: FastifyRequest) => /text\/html/i.test(String(request.headers.accept ?? ''));

export const passwordPagesRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.invitations;
  // Forms post application/x-www-form-urlencoded: understood on these routes only.
  await app.register(formbody);
  // Refusals (a link that does not work, a malformed form, too many requests): a page for
  // browsers, the service's error body for everyone else.
  app.setErrorHandler(async (err: FastifyError, request, reply) => {
    const mapped = mapError(err);
    if (mapped.status >= 500) request.log.error({ err }, 'request failed');
    if (mapped.headers) reply.headers(mapped.headers);
    reply.header('vary', 'Accept');
    if (!wantsHtml(request))
      return reply
        .code(mapped.status)
        .header('cache-control', 'no-store')
        .send(chatErrorBody(mapped.status, mapped.code, mapped.message, mapped.details));
    const text = mapped.status >= 500 ? 'Something went wrong; please try again.' : mapped.message;
    // A link that no longer works: the way to a new one (`new` is a sibling of both pages' paths).
    const next = mapped.code === 'invalid_reset_token' ? '<p><a href="new">Ask for a new link</a></p>' : '';
    return send(reply, mapped.status, 'Set your password', notice('error', text) + next);
  });

  app.get(
    PATH,
    {
      config,
      // The link's token is in the query, and the request log writes URLs: this route logs
      // warnings and errors only, never its URL (SECURITY.md: tokens are never logged).
      logLevel: 'warn',
      schema: {
        tags: ['pages'],
        security: [],
        summary: 'The page an invitation or password reset link opens: a form to choose the password',
        querystring: PageQuery,
        response: { 200: HTML, 422: ChatErrorBody, 429: ChatErrorBody },
      },
    },
    async (req, reply) => {
      const token = req.query.reset_password_token ?? '';
      const link = await svc.preview(token, req.ip);
      return send(reply, 200, titleOf(link), form(token, link));
    },
  );

  app.post(
    PATH,
    {
      config,
      schema: {
        tags: ['pages'],
        security: [],
        summary: 'The form of the set-password page: sets the password once, then shows a confirmation',
        consumes: ['application/x-www-form-urlencoded'],
        body: PageForm,
        response: { 200: HTML, 422: ChatErrorBody, 429: ChatErrorBody },
      },
    },
    async (req, reply) => {
      const token = req.body.reset_password_token ?? '';
      const link = await svc.preview(token, req.ip);
      try {
        const { user } = await svc.setPassword(
          { token, password: req.body.password ?? '', confirmation: req.body.password_confirmation ?? '' },
          req.ip,
        );
        return send(
          reply,
          200,
          'Your password is set',
          `<p class="ok">Your password is set. <a href="${escapeHtml(signInHref(user.email))}">Sign in</a> as ` +
            `${escapeHtml(user.email)} with it.</p>`,
        );
      } catch (err) {
        // A password that does not fit: for a browser, the form again with what to change.
        const problem = err instanceof HttpError ? err.details?.[0]?.field : undefined;
        if (wantsHtml(req) && err instanceof HttpError && err.statusCode === 422 && problem !== 'reset_password_token')
          return send(reply, 422, titleOf(link), form(token, link, sentence(err)));
        throw err;
      }
    },
  );

  app.get(
    NEW_PATH,
    {
      config,
      schema: {
        tags: ['pages'],
        security: [],
        summary: 'A page to ask for a password reset link (a form posting to the same path)',
        response: { 200: HTML },
      },
    },
    async (_req, reply) => send(reply, 200, 'Forgot your password?', forgotForm()),
  );

  app.post(
    NEW_PATH,
    {
      config,
      schema: {
        tags: ['pages'],
        security: [],
        summary: 'The form of the reset request page: the same confirmation whatever the address (POST /auth/password)',
        consumes: ['application/x-www-form-urlencoded'],
        body: ForgotForm,
        response: { 200: HTML, 422: ChatErrorBody, 429: ChatErrorBody },
      },
    },
    async (req, reply) => {
      const email = (req.body.email ?? '').trim();
      if (!/^[^\s@]+@[^\s@]+$/.test(email)) {
        if (!wantsHtml(req)) throw invalidField('email', 'is not an e-mail address');
        return send(reply, 422, 'Forgot your password?', forgotForm('Enter the e-mail address you sign in with.'));
      }
      await svc.forgot(email, req.ip, languageOf(req.headers['accept-language']));
      return send(reply, 200, 'Check your e-mail', notice('ok', `${FORGOT_PASSWORD_MESSAGE}.`) + backToSignIn);
    },
  );
};

function forgotForm(error?: string): string {
  return (
    (error ? notice('error', error) : '') +
    '<p>Enter the e-mail address you sign in with: a link to choose a new password will be sent to it.</p>' +
    '<form method="post" action="new">' +
    field('email', 'E-mail', 'email', 'required maxlength="255" autocomplete="email"') +
    '<button type="submit">Send me a link</button></form>' +
    backToSignIn
  );
}

/** "password_confirmation doesn't match password" as a person reads it. */
function sentence(err: HttpError): string {
  const detail = err.details?.[0];
  if (!detail) return err.message;
  const what = detail.field === 'password_confirmation' ? 'The repeated password' : 'The password';
  return `${what} ${detail.message}.`;
}
