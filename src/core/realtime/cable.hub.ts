import type { FastifyBaseLogger } from 'fastify';
import WebSocket from 'ws';
import type { RealtimeEvent } from './broadcaster.js';
import {
  confirmFrame,
  disconnectFrame,
  parseClientFrame,
  parseIdentifier,
  pingFrame,
  pushFrame,
  rejectFrame,
  welcomeFrame,
  type CableMessage,
} from './cable.protocol.js';

/**
 * What a service plugs into the hub: how a subscribe command becomes a subscription (once, at
 * subscribe time) and which messages each subscription gets for an event (no I/O per socket).
 * `S` is the service's resolved subscription (who, which account, what they may see).
 */
export interface CableChannel<S> {
  /** The `channel` value of identifiers this channel serves (e.g. `RoomChannel`). */
  readonly name: string;
  /** Resolves the identifier's parameters to a subscription, or null to reject it. */
  subscribe(params: Record<string, unknown>): Promise<S | null>;
  /** The outbox scope (account id) of a subscription: an event only visits its own scope. */
  scopeOf(subscription: S): number;
  /**
   * How an event reaches subscriptions, decided once per event: a function giving one
   * subscription's messages (return shared objects: each is serialized once), or null when the
   * event is not pushed at all.
   */
  route(event: RealtimeEvent): ((subscription: S) => readonly CableMessage[]) | null;
  /** Brings the subscriptions an event is about to visit up to date (cheaply: batched, rate limited). */
  refresh?(subscriptions: readonly S[]): Promise<void>;
}

export interface CableHubOptions<S> {
  channel: CableChannel<S>;
  logger: FastifyBaseLogger;
  /** ActionCable ping interval (ms); the client treats ~2 missed pings as a dead connection. */
  pingIntervalMs?: number;
  maxConnections?: number;
  maxSubscriptionsPerSocket?: number;
  /** Subscribe commands a connection may send in its lifetime (each costs a token lookup). */
  maxSubscribeAttempts?: number;
  maxIdentifierLength?: number;
  /** A socket with more unsent bytes than this is a slow consumer and is closed (1013). */
  maxBufferedBytes?: number;
  /** Events waiting to be fanned out before new ones are dropped (best effort, as realtime is). */
  maxQueuedEvents?: number;
}

interface Connection<S> {
  readonly socket: WebSocket;
  readonly subscriptions: Map<string, Subscription<S>>;
  readonly pending: Set<string>;
  attempts: number;
  alive: boolean;
}

interface Subscription<S> {
  readonly connection: Connection<S>;
  readonly identifier: string;
  /** `JSON.stringify(identifier)`, computed once. */
  readonly identifierJson: string;
  readonly state: S;
  readonly scope: number;
}

/** WebSocket-level heartbeat every this many ActionCable pings: a peer that did not pong is dropped. */
const HEARTBEAT_EVERY = 10;
const CLOSE_GRACE_MS = 2000;

/**
 * The connection registry and fan-out of one process: sockets, their subscriptions indexed by
 * scope (account), the ping loop, and delivery of events (in order, one at a time) to the
 * subscriptions of the event's scope. Knows nothing of the domain: the channel decides.
 */
export class CableHub<S> {
  private readonly connections = new Set<Connection<S>>();
  private readonly byScope = new Map<number, Set<Subscription<S>>>();
  private readonly options: Required<Omit<CableHubOptions<S>, 'channel' | 'logger'>>;
  private pinger: NodeJS.Timeout | null = null;
  private ticks = 0;
  private tail: Promise<void> = Promise.resolve();
  private queued = 0;
  private closing = false;

  constructor(private readonly hubOptions: CableHubOptions<S>) {
    this.options = {
      pingIntervalMs: hubOptions.pingIntervalMs ?? 3000,
      maxConnections: hubOptions.maxConnections ?? 10_000,
      maxSubscriptionsPerSocket: hubOptions.maxSubscriptionsPerSocket ?? 10,
      maxSubscribeAttempts: hubOptions.maxSubscribeAttempts ?? 100,
      maxIdentifierLength: hubOptions.maxIdentifierLength ?? 1024,
      maxBufferedBytes: hubOptions.maxBufferedBytes ?? 4 * 1024 * 1024,
      maxQueuedEvents: hubOptions.maxQueuedEvents ?? 10_000,
    };
  }

  /** Takes over a freshly upgraded socket: welcome, commands, pings, cleanup on close. */
  attach(socket: WebSocket): void {
    if (this.closing || this.connections.size >= this.options.maxConnections) {
      socket.close(this.closing ? 1001 : 1013, this.closing ? 'server shutting down' : 'too many connections');
      return;
    }
    const connection: Connection<S> = {
      socket,
      subscriptions: new Map(),
      pending: new Set(),
      attempts: 0,
      alive: true,
    };
    this.connections.add(connection);
    socket.on('message', (data, isBinary) => {
      if (isBinary) return;
      this.onCommand(connection, data.toString());
    });
    socket.on('pong', () => {
      connection.alive = true;
    });
    socket.on('close', () => this.detach(connection));
    socket.send(welcomeFrame());
    this.startPinging();
  }

  /** Queues an event for fan-out; events are delivered one at a time, in the order given. */
  deliver(event: RealtimeEvent): Promise<void> {
    if (this.closing) return Promise.resolve();
    if (event.accountId === null || !this.byScope.has(event.accountId)) return Promise.resolve();
    if (this.queued >= this.options.maxQueuedEvents) {
      this.hubOptions.logger.warn({ eventId: event.id }, 'realtime queue full: event not pushed');
      return Promise.resolve();
    }
    this.queued += 1;
    this.tail = this.tail
      .then(() => this.fanOut(event))
      .catch((err) => this.hubOptions.logger.warn({ err, eventId: event.id }, 'realtime fan-out failed'))
      .finally(() => {
        this.queued -= 1;
      });
    return this.tail;
  }

  /**
   * Tells every client to reconnect (ActionCable's disconnect with `reconnect: true`) and closes its
   * socket with 1001 (going away); sockets not closed after CLOSE_GRACE_MS, or by `deadline` (epoch
   * ms, a bounded shutdown) when that comes first, are cut.
   */
  async close(deadline?: number): Promise<void> {
    this.closing = true;
    this.stopPinging();
    const closed = [...this.connections].map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.socket.readyState === WebSocket.CLOSED) return resolve();
          c.socket.once('close', () => resolve());
          if (c.socket.readyState === WebSocket.OPEN) c.socket.send(disconnectFrame('server_restart', true));
          c.socket.close(1001, 'server shutting down');
        }),
    );
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      const grace = deadline === undefined ? CLOSE_GRACE_MS : Math.min(CLOSE_GRACE_MS, deadline - Date.now());
      timer = setTimeout(resolve, Math.max(0, grace));
    });
    await Promise.race([Promise.all(closed), grace]);
    clearTimeout(timer);
    for (const c of this.connections) c.socket.terminate();
    await this.tail;
  }

  private onCommand(connection: Connection<S>, text: string): void {
    const command = parseClientFrame(text, this.options.maxIdentifierLength);
    if (!command) return;
    if (command.command === 'subscribe') void this.subscribe(connection, command.identifier);
    else if (command.command === 'unsubscribe') this.unsubscribe(connection, command.identifier);
    // 'message' (channel actions such as presence updates) has no server-side effect here.
  }

  private async subscribe(connection: Connection<S>, identifier: string): Promise<void> {
    const { channel, logger } = this.hubOptions;
    // Rails ignores a second subscribe to the same identifier; so do we.
    if (connection.subscriptions.has(identifier) || connection.pending.has(identifier)) return;
    connection.attempts += 1;
    const params = parseIdentifier(identifier);
    const full = connection.subscriptions.size + connection.pending.size >= this.options.maxSubscriptionsPerSocket;
    if (!params || params.channel !== channel.name || full || connection.attempts > this.options.maxSubscribeAttempts) {
      this.send(connection, rejectFrame(identifier));
      return;
    }
    connection.pending.add(identifier);
    let state: S | null = null;
    try {
      state = await channel.subscribe(params);
    } catch (err) {
      logger.warn({ err }, 'realtime subscription failed');
    }
    // Unsubscribed or disconnected while the token was being resolved: drop it silently.
    if (!connection.pending.delete(identifier) || !this.connections.has(connection)) return;
    if (state === null) {
      this.send(connection, rejectFrame(identifier));
      return;
    }
    const subscription: Subscription<S> = {
      connection,
      identifier,
      identifierJson: JSON.stringify(identifier),
      state,
      scope: channel.scopeOf(state),
    };
    connection.subscriptions.set(identifier, subscription);
    let scoped = this.byScope.get(subscription.scope);
    if (!scoped) this.byScope.set(subscription.scope, (scoped = new Set()));
    scoped.add(subscription);
    this.send(connection, confirmFrame(identifier));
  }

  private unsubscribe(connection: Connection<S>, identifier: string): void {
    connection.pending.delete(identifier);
    const subscription = connection.subscriptions.get(identifier);
    if (!subscription) return;
    connection.subscriptions.delete(identifier);
    this.forget(subscription);
  }

  private detach(connection: Connection<S>): void {
    if (!this.connections.delete(connection)) return;
    for (const subscription of connection.subscriptions.values()) this.forget(subscription);
    connection.subscriptions.clear();
    connection.pending.clear();
    if (this.connections.size === 0) this.stopPinging();
  }

  private forget(subscription: Subscription<S>): void {
    const scoped = this.byScope.get(subscription.scope);
    if (!scoped) return;
    scoped.delete(subscription);
    if (scoped.size === 0) this.byScope.delete(subscription.scope);
  }

  private async fanOut(event: RealtimeEvent): Promise<void> {
    if (event.accountId === null) return;
    const scoped = this.byScope.get(event.accountId);
    if (!scoped || scoped.size === 0) return;
    const route = this.hubOptions.channel.route(event);
    if (!route) return;
    const subscriptions = [...scoped];
    try {
      await this.hubOptions.channel.refresh?.(subscriptions.map((s) => s.state));
    } catch (err) {
      // Push with what was known rather than drop the event.
      this.hubOptions.logger.warn({ err, eventId: event.id }, 'realtime subscription refresh failed');
    }
    const serialized = new Map<CableMessage, string>();
    for (const subscription of subscriptions) {
      if (!this.connections.has(subscription.connection)) continue;
      for (const message of route(subscription.state)) {
        let json = serialized.get(message);
        if (json === undefined) serialized.set(message, (json = JSON.stringify(message)));
        this.send(subscription.connection, pushFrame(subscription.identifierJson, json));
      }
    }
  }

  private send(connection: Connection<S>, frame: string): void {
    const { socket } = connection;
    if (socket.readyState !== WebSocket.OPEN) return;
    if (socket.bufferedAmount > this.options.maxBufferedBytes) {
      // A client that does not read its pushes would make the process hold them all.
      socket.close(1013, 'too slow');
      return;
    }
    socket.send(frame);
  }

  private startPinging(): void {
    if (this.pinger) return;
    this.pinger = setInterval(() => this.tick(), this.options.pingIntervalMs);
    this.pinger.unref?.();
  }

  private stopPinging(): void {
    if (this.pinger) clearInterval(this.pinger);
    this.pinger = null;
  }

  private tick(): void {
    this.ticks += 1;
    const frame = pingFrame(Date.now());
    const heartbeat = this.ticks % HEARTBEAT_EVERY === 0;
    for (const connection of this.connections) {
      if (heartbeat) {
        // A peer gone without a FIN (network loss) never answers: drop it rather than write forever.
        if (!connection.alive) {
          connection.socket.terminate();
          continue;
        }
        connection.alive = false;
        if (connection.socket.readyState === WebSocket.OPEN) connection.socket.ping();
      }
      this.send(connection, frame);
    }
  }
}
