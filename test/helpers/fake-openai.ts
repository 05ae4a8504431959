import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeOpenAiRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  json: any;
}

/** How the fake answers one request: a status and body (an object is sent as JSON), or never. */
export interface FakeOpenAiAnswer {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Never answer (the caller's timeout has to end it). */
  hang?: boolean;
}

/**
 * A real OpenAI-compatible HTTP server on 127.0.0.1 for tests: `POST /v1/chat/completions` answers a
 * chat completion whose text is `reply` (and records every request); `script` sets the answers of
 * the next requests in order (then the completion again). Other paths answer 404.
 */
export class FakeOpenAi {
  readonly requests: FakeOpenAiRequest[] = [];
  script: FakeOpenAiAnswer[] = [];
  reply = 'Sure, I can help with that.';
  private readonly server = http.createServer((req, res) => this.handle(req, res));

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The `base_url` a hook names. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  get last(): FakeOpenAiRequest {
    const request = this.requests.at(-1);
    if (!request) throw new Error('the fake OpenAI server received no request');
    return request;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse) {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      this.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, json });
      if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"Not found"}}');
        return;
      }
      const answer = this.script.shift() ?? { status: 200, body: this.completion(json) };
      if (answer.hang) return;
      const body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {});
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers }).end(body);
    });
  }

  /** A chat completion as OpenAI answers it. */
  completion(request: unknown, content = this.reply) {
    return {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: (request as { model?: string } | undefined)?.model ?? 'unknown',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    };
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
