import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DialectName } from '../db/database.js';
import { claimLeased, type LeasedQueue } from '../jobs/lease.js';
import type { UntypedDb } from '../db/untyped.js';

export type DeliveryStatus = 'pending' | 'delivering' | 'succeeded' | 'failed' | 'cancelled';

export interface WebhookDeliveriesTable {
  /** The delivery id, sent as `webhook-id` on every attempt. */
  id: string;
  account_id: number | null;
  /** Who subscribed: 'webhook', 'agent_bot', ... (the service resolves the signing secret by it). */
  subscriber_type: string;
  subscriber_id: number;
  url: string;
  event_name: string;
  event_id: number | null;
  /** The JSON body, exactly as sent. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number;
  /** While `delivering`: the lease; a worker that died leaves it to expire and be reclaimed. */
  locked_until: number | null;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: number | null;
  delivered_at: number | null;
  created_at: number;
}

export interface DeliveriesDatabase {
  webhook_deliveries: WebhookDeliveriesTable;
}

export type Delivery = WebhookDeliveriesTable;

export interface NewDelivery {
  accountId: number | null;
  subscriberType: string;
  subscriberId: number;
  url: string;
  eventName: string;
  eventId: number | null;
  payload: unknown;
}

const DELIVERY_QUEUE: LeasedQueue = {
  table: 'webhook_deliveries',
  waiting: 'pending',
  running: 'delivering',
  dueColumn: 'next_attempt_at',
};

const table = <DB extends DeliveriesDatabase>(q: Kysely<DB>) => q as unknown as Kysely<DeliveriesDatabase>;

/** Queues a delivery; call it inside the transaction that decided it (the dispatch transaction). */
export async function enqueueDelivery(trx: UntypedDb, d: NewDelivery): Promise<string> {
  const id = `msg_${randomUUID().replace(/-/g, '')}`;
  const now = Date.now();
  await table(trx)
    .insertInto('webhook_deliveries')
    .values({
      id,
      account_id: d.accountId,
      subscriber_type: d.subscriberType,
      subscriber_id: d.subscriberId,
      url: d.url,
      event_name: d.eventName,
      event_id: d.eventId,
      payload: JSON.stringify(d.payload),
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      locked_until: null,
      last_status_code: null,
      last_error: null,
      last_attempt_at: null,
      delivered_at: null,
      created_at: now,
    })
    .execute();
  return id;
}

/**
 * Claims up to `limit` deliveries that are due (or whose worker's lease ran out), skipping the
 * subscribers in `busy`; each claimed row gets a lease and one more attempt (core/jobs/lease.ts).
 */
export async function claimDue<DB extends DeliveriesDatabase>(
  db: Kysely<DB>,
  dialect: DialectName,
  options: { now: number; leaseMs: number; limit: number; busy: readonly string[] },
): Promise<Delivery[]> {
  const { now, leaseMs, limit, busy } = options;
  return claimLeased<Delivery>(db, dialect, DELIVERY_QUEUE, {
    now,
    leaseMs,
    limit,
    set: { last_attempt_at: now },
    where: (q) =>
      busy.length === 0
        ? q
        : q.where((eb) => eb.not(eb(eb.fn('concat', ['subscriber_type', eb.val(':'), 'subscriber_id']), 'in', busy))),
  });
}

export async function markSucceeded<DB extends DeliveriesDatabase>(
  db: Kysely<DB>,
  id: string,
  statusCode: number,
  now: number,
) {
  await table(db)
    .updateTable('webhook_deliveries')
    .set({ status: 'succeeded', delivered_at: now, locked_until: null, last_status_code: statusCode, last_error: null })
    .where('id', '=', id)
    .execute();
}

/** Records a failed attempt: another try at `retryAt`, or `failed` for good when it is null. */
export async function markFailed<DB extends DeliveriesDatabase>(
  db: Kysely<DB>,
  id: string,
  result: { statusCode: number | null; error: string; retryAt: number | null },
) {
  await table(db)
    .updateTable('webhook_deliveries')
    .set({
      status: result.retryAt === null ? 'failed' : 'pending',
      next_attempt_at: result.retryAt ?? Date.now(),
      locked_until: null,
      last_status_code: result.statusCode,
      last_error: result.error.slice(0, 1000),
    })
    .where('id', '=', id)
    .execute();
}

export async function markCancelled<DB extends DeliveriesDatabase>(db: Kysely<DB>, id: string, reason: string) {
  await table(db)
    .updateTable('webhook_deliveries')
    .set({ status: 'cancelled', locked_until: null, last_error: reason })
    .where('id', '=', id)
    .execute();
}

/** The recent deliveries of one subscriber, newest first. */
export async function listDeliveries(
  db: UntypedDb,
  accountId: number | null,
  subscriberType: string,
  subscriberId: number,
  page: { limit: number; offset: number },
): Promise<Delivery[]> {
  let query = table(db)
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('subscriber_type', '=', subscriberType)
    .where('subscriber_id', '=', subscriberId);
  query = accountId === null ? query.where('account_id', 'is', null) : query.where('account_id', '=', accountId);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
}
