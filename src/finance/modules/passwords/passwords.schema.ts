import { Type, type Static } from '@sinclair/typebox';
import { Email, NewPassword } from '../auth/auth.schema.js';

export const ChangePasswordBody = Type.Object({
  currentPassword: Type.String({ minLength: 1, maxLength: 256 }),
  newPassword: NewPassword,
});
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;

export const ForgotPasswordBody = Type.Object({ email: Email });

export const ResetPasswordBody = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 200, description: 'the token from the e-mailed link' }),
  password: NewPassword,
});
export type ResetPasswordBody = Static<typeof ResetPasswordBody>;
