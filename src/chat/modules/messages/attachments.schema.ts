import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../../core/http/schemas.js';

/** An attachment as Chatwoot emits it inside a message's `attachments`. */
export const AttachmentSchema = Type.Object({
  id: Type.Integer(),
  message_id: Type.Integer(),
  file_type: Type.Union([Type.Literal('image'), Type.Literal('audio'), Type.Literal('video'), Type.Literal('file')]),
  account_id: Type.Integer(),
  extension: Nullable(Type.String()),
  data_url: Type.String(),
  thumb_url: Type.String(),
  file_size: Type.Integer(),
  width: Type.Null(),
  height: Type.Null(),
});
export type AttachmentView = Static<typeof AttachmentSchema>;
