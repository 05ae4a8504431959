import { toIso } from '../../../core/time.js';
import type { Delivery } from '../../../core/webhooks/deliveries.js';
import { idString } from '../../context.js';
import { subscribedEvents, type WebhookRow } from '../../../core/webhooks/subscriptions.js';

/** A webhook as the API shows it; the secret only when asked (the registration answer). */
export function presentWebhook(w: WebhookRow, options: { withSecret?: boolean } = {}) {
  return {
    id: idString(w.id),
    url: w.url,
    events: subscribedEvents(w),
    ...(options.withSecret ? { secret: w.secret } : {}),
    createdAt: toIso(w.created_at),
    updatedAt: toIso(w.updated_at),
  };
}

export function presentDelivery(d: Delivery) {
  return {
    id: d.id,
    event: d.event_name,
    eventId: d.event_id === null ? null : String(d.event_id),
    status: d.status,
    attempts: d.attempts,
    lastStatusCode: d.last_status_code,
    lastError: d.last_error,
    nextAttemptAt: d.status === 'pending' ? toIso(d.next_attempt_at) : null,
    lastAttemptAt: toIso(d.last_attempt_at),
    deliveredAt: toIso(d.delivered_at),
    createdAt: toIso(d.created_at),
  };
}
