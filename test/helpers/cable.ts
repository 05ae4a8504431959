import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import type { App } from '../../src/core/http/app.types.js';

/** A frame the server sent, parsed. */
export type Frame = Record<string, any>;

/** A push as a client sees it: which subscription, which event, its data. */
export interface Push {
  identifier: string;
  event: string;
  data: Record<string, any>;
}

/** Starts the app on a random local port (idempotent) and returns its `ws://.../cable` URL. */
export async function cableUrl(app: App): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return `ws://127.0.0.1:${port}/cable`;
}

/** The subscribe identifier Chatwoot's clients send (a JSON document, as a string). */
export const roomIdentifier = (params: Record<string, unknown>) =>
  JSON.stringify({ channel: 'RoomChannel', ...params });

/**
 * A real WebSocket client speaking ActionCable as `@rails/actioncable` does; it records every frame
 * so tests can wait for one and then assert on everything that came before it. Waits fail after
 * `timeoutMs` (a guard against hanging, not an assertion on time).
 */
export class CableClient {
  readonly frames: Frame[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: { test: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  private closeWaiters: (() => void)[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as Frame;
      this.frames.push(frame);
      this.waiters = this.waiters.filter((w) => (w.test(frame) ? (w.resolve(frame), false) : true));
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      for (const resolve of this.closeWaiters) resolve();
    });
  }

  /** Connects (offering ActionCable's subprotocols, as the browser client does) and waits for the welcome. */
  static async connect(
    url: string,
    protocols: string[] = ['actioncable-v1-json', 'actioncable-unsupported'],
  ): Promise<CableClient> {
    const socket = new WebSocket(url, protocols);
    const client = new CableClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    await client.waitFor((f) => f.type === 'welcome');
    return client;
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Subscribes and returns the answer's type (`confirm_subscription` or `reject_subscription`). */
  async subscribe(identifier: string): Promise<string> {
    const answer = this.waitFor((f) => f.identifier === identifier && typeof f.type === 'string');
    this.send({ command: 'subscribe', identifier });
    return (await answer).type;
  }

  /** The first frame (already received or still to come) that matches. */
  waitFor(test: (f: Frame) => boolean, timeoutMs = 15_000): Promise<Frame> {
    const seen = this.frames.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise<Frame>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching frame; received: ${JSON.stringify(this.frames.slice(-5))}`)),
        timeoutMs,
      );
      this.waiters.push({
        test,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  }

  /** Waits for a push of `event` whose data matches `test`. */
  async waitForPush(event: string, test: (data: Record<string, any>) => boolean = () => true): Promise<Push> {
    const frame = await this.waitFor((f) => f.message?.event === event && test(f.message.data));
    return { identifier: frame.identifier, event: frame.message.event, data: frame.message.data };
  }

  /** Every push received so far, in order. */
  pushes(): Push[] {
    return this.frames
      .filter((f) => f.message && typeof f.message === 'object' && typeof f.message.event === 'string')
      .map((f) => ({ identifier: f.identifier, event: f.message.event, data: f.message.data }));
  }

  /** Resolves when the server (or the client) has closed the socket. */
  whenClosed(): Promise<{ code: number; reason: string }> {
    if (this.closed) return Promise.resolve(this.closed);
    return new Promise((resolve) => this.closeWaiters.push(() => resolve(this.closed!)));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    const done = this.whenClosed();
    this.socket.close();
    await done;
  }
}
