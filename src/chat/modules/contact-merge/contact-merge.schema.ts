import { Type, type Static } from '@sinclair/typebox';
import { IdParam } from '../../../core/http/schemas.js';

export const ContactMergeBody = Type.Object({
  base_contact_id: IdParam,
  mergee_contact_id: IdParam,
});
export type ContactMergeBody = Static<typeof ContactMergeBody>;
