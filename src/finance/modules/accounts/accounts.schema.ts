import { Type } from '@sinclair/typebox';
import { IdPathParam } from '../../http/envelope.js';

/** The languages an account can choose (core/i18n/language.ts). */
export const Locale = Type.Union([Type.Literal('en'), Type.Literal('pt-BR')], {
  description: 'The language of the report e-mails and notifications the service writes for the account',
});

export const AccountSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  locale: Locale,
  createdAt: Type.String({ description: 'ISO 8601' }),
  updatedAt: Type.String({ description: 'ISO 8601' }),
});

export const AccountParams = Type.Object({ accountId: IdPathParam });

/** The only setting today, so it is required: an empty body is a 422, not a silent no-op. */
export const UpdateAccountBody = Type.Object({ locale: Locale }, { additionalProperties: false });
