import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../../core/http/schemas.js';

const Host = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^[A-Za-z0-9._:\\[\\]-]+$',
  description: 'SMTP server host name or address',
  examples: ['smtp.example.com'],
});

export const SmtpSaveBody = Type.Object({
  host: Host,
  port: Type.Integer({ minimum: 1, maximum: 65535, description: 'for example 465 or 587' }),
  secure: Type.Optional(Type.Boolean({ description: 'TLS from the start (465); otherwise STARTTLS when offered' })),
  user: Type.String({ minLength: 1, maxLength: 320 }),
  password: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1000,
      description: 'write only; required on the first save, omit later to keep the saved one',
    }),
  ),
  fromName: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  fromEmail: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 320 }))),
});
export type SmtpSaveBody = Static<typeof SmtpSaveBody>;

export const SmtpSchema = Type.Object({
  host: Type.String(),
  port: Type.Integer(),
  secure: Type.Boolean(),
  user: Type.String(),
  fromName: Nullable(Type.String()),
  fromEmail: Nullable(Type.String()),
  updatedAt: Type.String({ description: 'ISO 8601' }),
});

export const SmtpTestResultSchema = Type.Object({
  to: Type.String(),
  messageId: Type.String(),
  response: Type.String({ description: "the SMTP server's answer" }),
});
