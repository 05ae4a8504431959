import { LazyAgent } from '../http/outgoing-agent.js';
import { DestinationRefused, type DestinationGuard } from '../webhooks/destination-guard.js';
import type { PushOutcome } from './push.message.js';

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

/**
 * The outcome of a request that got no answer: a refused destination fails for good (the policy
 * will not change its mind), a timeout or a network error is worth another attempt.
 */
export function outcomeOfRequestError(err: unknown, timeoutMs: number, prefix = ''): PushOutcome {
  const e = err as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string } };
  const cause = e?.cause ?? e;
  if (err instanceof DestinationRefused || cause?.code === 'EDESTINATIONREFUSED')
    return { result: 'failed', status: null, error: `${prefix}${cause?.message ?? 'destination refused'}` };
  const error =
    e?.name === 'TimeoutError' || e?.name === 'AbortError'
      ? `no answer within ${timeoutMs / 1000} s`
      : cause?.code
        ? `${cause.code}: ${cause.message ?? e.message}`
        : (e?.message ?? String(err));
  return { result: 'retry', status: null, error: `${prefix}${error}` };
}
