import type { Delivery } from '../../../core/webhooks/deliveries.js';
import { subscribedEvents, type WebhookRow } from '../../../core/webhooks/subscriptions.js';
import { toIso } from '../../../core/time.js';

export function presentWebhook(webhook: WebhookRow, options: { withSecret?: boolean } = {}) {
  return {
    id: webhook.id,
    account_id: webhook.account_id,
    name: webhook.name,
    url: webhook.url,
    subscriptions: subscribedEvents(webhook),
    ...(options.withSecret ? { secret: webhook.secret } : {}),
    created_at: toIso(webhook.created_at),
    updated_at: toIso(webhook.updated_at),
  };
}

export function presentDelivery(d: Delivery) {
  return {
    id: d.id,
    event: d.event_name,
    status: d.status,
    attempts: d.attempts,
    last_status_code: d.last_status_code,
    last_error: d.last_error,
    next_attempt_at: d.status === 'pending' ? toIso(d.next_attempt_at) : null,
    last_attempt_at: toIso(d.last_attempt_at),
    delivered_at: toIso(d.delivered_at),
    created_at: toIso(d.created_at),
  };
}
