import { outcomeOfRequestError, type PushHttp } from './push.http.js';
import { outcomeOf, retryAfterMs, type PushOptions, type PushOutcome } from './push.message.js';
import type { VapidSigner } from './vapid.js';
import { encryptWebPush, type ReceiverKeys } from './web-push.crypto.js';

/**
 * One Web Push request (RFC 8030): the payload encrypted for the subscription (RFC 8291), the
 * VAPID header for the endpoint's origin (RFC 8292), `TTL`, `Urgency` and, when given, `Topic`.
 */
export async function sendWebPush(
  http: PushHttp,
  vapid: VapidSigner,
  subscription: ReceiverKeys & { endpoint: string },
  payload: Buffer,
  options: PushOptions,
  clock: () => number,
): Promise<PushOutcome> {
  const headers: Record<string, string> = {
    'content-type': 'application/octet-stream',
    'content-encoding': 'aes128gcm',
    ttl: String(Math.max(0, Math.floor(options.ttlSeconds))),
    urgency: options.urgency,
  };
  if (options.topic) headers.topic = options.topic;
  try {
    http.check(subscription.endpoint);
    headers.authorization = await vapid.authorization(subscription.endpoint);
    const answer = await http.post(subscription.endpoint, headers, encryptWebPush(payload, subscription));
    const error = `push service answered ${answer.status}${answer.text ? `: ${answer.text.slice(0, 300)}` : ''}`;
    return outcomeOf(answer.status, error, retryAfterMs(answer.headers['retry-after'], clock()));
  } catch (err) {
    return outcomeOfRequestError(err, http.timeoutMs);
  }
}
