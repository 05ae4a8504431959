import { toIso } from '../../../core/time.js';
import type { Delivery } from '../../../core/webhooks/deliveries.js';
import { idString } from '../../context.js';
import type { FinanceWebhook } from '../../db/schema.js';

/** The event names of a webhook row (a JSON array; a corrupt value reads as none). */
export function eventsOf(webhook: Pick<FinanceWebhook, 'events'>): string[] {
  try {
    const value = JSON.parse(webhook.events);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** A webhook as the API shows it; the secret only when asked (the registration answer). */
export function presentWebhook(w: FinanceWebhook, options: { withSecret?: boolean } = {}) {
  return {
    id: idString(w.id),
    url: w.url,
    events: eventsOf(w),
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
