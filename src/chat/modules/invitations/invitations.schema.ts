import { Type, type Static } from '@sinclair/typebox';
import { MAX_PASSWORD, MIN_PASSWORD } from './invitations.service.js';

/** `POST /auth/password` (Chatwoot's forgotten password). */
export const ForgotPasswordBody = Type.Object({
  email: Type.String({ format: 'email', maxLength: 255 }),
});
export type ForgotPasswordBody = Static<typeof ForgotPasswordBody>;

export const ForgotPasswordAnswer = Type.Object({ message: Type.String() });

const Token = Type.String({ minLength: 1, maxLength: 512, description: 'The token of the e-mailed link' });

/** `PUT /auth/password` (Chatwoot's reset with the e-mailed token). */
export const SetPasswordBody = Type.Object({
  reset_password_token: Token,
  password: Type.String({ minLength: MIN_PASSWORD, maxLength: MAX_PASSWORD }),
  password_confirmation: Type.String({ maxLength: MAX_PASSWORD }),
});
export type SetPasswordBody = Static<typeof SetPasswordBody>;

/** The language a link carries (the e-mail's), which its page is shown in: `en` or `pt-BR`. */
const LinkLocale = Type.Optional(Type.String({ maxLength: 10, description: 'The language of the page (en, pt-BR)' }));

/** The set-password page: its link's query, and its form (posted back as a browser posts a form). */
export const PageQuery = Type.Object({
  reset_password_token: Type.Optional(Type.String({ maxLength: 512 })),
  locale: LinkLocale,
});
export const PageForm = Type.Object({
  reset_password_token: Type.Optional(Type.String({ maxLength: 512 })),
  locale: LinkLocale,
  password: Type.Optional(Type.String({ maxLength: 1024 })),
  password_confirmation: Type.Optional(Type.String({ maxLength: 1024 })),
});

/** The reset request page: its query, and its form. */
export const NewPageQuery = Type.Object({ locale: LinkLocale });
export const ForgotForm = Type.Object({ email: Type.Optional(Type.String({ maxLength: 255 })), locale: LinkLocale });
