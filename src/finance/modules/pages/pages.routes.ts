import formbody from '@fastify/formbody';
import { Type } from '@sinclair/typebox';
import { HttpError } from '../../../core/http/errors.js';
import {
  field,
  hidden,
  notice,
  pageLanguage,
  pageWords,
  sendPage,
  strong,
  type PageWords,
} from '../../../core/http/pages.js';
import { t, type Text } from '../../../core/i18n/catalogue.js';
import type { FinanceRoutes } from '../../module.types.js';

/**
 * The pages the finance service's e-mails link to, served by the service itself (an operator may
 * point FINANCE_PUBLIC_URL at a front end of their own instead): choosing a new password from a
 * reset link, and accepting an invitation (a new user chooses a name and password; an existing user
 * confirms with theirs). Plain HTML forms posted back to the same path, no script; they call the
 * same services as the API, with the same rules and rate limits. Also confirming an e-mail
 * address: the link opens a page with one button, so that a mail scanner that fetches links does
 * not verify an address by itself. A page is in the language its link carries (the e-mail's), else
 * the invitation's account's, else the browser's.
 */

/** The language a link carries (the e-mail's), which its page is shown in: `en` or `pt-BR`. */
const LinkLocale = Type.Optional(Type.String({ maxLength: 10 }));
const TokenQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 512 })), locale: LinkLocale });
const ResetForm = Type.Object({
  token: Type.String({ maxLength: 512 }),
  password: Type.String({ maxLength: 256 }),
  confirm: Type.String({ maxLength: 256 }),
  locale: LinkLocale,
});
const AcceptForm = Type.Object({
  token: Type.String({ maxLength: 512 }),
  password: Type.String({ maxLength: 256 }),
  confirm: Type.Optional(Type.String({ maxLength: 256 })),
  fullName: Type.Optional(Type.String({ maxLength: 200 })),
  locale: LinkLocale,
});

/** Why a request failed, in the page's words; 5xx details stay in the log. */
const reason = (words: PageWords, err: unknown) =>
  words.text(err instanceof HttpError ? err.text : 'Something went wrong; please try again.');
const statusOf = (err: unknown) => (err instanceof HttpError && err.statusCode < 500 ? err.statusCode : 500);
const MIN_PASSWORD = 8;
const roleOf = (role: string) => (role === 'admin' ? t('an administrator') : t('an agent'));

function resetForm(words: PageWords, token: string, error?: Text) {
  return (
    (error ? notice('error', words.text(error)) : '') +
    `<form method="post" action="reset-password">${hidden('token', token)}${hidden('locale', words.language)}` +
    field(
      'password',
      words.text('New password'),
      'password',
      `required minlength="${MIN_PASSWORD}" autocomplete="new-password"`,
    ) +
    field(
      'confirm',
      words.text('Repeat it'),
      'password',
      `required minlength="${MIN_PASSWORD}" autocomplete="new-password"`,
    ) +
    `<button type="submit">${words.html('Change my password')}</button></form>`
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
      const words = pageWords(pageLanguage(req, req.query.locale));
      if (!token)
        return sendPage(
          reply,
          422,
          words,
          'Reset your password',
          notice('error', words.text('This link has no reset token.')),
        );
      return sendPage(reply, 200, words, 'Choose a new password', resetForm(words, token));
    },
  );

  app.post(
    '/reset-password',
    { config: { access: 'public' }, schema: { hide: true, body: ResetForm } },
    async (req, reply) => {
      const { token, password, confirm } = req.body;
      const words = pageWords(pageLanguage(req, req.body.locale));
      if (password !== confirm)
        return sendPage(
          reply,
          422,
          words,
          'Choose a new password',
          resetForm(words, token, 'The two passwords differ.'),
        );
      if (password.length < MIN_PASSWORD) {
        const tooShort = t('Use at least %{min} characters.', { min: MIN_PASSWORD });
        return sendPage(reply, 422, words, 'Choose a new password', resetForm(words, token, tooShort));
      }
      try {
        await services.passwords.reset({ token, password }, req.ip);
      } catch (err) {
        return sendPage(reply, statusOf(err), words, 'Choose a new password', notice('error', reason(words, err)));
      }
      const changed = notice('ok', words.text('Your password was changed: sign in with it now.'));
      return sendPage(reply, 200, words, 'Password changed', changed);
    },
  );

  app.get(
    '/verify-email',
    { config: { access: 'public' }, schema: { hide: true, querystring: TokenQuery } },
    async (req, reply) => {
      const token = req.query.token ?? '';
      const words = pageWords(pageLanguage(req, req.query.locale));
      if (!token)
        return sendPage(
          reply,
          422,
          words,
          'Confirm your address',
          notice('error', words.text('This link has no token.')),
        );
      return sendPage(
        reply,
        200,
        words,
        'Confirm your address',
        `<form method="post" action="verify-email">${hidden('token', token)}${hidden('locale', words.language)}` +
          `<button type="submit">${words.html('Confirm my e-mail address')}</button></form>`,
      );
    },
  );

  app.post(
    '/verify-email',
    {
      config: { access: 'public' },
      schema: { hide: true, body: Type.Object({ token: Type.String({ maxLength: 512 }), locale: LinkLocale }) },
    },
    async (req, reply) => {
      const words = pageWords(pageLanguage(req, req.body.locale));
      try {
        const user = await services.emailVerification.verify(req.body.token, req.ip);
        const confirmed = t('%{email} is confirmed. You can now invite members.', { email: user.email });
        return sendPage(reply, 200, words, 'Address confirmed', notice('ok', words.text(confirmed)));
      } catch (err) {
        return sendPage(reply, statusOf(err), words, 'Confirm your address', notice('error', reason(words, err)));
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
        const words = pageWords(pageLanguage(req, req.query.locale, invitation.account_locale));
        const title = t('Join %{account}', { account: invitation.account_name });
        return sendPage(reply, 200, words, title, acceptForm(words, token, invitation, passwordRequired));
      } catch (err) {
        const words = pageWords(pageLanguage(req, req.query.locale));
        return sendPage(reply, statusOf(err), words, 'Invitation', notice('error', reason(words, err)));
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
        const words = pageWords(pageLanguage(req, req.body.locale));
        return sendPage(reply, statusOf(err), words, 'Invitation', notice('error', reason(words, err)));
      }
      const { invitation, passwordRequired } = preview;
      const words = pageWords(pageLanguage(req, req.body.locale, invitation.account_locale));
      const account = invitation.account_name;
      const again = (message: Text, status = 422) =>
        sendPage(
          reply,
          status,
          words,
          t('Join %{account}', { account }),
          notice('error', words.text(message)) + acceptForm(words, token, invitation, passwordRequired),
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
            language: words.language,
          };
          await services.invitationAcceptance.accept({ token }, caller, req.ip);
        }
      } catch (err) {
        return again(err instanceof HttpError ? err.text : 'Something went wrong; please try again.', statusOf(err));
      }
      const joined = t('You joined %{account} as %{role}. Sign in with %{email}.', {
        account,
        role: roleOf(invitation.role),
        email: invitation.email,
      });
      return sendPage(reply, 200, words, t('Welcome to %{account}', { account }), notice('ok', words.text(joined)));
    },
  );
};

function acceptForm(
  words: PageWords,
  token: string,
  invitation: { email: string; account_name: string; role: string },
  passwordRequired: boolean,
) {
  const intro = t('%{email} is invited to join %{account} as %{role}.', {
    email: invitation.email,
    account: strong(invitation.account_name),
    role: roleOf(invitation.role),
  });
  const newPassword = `required minlength="${MIN_PASSWORD}" autocomplete="new-password"`;
  const fields = passwordRequired
    ? field('fullName', words.text('Your name'), 'text', 'required maxlength="200" autocomplete="name"') +
      field('password', words.text('Choose a password'), 'password', newPassword) +
      field('confirm', words.text('Repeat it'), 'password', newPassword)
    : `<p class="muted">${words.html('You already have a user: confirm with your password.')}</p>` +
      field('password', words.text('Your password'), 'password', 'required autocomplete="current-password"');
  const form = `<form method="post" action="accept-invitation">${hidden('token', token)}${hidden('locale', words.language)}`;
  return `<p>${words.html(intro)}</p>${form}${fields}<button type="submit">${words.html('Accept the invitation')}</button></form>`;
}
