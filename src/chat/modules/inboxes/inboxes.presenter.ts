import { parseJsonObject, toIso } from '../../../core/time.js';
import type { Inbox } from '../../db/schema.js';
import { parseWorkingHours } from './inboxes.schema.js';

const SECRET_KEY = /(token|secret|password|api_key|apikey|auth)/i;

/** Channel settings as shown to the caller; secret-looking values are masked for non-administrators. */
function presentChannel(channel: Record<string, unknown>, showSecrets: boolean) {
  if (showSecrets) return channel;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(channel)) out[k] = SECRET_KEY.test(k) && v ? '********' : v;
  return out;
}

/**
 * Chatwoot's inbox. `showSecrets` (the caller is an administrator) unmasks channel secrets and adds
 * `hmac_token`, the key of the contacts' identifier_hash: agents never get it.
 */
export function presentInbox(inbox: Inbox, showSecrets: boolean) {
  const channel = parseJsonObject(inbox.channel);
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const isWidget = inbox.channel_type === 'Channel::WebWidget';
  const isApi = inbox.channel_type === 'Channel::Api';
  return {
    id: inbox.id,
    account_id: inbox.account_id,
    channel_id: inbox.id,
    name: inbox.name,
    channel_type: inbox.channel_type,
    avatar_url: '',
    phone_number: inbox.phone_number,
    email: inbox.email,
    greeting_enabled: inbox.greeting_enabled === 1,
    greeting_message: inbox.greeting_message,
    enable_auto_assignment: inbox.enable_auto_assignment === 1,
    out_of_office_message: inbox.out_of_office_message,
    working_hours_enabled: inbox.working_hours_enabled === 1,
    timezone: inbox.timezone,
    working_hours: parseWorkingHours(inbox.working_hours),
    website_url: str(channel.website_url),
    website_token: isWidget ? inbox.identifier : null,
    inbox_identifier: isApi || isWidget ? inbox.identifier : null,
    webhook_url: str(channel.webhook_url),
    provider: str(channel.provider),
    channel: presentChannel(channel, showSecrets),
    hmac_mandatory: inbox.hmac_mandatory === 1,
    ...(showSecrets ? { hmac_token: inbox.hmac_token } : {}),
    ...(showSecrets && isApi ? { secret: str(channel.secret) } : {}),
    created_at: toIso(inbox.created_at),
  };
}
