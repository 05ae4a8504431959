import { createHmac } from 'node:crypto';

/**
 * Signature headers of one webhook delivery attempt, in both conventions receivers use (Chatwoot's
 * only for the conversation service, whose receivers expect them):
 * - Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256(secret, id.timestamp.body)>`
 * - Chatwoot: `X-Chatwoot-Signature: sha256=<hex HMAC-SHA256(secret, timestamp.body)>`,
 *   `X-Chatwoot-Timestamp`, `X-Chatwoot-Delivery`.
 * `deliveryId` is the same on every retry of a delivery; the timestamp is that of the attempt.
 */
export function signatureHeaders(
  secret: string,
  deliveryId: string,
  timestampSeconds: number,
  body: string,
  options: { chatwoot: boolean } = { chatwoot: true },
): Record<string, string> {
  const ts = String(timestampSeconds);
  const standard = createHmac('sha256', secret).update(`${deliveryId}.${ts}.${body}`).digest('base64');
  const headers: Record<string, string> = {
    'webhook-id': deliveryId,
    'webhook-timestamp': ts,
    'webhook-signature': `v1,${standard}`,
  };
  if (options.chatwoot) {
    const chatwoot = createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex');
    headers['x-chatwoot-signature'] = `sha256=${chatwoot}`;
    headers['x-chatwoot-timestamp'] = ts;
    headers['x-chatwoot-delivery'] = deliveryId;
  }
  return headers;
}

/** Verifies a Standard Webhooks signature header (as a receiver would). */
export function verifyStandardSignature(
  secret: string,
  headers: Record<string, string | undefined>,
  body: string,
): boolean {
  const id = headers['webhook-id'];
  const ts = headers['webhook-timestamp'];
  const sig = headers['webhook-signature'];
  if (!id || !ts || !sig) return false;
  const expected = createHmac('sha256', secret).update(`${id}.${ts}.${body}`).digest('base64');
  return sig.split(' ').some((part) => part === `v1,${expected}`);
}
