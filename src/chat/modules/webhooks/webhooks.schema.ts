import { Type, type Static } from '@sinclair/typebox';
import { Nullable, PageQuery } from '../../../core/http/schemas.js';

/** The events a webhook may subscribe to (conversation-service.md, Events). */
export const WEBHOOK_EVENTS = [
  'conversation_created',
  'conversation_status_changed',
  'conversation_updated',
  'message_created',
  'message_updated',
  'contact_created',
  'contact_updated',
  'webwidget_triggered',
  // The sales pipeline (decisions.md §7): a superset of the spec's list.
  'pipeline_card_created',
  'pipeline_card_updated',
  'pipeline_card_moved',
  'pipeline_card_won',
  'pipeline_card_lost',
  'pipeline_card_reopened',
  'pipeline_card_deleted',
  // SLA breaches (decisions.md §10, Enterprise plan).
  'sla_missed',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/**
 * Other names a subscription may use (decisions.md §1): NooviChat calls a card's move
 * `pipeline_card_stage_changed`. Its subscribers get `pipeline_card_moved` under that name.
 */
export const WEBHOOK_EVENT_ALIASES: Readonly<Record<string, WebhookEvent>> = {
  pipeline_card_stage_changed: 'pipeline_card_moved',
};

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
