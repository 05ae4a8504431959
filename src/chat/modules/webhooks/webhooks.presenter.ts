import type { Delivery } from '../../../core/webhooks/deliveries.js';
import { toIso } from '../../../core/time.js';
import type { Webhook } from '../../db/schema.js';

export function subscriptionsOf(webhook: Pick<Webhook, 'subscriptions'>): string[] {
  try {
    const value = JSON.parse(webhook.subscriptions);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function presentWebhook(webhook: Webhook, options: { withSecret?: boolean } = {}) {
  return {
    id: webhook.id,
    account_id: webhook.account_id,
    name: webhook.name,
    url: webhook.url,
    subscriptions: subscriptionsOf(webhook),
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
