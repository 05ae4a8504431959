import { DestinationRefused, type DestinationGuard } from '../webhooks/destination-guard.js';
import { fromBase64Url, MAX_PUSH_PLAINTEXT, receiverKeyProblem } from './web-push.crypto.js';
import type { Text } from '../i18n/catalogue.js';

/**
 * What a push is sent to and what it says, in words of no domain: a subscription is a browser's
 * Web Push endpoint with its keys, or a device's FCM registration token; a message is a title, a
 * body, and what the receiving app reads.
 */

export type PushSubscription =
  { type: 'webpush'; endpoint: string; p256dh: string; auth: string } | { type: 'fcm'; token: string };

export interface PushMessage {
  title: string;
  body: string;
  /** The page a click opens (the Web Push payload's `url`; FCM data `url`). */
  url?: string;
  /** A later message with the same tag replaces this one on the device. */
  tag?: string;
  /** String values the receiving app reads (FCM `data`; the Web Push payload's `data`). */
  data?: Record<string, string>;
}

/** RFC 8030 section 5.3. */
export type PushUrgency = 'very-low' | 'low' | 'normal' | 'high';

export interface PushOptions {
  /** How long the push service keeps the message for an offline device, in seconds. */
  ttlSeconds: number;
  urgency: PushUrgency;
  /** Web Push `Topic`: a pending message with the same topic is replaced (up to 32 base64url characters). */
  topic?: string;
}

/** How an attempt ended, as the delivery job acts on it. */
export type PushOutcome =
  | { result: 'delivered'; status: number }
  /** The push service no longer knows the subscription (404, 410): its owner should remove it. */
  | { result: 'gone'; status: number; error: string }
  /** Worth another attempt (5xx, 429, no answer), not before `retryAfterMs` when the service said so. */
  | { result: 'retry'; status: number | null; error: string; retryAfterMs?: number }
  /** No attempt can succeed (another 4xx, a refused destination, nothing configured to send with). */
  | { result: 'failed'; status: number | null; error: string };

/** What a subscription's field is wrong with, for the owner's 422 (it names its own fields). */
export interface SubscriptionProblem {
  field: 'endpoint' | 'p256dh' | 'auth' | 'token';
  /** A predicate of the catalogue (core/i18n/catalogue.ts), worded in the caller's language by the 422. */
  message: Text;
}

/**
 * Checks a subscription before it is stored: an http(s) endpoint the outbound-address policy
 * allows (checked again at each send, on the address it resolves to), a P-256 `p256dh` key and a
 * 16-byte `auth` secret; or a plausible FCM token.
 */
export function subscriptionProblems(subscription: PushSubscription, guard: DestinationGuard): SubscriptionProblem[] {
  const problems: SubscriptionProblem[] = [];
  if (subscription.type === 'fcm') {
    if (!/^[\w:.-]{1,4096}$/.test(subscription.token))
      problems.push({ field: 'token', message: 'must be an FCM registration token' });
    return problems;
  }
  if (subscription.endpoint.length > 2048) problems.push({ field: 'endpoint', message: 'is too long' });
  else {
    try {
      guard.checkUrl(subscription.endpoint);
    } catch (err) {
      if (!(err instanceof DestinationRefused)) throw err;
      problems.push({ field: 'endpoint', message: err.text });
    }
  }
  const keyProblem = receiverKeyProblem(subscription.p256dh);
  if (keyProblem) problems.push({ field: 'p256dh', message: keyProblem });
  if (fromBase64Url(subscription.auth).length !== 16)
    problems.push({ field: 'auth', message: 'must be a 16-byte secret, base64url' });
  return problems;
}

/** The Web Push payload of a message: JSON, which the page's service worker reads. */
export function webPushPayload(message: PushMessage): Buffer {
  const { title, body, url, tag, data } = message;
  return Buffer.from(JSON.stringify({ title, body, url, tag, data }));
}

/**
 * The message shortened to fit one push (RFC 8291's record within 4096 bytes, which also keeps an
 * FCM message under its 4 KB): the body loses characters from its end, marked with an ellipsis.
 * Throws when even an empty body does not fit (the title or data are too long: a caller's bug).
 */
export function fitMessage(message: PushMessage): PushMessage {
  if (webPushPayload(message).length <= MAX_PUSH_PLAINTEXT) return message;
  const chars = [...message.body];
  let low = 0;
  let high = chars.length;
  // The longest prefix of the body that fits, by halving.
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (webPushPayload({ ...message, body: `${chars.slice(0, mid).join('')}…` }).length <= MAX_PUSH_PLAINTEXT)
      low = mid;
    else high = mid - 1;
  }
  const fitted = { ...message, body: `${chars.slice(0, low).join('')}…` };
  if (webPushPayload(fitted).length > MAX_PUSH_PLAINTEXT)
    throw new RangeError(`a push message's title, url, tag and data take more than ${MAX_PUSH_PLAINTEXT} bytes`);
  return fitted;
}

/**
 * `Retry-After` (seconds or an HTTP date) as milliseconds from `now`, or undefined when absent or
 * unreadable.
 */
export function retryAfterMs(value: string | string[] | undefined, now: number): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return undefined;
  if (/^\s*\d+\s*$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The outcome of a push service's answer: Web Push and FCM share the classes. */
export function outcomeOf(status: number, error: string, retryAfter?: number): PushOutcome {
  if (status >= 200 && status < 300) return { result: 'delivered', status };
  if (status === 404 || status === 410) return { result: 'gone', status, error };
  if (status === 429 || status >= 500 || status === 408)
    return { result: 'retry', status, error, ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}) };
  return { result: 'failed', status, error };
}
