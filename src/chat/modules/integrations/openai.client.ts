import { HttpError } from '../../../core/http/errors.js';
import { LazyAgent } from '../../../core/http/outgoing-agent.js';
import { DestinationRefused, type DestinationGuard } from '../../../core/webhooks/destination-guard.js';
import { phrase, t, type Text } from '../../../core/i18n/catalogue.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface Completion {
  baseUrl: string;
  apiKey: string;
  model: string;
  messages: ChatMessage[];
}

export interface OpenAiClientOptions {
  /** The outgoing-webhook destination guard: the endpoint must resolve to an allowed address. */
  guard: DestinationGuard;
  /** The whole call (connection, answer, body), in ms. */
  timeoutMs: number;
}

/** An answer larger than this is not a chat completion we asked for. */
const MAX_ANSWER_BYTES = 1024 * 1024;
/** How much of an endpoint's own error message an answer repeats. */
const MAX_UPSTREAM_MESSAGE = 300;

const upstream = (status: number, code: string, message: Text, headers?: Record<string, string>) =>
  new HttpError(status, code, message, undefined, headers);

/** `{base_url}/chat/completions`, keeping a query string (`?api-version=...`). */
export function completionsUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/chat/completions`;
  return url.toString();
}

/**
 * Calls an OpenAI-compatible chat completions endpoint: POST `{base_url}/chat/completions` with
 * `Authorization: Bearer <api_key>`, through the destination guard (checked on the URL and on every
 * resolved address), redirects not followed, one timeout for the whole call, the answer read up to
 * 1 MiB. The text of `choices[0].message.content` is the result. Every failure is an HttpError whose
 * message says what went wrong without repeating the key: 422 when the endpoint refuses the key or
 * the request, or the guard refuses the address; 429 when it rate-limits; 502 when it fails,
 * cannot be reached or answers something that is not a completion; 504 on timeout.
 */
export class OpenAiClient {
  private readonly agent: LazyAgent;

  constructor(private readonly options: OpenAiClientOptions) {
    this.agent = new LazyAgent({
      connect: { lookup: options.guard.lookup, timeout: options.timeoutMs },
      keepAliveTimeout: 4_000,
    });
  }

  async complete(request: Completion): Promise<string> {
    const { timeoutMs } = this.options;
    let url: string;
    try {
      url = this.options.guard.checkUrl(completionsUrl(request.baseUrl)).toString();
    } catch (err) {
      throw refused(err);
    }
    let status: number;
    let retryAfter: string | null;
    let text: string;
    try {
      const { agent, fetch } = await this.agent.client();
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          authorization: `Bearer ${request.apiKey}`,
          'user-agent': 'Ponte-Integrations/1.0',
        },
        body: JSON.stringify({ model: request.model, messages: request.messages }),
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
        dispatcher: agent,
      });
      status = response.status;
      retryAfter = response.headers.get('retry-after');
      text = await readCapped(response.body);
    } catch (err) {
      throw transportError(err, timeoutMs);
    }
    if (status < 200 || status >= 300) throw statusError(status, text, retryAfter, request.apiKey);
    return completionText(text);
  }
}

class AnswerTooLarge extends Error {}

async function readCapped(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new AnswerTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function refused(err: unknown): HttpError {
  if (!(err instanceof DestinationRefused)) throw err;
  return new HttpError(
    422,
    'destination_refused',
    t(
      "The assistant's endpoint is refused: %{reason} (settings.base_url; private addresses need WEBHOOK_ALLOWED_HOSTS)",
      { reason: phrase(err.text) },
    ),
    [{ field: 'settings.base_url', message: err.text }],
  );
}

function transportError(err: unknown, timeoutMs: number): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof AnswerTooLarge)
    return upstream(502, 'upstream_invalid_response', 'The OpenAI-compatible endpoint answered more than 1 MiB');
  const e = err as { name?: string; cause?: { name?: string; code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError' || e?.cause?.name === 'TimeoutError')
    return upstream(
      504,
      'upstream_timeout',
      t('The OpenAI-compatible endpoint did not answer within %{seconds} s (INTEGRATIONS_TIMEOUT_SECONDS)', {
        seconds: timeoutMs / 1000,
      }),
    );
  if (err instanceof DestinationRefused) return refused(err);
  if (e?.cause instanceof DestinationRefused) return refused(e.cause);
  if (e?.cause?.name === 'DestinationRefused' || e?.cause?.code === 'EDESTINATIONREFUSED')
    return refused(new DestinationRefused('destination refused'));
  const code = e?.cause?.code ?? e?.name ?? 'error';
  return upstream(
    502,
    'upstream_unreachable',
    t('The OpenAI-compatible endpoint could not be reached (%{code})', { code }),
  );
}

/** The endpoint's own error message (`{error: {message}}` or `{error: "..."}`), clipped, without the key. */
function upstreamMessage(text: string, apiKey: string): string | null {
  let message: unknown;
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    message =
      typeof body?.error === 'string' ? body.error : ((body?.error as { message?: unknown })?.message ?? body?.message);
  } catch {
    return null;
  }
  if (typeof message !== 'string' || message.trim() === '') return null;
  const clean = message
    .split(apiKey)
    .join('[api_key]')
    .replace(/\p{Cc}+/gu, ' ')
    .trim();
  return clean.length > MAX_UPSTREAM_MESSAGE ? `${clean.slice(0, MAX_UPSTREAM_MESSAGE)}...` : clean;
}

function upstreamErrorCode(text: string): string | null {
  try {
    const code = (JSON.parse(text) as { error?: { code?: unknown; type?: unknown } })?.error;
    const value = code?.code ?? code?.type;
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

function statusError(status: number, text: string, retryAfter: string | null, apiKey: string): HttpError {
  if (status === 401 || status === 403)
    return upstream(
      422,
      'api_key_refused',
      t('The OpenAI-compatible endpoint refused the API key (HTTP %{status}): check settings.api_key', { status }),
    );
  if (status === 429) {
    if (upstreamErrorCode(text) === 'insufficient_quota')
      return upstream(
        429,
        'upstream_quota_exceeded',
        "The OpenAI-compatible endpoint says the API key's quota is used up: check its plan and billing",
        { 'retry-after': '3600' },
      );
    const seconds = Number(retryAfter);
    const wait = Number.isFinite(seconds) && seconds > 0 ? Math.min(Math.ceil(seconds), 3600) : 30;
    return upstream(
      429,
      'upstream_rate_limited',
      t('The OpenAI-compatible endpoint is rate-limiting this API key: try again in %{seconds} s', { seconds: wait }),
      { 'retry-after': String(wait) },
    );
  }
  if (status >= 400 && status < 500) {
    const said = upstreamMessage(text, apiKey);
    const refusal =
      status === 404
        ? t(
            'The OpenAI-compatible endpoint refused the request (HTTP %{status}): check settings.base_url and settings.model',
            {
              status,
            },
          )
        : t('The OpenAI-compatible endpoint refused the request (HTTP %{status})', { status });
    return upstream(422, 'upstream_rejected', said ? t('%{refusal}: %{said}', { refusal, said }) : refusal);
  }
  if (status >= 300 && status < 400)
    return upstream(
      502,
      'upstream_error',
      t(
        'The OpenAI-compatible endpoint answered a redirect (HTTP %{status}), which is not followed: check settings.base_url',
        { status },
      ),
    );
  return upstream(502, 'upstream_error', t('The OpenAI-compatible endpoint failed (HTTP %{status})', { status }));
}

/** `choices[0].message.content` of a chat completion; 502 for anything else. */
function completionText(text: string): string {
  const invalid = (what: Text) =>
    upstream(
      502,
      'upstream_invalid_response',
      t('The OpenAI-compatible endpoint answered %{what}, not a chat completion', { what: phrase(what) }),
    );
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalid('something that is not JSON');
  }
  const choices = (body as { choices?: unknown })?.choices;
  if (!Array.isArray(choices) || choices.length === 0) throw invalid('no choices');
  const content = (choices[0] as { message?: { content?: unknown } })?.message?.content;
  if (typeof content !== 'string') throw invalid('a choice without text');
  return content.trim();
}
