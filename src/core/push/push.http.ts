import { LazyAgent } from '../http/outgoing-agent.js';
import { DestinationRefused, type DestinationGuard } from '../webhooks/destination-guard.js';

/** An answer, its body read up to a bound (error texts only; push answers are small). */
export interface PushAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const BODY_LIMIT = 16 * 1024;

/**
 * The HTTP side of push: POSTs through one connection pool whose connections pass the
 * outbound-address policy (the destination guard checks the URL, then every address a name
 * resolves to), with a timeout per request and no redirects followed.
 */
export class PushHttp {
  private readonly agent: LazyAgent;

  constructor(
    private readonly guard: DestinationGuard,
    readonly timeoutMs: number,
  ) {
    this.agent = new LazyAgent({ connect: { lookup: guard.lookup, timeout: timeoutMs }, keepAliveTimeout: 30_000 });
  }

  /** Throws DestinationRefused for a URL the policy refuses on its face (its scheme, a literal address). */
  check(url: string): URL {
    return this.guard.checkUrl(url);
  }

  /** Throws DestinationRefused, a timeout or a network error; any status is an answer. */
  async post(url: string, headers: Record<string, string>, body: Buffer | string): Promise<PushAnswer> {
    this.check(url);
    const { agent, request } = await this.agent.client();
    const response = await request(url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(this.timeoutMs),
      dispatcher: agent,
    });
    let text = '';
    for await (const chunk of response.body) {
      if (text.length < BODY_LIMIT) text += chunk.toString();
    }
    return { status: response.statusCode, headers: response.headers, text: text.slice(0, BODY_LIMIT) };
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

/** A failed request in words for the job's log: timeout, refused destination, or the network's error. */
export function describeRequestError(err: unknown, timeoutMs: number): { error: string; refused: boolean } {
  const e = err as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError')
    return { error: `no answer within ${timeoutMs / 1000} s`, refused: false };
  if (err instanceof DestinationRefused) return { error: err.message, refused: true };
  const cause = e?.cause ?? e;
  if (cause?.code === 'EDESTINATIONREFUSED') return { error: cause.message ?? 'destination refused', refused: true };
  return {
    error: cause?.code ? `${cause.code}: ${cause.message ?? e.message}` : (e?.message ?? String(err)),
    refused: false,
  };
}
