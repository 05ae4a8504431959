import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: any;
  at: number;
}

/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests. By default it answers 200; `script` sets
 * the status of the next requests in order (then 200 again); `delayMs` holds each answer; `hang`
 * never answers. `stop()` closes it, so deliveries to it fail with a refused connection.
 */
export class TestReceiver {
  readonly received: Received[] = [];
  script: number[] = [];
  delayMs = 0;
  hang = false;
  private server = http.createServer((req, res) => this.handle(req, res));
  private waiters: { count: number; resolve: () => void }[] = [];

  async start(port = 0): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse) {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const status = this.script.shift() ?? 200;
      this.received.push({ headers: req.headers, body, json, at: Date.now() });
      this.waiters = this.waiters.filter((w) => (this.received.length >= w.count ? (w.resolve(), false) : true));
      if (this.hang) return;
      setTimeout(() => res.writeHead(status, { 'content-type': 'text/plain' }).end('ok'), this.delayMs);
    });
  }

  /** Resolves once `count` requests have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs = 20_000): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`expected ${count} requests, got ${this.received.length}`)),
        timeoutMs,
      );
      this.waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
