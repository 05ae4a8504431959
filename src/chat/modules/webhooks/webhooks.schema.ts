import { Type, type Static } from '@sinclair/typebox';
import { Nullable, PageQuery } from '../../../core/http/schemas.js';

const Url = Type.String({ minLength: 1, maxLength: 2048 });
// Names are checked by the service, so that a 422 can name every unknown event at once.
const Subscriptions = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 20 });

export const WebhookCreateBody = Type.Object({
  url: Url,
  subscriptions: Subscriptions,
  name: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
});
export type WebhookCreateBody = Static<typeof WebhookCreateBody>;

export const WebhookUpdateBody = Type.Partial(WebhookCreateBody);
export type WebhookUpdateBody = Static<typeof WebhookUpdateBody>;

export const WebhookSchema = Type.Object({
  id: Type.Integer(),
  account_id: Type.Integer(),
  name: Nullable(Type.String()),
  url: Type.String(),
  subscriptions: Type.Array(Type.String()),
  /** Only in the creation response: the signing secret is shown once. */
  secret: Type.Optional(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const DeliverySchema = Type.Object({
  id: Type.String({ description: 'The delivery id, sent as webhook-id / X-Chatwoot-Delivery on every attempt' }),
  event: Type.String(),
  status: Type.Union(['pending', 'delivering', 'succeeded', 'failed', 'cancelled'].map((s) => Type.Literal(s))),
  attempts: Type.Integer(),
  last_status_code: Nullable(Type.Integer()),
  last_error: Nullable(Type.String()),
  next_attempt_at: Nullable(Type.String()),
  last_attempt_at: Nullable(Type.String()),
  delivered_at: Nullable(Type.String()),
  created_at: Type.String(),
});

export const DeliveriesQuery = Type.Object({
  page: Type.Optional(PageQuery),
});
