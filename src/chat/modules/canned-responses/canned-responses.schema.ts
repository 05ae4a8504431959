import { Type, type Static } from '@sinclair/typebox';
import { MAX_MESSAGE_CONTENT } from '../messages/messages.schema.js';

const ShortCode = Type.String({
  minLength: 1,
  maxLength: 255,
  description: 'What an agent types after "/" to insert the response; no spaces, unique in the account',
});
const Content = Type.String({ minLength: 1, maxLength: MAX_MESSAGE_CONTENT });

export const CannedResponseBody = Type.Object({ short_code: ShortCode, content: Content });
export type CannedResponseBody = Static<typeof CannedResponseBody>;

export const CannedResponsePatch = Type.Partial(CannedResponseBody);
export type CannedResponsePatch = Static<typeof CannedResponsePatch>;

export const CannedResponseListQuery = Type.Object({
  search: Type.Optional(
    Type.String({
      maxLength: 255,
      description: 'Case-insensitive; matches short_code or content, short-code matches first',
    }),
  ),
});
export type CannedResponseListQuery = Static<typeof CannedResponseListQuery>;

export const CannedResponseSchema = Type.Object({
  id: Type.Integer(),
  account_id: Type.Integer(),
  short_code: Type.String(),
  content: Type.String(),
  created_at: Type.String({ description: 'ISO 8601' }),
  updated_at: Type.String({ description: 'ISO 8601' }),
});
