/**
 * The visitor's realtime channel: ActionCable's JSON protocol over /cable (the server's
 * `RoomChannel`, subscribed with the contact's pubsub_token), written small instead of pulling
 * in @rails/actioncable. It reconnects after a drop (1 s, doubling up to 30 s) and after a
 * silence longer than two pings, and calls `onConnected` at each subscription so the caller can
 * fetch what it missed.
 */

export interface CablePush {
  event: string;
  data: Record<string, unknown>;
}

export interface CableOptions {
  url: string;
  pubsubToken: string;
  onPush: (push: CablePush) => void;
  /** Each confirmed subscription (the first and after a drop). */
  onConnected: () => void;
}

const STALE_MS = 8_000;

export class VisitorCable {
  private socket: WebSocket | null = null;
  private stopped = false;
  private retryMs = 1_000;
  private lastFrameAt = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly identifier: string;

  constructor(private readonly options: CableOptions) {
    this.identifier = JSON.stringify({ channel: 'RoomChannel', pubsub_token: options.pubsubToken });
    this.connect();
    this.timer = setInterval(() => {
      if (this.socket && Date.now() - this.lastFrameAt > STALE_MS) this.socket.close();
    }, STALE_MS / 2);
  }

  close(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.socket?.close();
  }

  private connect(): void {
    const socket = new WebSocket(this.options.url, ['actioncable-v1-json', 'actioncable-unsupported']);
    this.socket = socket;
    this.lastFrameAt = Date.now();
    socket.onmessage = (event) => this.onFrame(String(event.data));
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped) return;
      setTimeout(() => this.connect(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, 30_000);
    };
  }

  private onFrame(text: string): void {
    this.lastFrameAt = Date.now();
    let frame: { type?: string; identifier?: string; message?: unknown };
    try {
      frame = JSON.parse(text) as typeof frame;
    } catch {
      return;
    }
    if (frame.type === 'welcome') {
      this.socket?.send(JSON.stringify({ command: 'subscribe', identifier: this.identifier }));
    } else if (frame.type === 'confirm_subscription' && frame.identifier === this.identifier) {
      this.retryMs = 1_000;
      this.options.onConnected();
    } else if (!frame.type && frame.identifier === this.identifier) {
      const push = frame.message as Partial<CablePush> | undefined;
      if (push && typeof push.event === 'string' && push.data && typeof push.data === 'object')
        this.options.onPush(push as CablePush);
    }
  }
}
