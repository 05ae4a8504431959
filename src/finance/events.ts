import { emit } from '../core/events/outbox.js';
import type { Q } from './context.js';

/** The events a finance webhook may subscribe to (finance-service.md, Events). */
export const FINANCE_WEBHOOK_EVENTS = [
  'transaction.created',
  'transaction.updated',
  'invoice.created',
  'invoice.paid',
  'invoice.overdue',
  'contract.created',
  'contract.cancelled',
] as const;
export type FinanceWebhookEvent = (typeof FINANCE_WEBHOOK_EVENTS)[number];

/** Events recorded for other modules (notifications), never sent to webhooks. */
export const FINANCE_INTERNAL_EVENTS = ['bill.paid'] as const;
export type FinanceInternalEvent = (typeof FINANCE_INTERNAL_EVENTS)[number];

export type FinanceEventName = FinanceWebhookEvent | FinanceInternalEvent;

/** A `changed_attributes` item: `{status: {previous_value: 'pending', current_value: 'completed'}}`. */
export type ChangedAttribute = Record<string, { previous_value: unknown; current_value: unknown }>;

/**
 * What a finance event's outbox payload holds: the webhook envelope without its `id` (the outbox
 * event id, known only once recorded; the webhook listener adds it). `data` is the object as the
 * API presents it (ids as strings, amounts as decimals, camelCase); `changed_attributes` only on
 * `transaction.updated`.
 */
export interface FinanceEventPayload<T = Record<string, unknown>> {
  event: FinanceEventName;
  created_at: string;
  account_id: string;
  data: T;
  changed_attributes?: ChangedAttribute[];
}

/**
 * Records a finance event in the transaction `q` (pass the open transaction: the event exists
 * only if the change commits).
 */
export async function recordFinanceEvent<T extends object>(
  q: Q,
  accountId: number,
  name: FinanceEventName,
  data: T,
  changedAttributes?: ChangedAttribute[],
): Promise<void> {
  const payload: FinanceEventPayload<T> = {
    event: name,
    created_at: new Date().toISOString(),
    account_id: String(accountId),
    data,
    ...(changedAttributes ? { changed_attributes: changedAttributes } : {}),
  };
  await emit(q, { accountId, name, payload });
}
