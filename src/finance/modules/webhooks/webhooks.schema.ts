import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../../core/http/schemas.js';
import { IdPathParam, PageQuery } from '../../http/envelope.js';
import { FINANCE_WEBHOOK_EVENTS } from '../../events.js';

const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'http(s) URL that receives the POSTs' });
// Names are checked by the service, so that one 422 names every unknown event.
const Events = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: 20,
  description: `event names: ${FINANCE_WEBHOOK_EVENTS.join(', ')}`,
});

export const WebhookCreateBody = Type.Object({ url: Url, events: Events });
export type WebhookCreateBody = Static<typeof WebhookCreateBody>;

/** PATCH: the URL, the events or both. */
export const WebhookUpdateBody = Type.Partial(WebhookCreateBody, { minProperties: 1 });
export type WebhookUpdateBody = Static<typeof WebhookUpdateBody>;

export const WebhookSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  secret: Type.Optional(Type.String({ description: 'signing secret; only in the registration answer' })),
  createdAt: Type.String({ description: 'ISO 8601' }),
  updatedAt: Type.String({ description: 'ISO 8601' }),
});

export const WebhookListSchema = Type.Object({
  items: Type.Array(WebhookSchema),
  total: Type.Integer(),
  page: Type.Integer(),
  limit: Type.Integer(),
});

export const DeliverySchema = Type.Object({
  id: Type.String({ description: 'delivery id, sent as webhook-id on every attempt' }),
  event: Type.String(),
  eventId: Nullable(Type.String({ description: 'the payload id (outbox event id)' })),
  status: Type.Union(['pending', 'delivering', 'succeeded', 'failed', 'cancelled'].map((s) => Type.Literal(s))),
  attempts: Type.Integer(),
  lastStatusCode: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
  nextAttemptAt: Nullable(Type.String({ description: 'ISO 8601, while pending' })),
  lastAttemptAt: Nullable(Type.String()),
  deliveredAt: Nullable(Type.String()),
  createdAt: Type.String(),
});

export const DeliveryListSchema = Type.Object({
  items: Type.Array(DeliverySchema),
  page: Type.Integer(),
  limit: Type.Integer(),
});

export const WebhookListQuery = PageQuery(20, 100);
export const WebhookParams = Type.Object({ id: IdPathParam });
