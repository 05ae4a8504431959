import { invalidField } from '../http/errors.js';
import { DestinationGuard, DestinationRefused } from './destination-guard.js';

/**
 * The one save-time rule for every address an account can set that the server will later call:
 * webhooks (both services), agent bots' `outgoing_url`, API inboxes' `webhook_url`, pipeline
 * automations' `send_webhook`, the assistant's `base_url` and a finance account's SMTP host. The
 * literal host is judged without DNS (`DestinationGuard.hostProblem`: loopback, private, metadata
 * and reserved addresses in every spelling, `localhost` and its sub-names, WEBHOOK_ALLOWED_HOSTS
 * as exceptions); the resolved address is checked again at each call (`DestinationGuard.lookup`).
 * A refusal is a 422 naming the field. Returns the value as it is to be stored (trimmed).
 */
export function checkOutboundAddress(
  guard: DestinationGuard,
  field: string,
  value: string,
  form: 'url' | 'host' = 'url',
): string {
  const trimmed = value.trim();
  try {
    if (form === 'url') guard.checkUrl(trimmed);
    else guard.checkHost(trimmed);
  } catch (err) {
    if (err instanceof DestinationRefused) throw invalidField(field, err.text);
    throw err;
  }
  return trimmed;
}

/** The guard of an installation's WEBHOOK_ALLOWED_HOSTS, for services that check addresses at save time. */
export const outboundGuard = (config: { webhooks: { allowedHosts: readonly string[] } }) =>
  new DestinationGuard(config.webhooks.allowedHosts);
