import { listenerOf } from '../core/events/dispatcher.js';
import { eventRecorder } from '../core/events/outbox.js';
import type { Trx } from './context.js';
import type { FinanceDatabase } from './db/schema.js';

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

/** The record a finance event is about, by id (listeners refetch it). */
export type FinanceRefs =
  { transactionId: number } | { invoiceId: number } | { contractId: number } | { billId: number };

type Refs<N extends FinanceEventName> = N extends `transaction.${string}`
  ? { transactionId: number }
  : N extends `invoice.${string}`
    ? { invoiceId: number }
    : N extends `contract.${string}`
      ? { contractId: number }
      : { billId: number };

/** The finance service's event catalogue: refs (ids) and the snapshot webhooks send (their envelope without its id). */
export type FinanceEvents = { [N in FinanceEventName]: { refs: Refs<N>; snapshot: FinanceEventPayload } };

const emitFinanceEvent = eventRecorder<FinanceEvents>();

/** Declares a listener of finance events. */
export const financeListener = listenerOf<FinanceDatabase, FinanceEvents>();

/**
 * Records a finance event in the change's transaction: the event exists only if the change commits.
 */
export async function recordFinanceEvent<N extends FinanceEventName, T extends { id: string }>(
  trx: Trx,
  accountId: number,
  name: N,
  data: T,
  changedAttributes?: ChangedAttribute[],
): Promise<void> {
  const snapshot: FinanceEventPayload<T> = {
    event: name,
    created_at: new Date().toISOString(),
    account_id: String(accountId),
    data,
    ...(changedAttributes ? { changed_attributes: changedAttributes } : {}),
  };
  await emitFinanceEvent(trx, { accountId, name, refs: refsOf(name, Number(data.id)), snapshot });
}

function refsOf<N extends FinanceEventName>(name: N, id: number): Refs<N> {
  const kind = name.split('.')[0];
  const key =
    kind === 'transaction'
      ? 'transactionId'
      : kind === 'invoice'
        ? 'invoiceId'
        : kind === 'contract'
          ? 'contractId'
          : 'billId';
  return { [key]: id } as Refs<N>;
}
