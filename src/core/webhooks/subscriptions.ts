import type { Generated, Kysely, Selectable, Transaction } from 'kysely';
import { listenerOf, type EventListener, type EventOf } from '../events/dispatcher.js';
import type { EventMap } from '../events/outbox.js';
import { t } from '../i18n/catalogue.js';
import { notFound, unprocessable } from '../http/errors.js';
import { randomToken } from '../security/tokens.js';
import { enqueueDelivery, listDeliveries, type Delivery } from './deliveries.js';
import { DestinationGuard } from './destination-guard.js';
import { checkOutboundAddress } from './outbound-policy.js';
import type { UntypedDb } from '../db/untyped.js';

/**
 * Outgoing webhook subscriptions, the same for both services: the `webhooks` table (an account's
 * registrations: url, subscribed event names, signing secret), the service that manages them, and
 * the fan-out listener that queues one signed delivery per subscribed webhook and event. Each
 * service brings its event catalogue, the field name its API uses for the event list, and the body
 * a delivery carries; routes and response shapes stay the service's own.
 */
export interface WebhooksTable {
  id: Generated<number>;
  account_id: number;
  name: string | null;
  url: string;
  /** JSON array of event names. */
  subscriptions: string;
  secret: string;
  created_at: number;
  updated_at: number;
}

export type WebhookRow = Selectable<WebhooksTable>;

interface WebhooksDatabase {
  webhooks: WebhooksTable;
}

export interface WebhookInput {
  url?: string;
  events?: readonly string[];
  name?: string | null;
}

export interface SubscriptionsOptions {
  db: UntypedDb;
  allowedHosts: readonly string[];
  /** The events a webhook may subscribe to. */
  catalogue: readonly string[];
  /** Other names a subscription may use for an event of the catalogue (alias -> event). */
  aliases?: Readonly<Record<string, string>>;
  /** How the API names the event list (`subscriptions` on chat, `events` on finance): used in 422s. */
  eventsField: string;
}

/** The subscribed event names of a row. */
export function subscribedEvents(row: Pick<WebhookRow, 'subscriptions'>): string[] {
  try {
    const value = JSON.parse(row.subscriptions);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export class WebhookSubscriptions {
  private readonly guard: DestinationGuard;
  private readonly known: ReadonlySet<string>;

  constructor(private readonly options: SubscriptionsOptions) {
    this.guard = new DestinationGuard(options.allowedHosts);
    this.known = new Set([...options.catalogue, ...Object.keys(options.aliases ?? {})]);
  }

  private get db() {
    return this.options.db as Kysely<WebhooksDatabase>;
  }

  /** 422 naming every unknown event, and an http(s) URL whose literal host is allowed. */
  private validate(input: WebhookInput): { url?: string; events?: string[] } {
    const out: { url?: string; events?: string[] } = {};
    if (input.events !== undefined) {
      const unknown = [...new Set(input.events.filter((e) => !this.known.has(e)))];
      if (unknown.length > 0) {
        throw unprocessable(
          t('Unknown webhook events: %{events} (allowed: %{allowed})', {
            events: unknown.join(', '),
            allowed: [...this.known].join(', '),
          }),
          unknown.map((e) => ({
            field: this.options.eventsField,
            message: t('%{event} is not a webhook event', { event: e }),
          })),
        );
      }
      out.events = [...new Set(input.events)];
    }
    if (input.url !== undefined) {
      out.url = checkOutboundAddress(this.guard, 'url', input.url);
    }
    return out;
  }

  async get(accountId: number, id: number, q: UntypedDb = this.db): Promise<WebhookRow> {
    const row = await (q as Kysely<WebhooksDatabase>)
      .selectFrom('webhooks')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound('Webhook');
    return row;
  }

  list(accountId: number, page: { limit: number; offset: number } = { limit: 1000, offset: 0 }): Promise<WebhookRow[]> {
    return this.db
      .selectFrom('webhooks')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('id')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
  }

  async count(accountId: number): Promise<number> {
    const row = await this.db
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async create(
    accountId: number,
    input: WebhookInput & { url: string; events: readonly string[] },
  ): Promise<WebhookRow> {
    const { url, events } = this.validate(input);
    const now = Date.now();
    return this.db
      .insertInto('webhooks')
      .values({
        account_id: accountId,
        name: input.name ?? null,
        url: url!,
        subscriptions: JSON.stringify(events),
        secret: randomToken(32),
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async update(accountId: number, id: number, input: WebhookInput): Promise<WebhookRow> {
    const { url, events } = this.validate(input);
    const values: Partial<Omit<WebhookRow, 'id'>> = { updated_at: Date.now() };
    if (url !== undefined) values.url = url;
    if (events !== undefined) values.subscriptions = JSON.stringify(events);
    if (input.name !== undefined) values.name = input.name;
    const row = await this.db
      .updateTable('webhooks')
      .set(values)
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw notFound('Webhook');
    return row;
  }

  /** Deletes the registration; its pending deliveries are cancelled when the worker reaches them. */
  async delete(accountId: number, id: number): Promise<void> {
    const result = await this.db
      .deleteFrom('webhooks')
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound('Webhook');
  }

  /** The signing secret of a webhook of any account (the delivery worker's lookup), or null once deleted. */
  async secretOf(id: number): Promise<string | null> {
    const row = await this.db.selectFrom('webhooks').select('secret').where('id', '=', id).executeTakeFirst();
    return row?.secret ?? null;
  }

  /** The webhook's recent deliveries, newest first. */
  async deliveries(accountId: number, id: number, page: { limit: number; offset: number }): Promise<Delivery[]> {
    const webhook = await this.get(accountId, id);
    return listDeliveries(this.db, accountId, 'webhook', webhook.id, page);
  }
}

/**
 * The name a webhook gets an event under: the event's own when it subscribed to it, else the first
 * alias of it that it subscribed to (NooviChat's `pipeline_card_stage_changed` for a move), else
 * none. One delivery per webhook and event, whichever names it used.
 */
export function deliveredName(
  subscribed: readonly string[],
  event: string,
  aliases: Readonly<Record<string, string>> = {},
): string | undefined {
  if (subscribed.includes(event)) return event;
  return subscribed.find((name) => aliases[name] === event);
}

/** A body under another event name: its `event` field says the name the subscriber chose. */
const renamed = (body: unknown, name: string) =>
  body !== null && typeof body === 'object' && !Array.isArray(body) && 'event' in body
    ? { ...(body as Record<string, unknown>), event: name }
    : body;

/**
 * The listener that fans each subscribable event out to the account's webhooks that subscribe to
 * it (by its name or an alias): one queued delivery per webhook, written in the event's
 * transaction (so exactly once per event), carrying `body(event)` under the name subscribed to.
 */
export function webhookFanOut<DB, M extends EventMap<M>>(options: {
  catalogue: readonly (keyof M & string)[];
  aliases?: Readonly<Record<string, string>>;
  body: (event: EventOf<M>) => unknown;
}): EventListener<DB, M> {
  return listenerOf<DB, M>()({
    name: 'webhooks',
    events: options.catalogue,
    async handle(trx: Transaction<DB>, event) {
      if (event.accountId === null) return;
      const q = trx as unknown as Kysely<WebhooksDatabase>;
      const webhooks = await q
        .selectFrom('webhooks')
        .select(['id', 'url', 'subscriptions'])
        .where('account_id', '=', event.accountId)
        .execute();
      const subscribed = webhooks
        .map((w) => ({ webhook: w, name: deliveredName(subscribedEvents(w), event.name, options.aliases) }))
        .filter((s): s is { webhook: (typeof webhooks)[number]; name: string } => s.name !== undefined);
      if (subscribed.length === 0) return;
      const body = options.body(event as EventOf<M>);
      for (const { webhook, name } of subscribed) {
        await enqueueDelivery(trx, {
          accountId: event.accountId,
          subscriberType: 'webhook',
          subscriberId: webhook.id,
          url: webhook.url,
          eventName: name,
          eventId: event.id,
          payload: name === event.name ? body : renamed(body, name),
        });
      }
    },
  });
}
