import formbody from '@fastify/formbody';
import { Type } from '@sinclair/typebox';
import type { FastifyError, FastifyRequest } from 'fastify';
import { chatErrorBody, logRefusal, mapError, requestLanguage } from '../../../core/http/error-handler.js';
import { fieldSentence, HttpError, invalidField } from '../../../core/http/errors.js';
import {
  escapeHtml,
  field,
  hidden,
  notice,
  pageLanguage,
  pageWords,
  sendPage,
  strong,
  type PageWords,
} from '../../../core/http/pages.js';
import { Html, phrase, t, type Text } from '../../../core/i18n/catalogue.js';
import { ChatErrorBody } from '../../../core/http/schemas.js';
import type { ChatRoutes } from '../../module.types.js';
import { FORGOT_PASSWORD_MESSAGE } from './invitations.routes.js';
import { ForgotForm, NewPageQuery, PageForm, PageQuery } from './invitations.schema.js';
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

/**
 * The dashboard's sign-in page (/app/login), relative to these pages' paths (/auth/password/...),
 * so that it also works behind a path prefix; `email` fills the address in.
 */
const signInHref = (email?: string) => `../../app/login${email ? `?${new URLSearchParams({ email }).toString()}` : ''}`;
const backToSignIn = (words: PageWords) =>
  `<p class="muted"><a href="${signInHref()}">${words.html('Back to sign in')}</a></p>`;

/** The link's language, kept through the form: a hidden field. */
const localeField = (words: PageWords) => hidden('locale', words.language);

function titleOf(link: LinkPreview): Text {
  return link.purpose === 'invitation' && link.accountName
    ? t('Join %{account}', { account: link.accountName })
    : 'Choose a new password';
}

function form(words: PageWords, token: string, link: LinkPreview, error?: Text): string {
  const intro =
    link.purpose === 'invitation'
      ? t('Choose the password of %{email} to start working in %{account}.', {
          email: strong(link.email),
          account: link.accountName ?? t('your account'),
        })
      : t('Choose a new password for %{email}.', { email: strong(link.email) });
  const rules = `required minlength="${MIN_PASSWORD}" maxlength="${MAX_PASSWORD}" autocomplete="new-password"`;
  return (
    (error ? notice('error', words.text(error)) : '') +
    `<p>${words.html(intro)}</p>` +
    // `edit` is this page's own path, relative so that it also works behind a path prefix.
    `<form method="post" action="edit">${hidden('reset_password_token', token)}${localeField(words)}` +
    // The address, for password managers to file the new password under.
    `<input type="hidden" name="username" autocomplete="username" value="${escapeHtml(link.email)}">` +
    field('password', words.text('Password'), 'password', rules) +
    field('password_confirmation', words.text('Repeat it'), 'password', rules) +
    `<p class="muted">${words.html(t('At least %{min} characters.', { min: MIN_PASSWORD }))}</p>` +
    `<button type="submit">${words.html('Set my password')}</button></form>`
  );
}

const wantsHtml = (request: FastifyRequest) => /text\/html/i.test(String(request.headers.accept ?? ''));

/** The `locale` a refused request's link or form carried, if any. */
function linkedLocale(request: FastifyRequest): string | undefined {
  const from =
    (request.query as { locale?: unknown } | undefined)?.locale ?? (request.body as { locale?: unknown })?.locale;
  return typeof from === 'string' ? from : undefined;
}

export const passwordPagesRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.invitations;
  // Forms post application/x-www-form-urlencoded: understood on these routes only.
  await app.register(formbody);
  // Refusals (a link that does not work, a malformed form, too many requests): a page for
  // browsers, the service's error body for everyone else.
  app.setErrorHandler(async (err: FastifyError, request, reply) => {
    const language = requestLanguage(request);
    const mapped = mapError(err, language);
    logRefusal(request, err, mapped, language);
    if (mapped.headers) reply.headers(mapped.headers);
    reply.header('vary', 'Accept');
    if (!wantsHtml(request))
      return reply
        .code(mapped.status)
        .header('cache-control', 'no-store')
        .send(chatErrorBody(mapped.status, mapped.code, mapped.message, mapped.details));
    const words = pageWords(pageLanguage(request, linkedLocale(request)));
    const text =
      mapped.status >= 500
        ? words.text('Something went wrong; please try again.')
        : mapError(err, words.language).message;
    // A link that no longer works: the way to a new one (`new` is a sibling of both pages' paths).
    const next =
      mapped.code === 'invalid_reset_token'
        ? `<p><a href="new?locale=${words.language}">${words.html('Ask for a new link')}</a></p>`
        : '';
    return sendPage(reply, mapped.status, words, 'Set your password', notice('error', text) + next);
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
      const words = pageWords(pageLanguage(req, req.query.locale, link.accountLanguage));
      return sendPage(reply, 200, words, titleOf(link), form(words, token, link));
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
      const words = pageWords(pageLanguage(req, req.body.locale, link.accountLanguage));
      try {
        const { user } = await svc.setPassword(
          { token, password: req.body.password ?? '', confirmation: req.body.password_confirmation ?? '' },
          req.ip,
        );
        const signIn = new Html(`<a href="${escapeHtml(signInHref(user.email))}">${words.html('Sign in')}</a>`);
        const done = t('Your password is set. %{signIn} as %{email} with it.', { signIn, email: user.email });
        return sendPage(reply, 200, words, 'Your password is set', `<p class="ok">${words.html(done)}</p>`);
      } catch (err) {
        // A password that does not fit: for a browser, the form again with what to change.
        const problem = err instanceof HttpError ? err.details?.[0]?.field : undefined;
        if (wantsHtml(req) && err instanceof HttpError && err.statusCode === 422 && problem !== 'reset_password_token')
          return sendPage(reply, 422, words, titleOf(link), form(words, token, link, sentence(err)));
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
        querystring: NewPageQuery,
        response: { 200: HTML },
      },
    },
    async (req, reply) => {
      const words = pageWords(pageLanguage(req, req.query.locale));
      return sendPage(reply, 200, words, 'Forgot your password?', forgotForm(words));
    },
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
      const words = pageWords(pageLanguage(req, req.body.locale));
      if (!/^[^\s@]+@[^\s@]+$/.test(email)) {
        if (!wantsHtml(req)) throw invalidField('email', 'is not an e-mail address');
        const again = forgotForm(words, 'Enter the e-mail address you sign in with.');
        return sendPage(reply, 422, words, 'Forgot your password?', again);
      }
      // The e-mail is written in the page's language (the link's, else the browser's).
      await svc.forgot(email, req.ip, words.language);
      const sent = notice('ok', words.text(t('%{sentence}.', { sentence: phrase(FORGOT_PASSWORD_MESSAGE) })));
      return sendPage(reply, 200, words, 'Check your e-mail', sent + backToSignIn(words));
    },
  );
};

function forgotForm(words: PageWords, error?: Text): string {
  return (
    (error ? notice('error', words.text(error)) : '') +
    `<p>${words.html('Enter the e-mail address you sign in with: a link to choose a new password will be sent to it.')}</p>` +
    `<form method="post" action="new">${localeField(words)}` +
    field('email', words.text('E-mail'), 'email', 'required maxlength="255" autocomplete="email"') +
    `<button type="submit">${words.html('Send me a link')}</button></form>` +
    backToSignIn(words)
  );
}

/**
 * A refused password as a person reads it on the page: "The password is too short (minimum is 8
 * characters)." Known problems have their own sentence (the password is the subject, so Portuguese
 * agrees with "senha"); another one is named as the field problem.
 */
function sentence(err: HttpError): Text {
  const detail = err.details?.[0];
  if (!detail) return err.text;
  const { key, params } = phrase(detail.message);
  if (detail.field === 'password_confirmation') return "The repeated password doesn't match password.";
  if (key === 'is too short (minimum is %{min} characters)')
    return t('The password is too short (minimum is %{min} characters).', { min: MIN_PASSWORD });
  if (key === 'is too long (maximum is %{max} characters)')
    return t('The password is too long (maximum is %{max} characters).', { max: MAX_PASSWORD });
  return t('%{sentence}.', { sentence: fieldSentence({ field: detail.field, message: { key, params } }) });
}
