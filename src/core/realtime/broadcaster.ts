/** A committed event as the realtime hub pushes it: `payload` is its snapshot (what webhooks send). */
export interface RealtimeEvent {
  id: number;
  accountId: number | null;
  name: string;
  payload: Record<string, unknown>;
  origin: string | null;
  createdAt: number;
}

/**
 * Carries committed events to the realtime hub of every instance of a service (this one
 * included). Best effort, like all realtime work: an event that cannot be announced is logged,
 * never retried; clients re-read state when they reconnect.
 */
export interface Broadcaster {
  /** Announces an event whose transaction has committed. Never throws and never waits for delivery. */
  publish(event: RealtimeEvent): void;
  /** Starts receiving (PostgreSQL: opens the LISTEN connection). */
  start(): Promise<void>;
  /** Sends what is still queued and stops receiving. */
  stop(): Promise<void>;
}

/** Receives the events a broadcaster carries (the hub's `deliver`). */
export type EventSink = (event: RealtimeEvent) => unknown;

/**
 * One process (SQLite): events go straight to the local hub, in the order they are published.
 */
export class LocalBroadcaster implements Broadcaster {
  private running = false;

  constructor(private readonly sink: EventSink) {}

  publish(event: RealtimeEvent): void {
    if (this.running) void this.sink(event);
  }

  async start(): Promise<void> {
    this.running = true;
  }

  async stop(): Promise<void> {
    this.running = false;
  }
}
