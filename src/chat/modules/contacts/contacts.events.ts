import { parseJsonObject, toUnix } from '../../../core/time.js';
import type { Account, Contact } from '../../db/schema.js';
import type { ContactRefs } from '../../events.js';

/** The contact as webhook payloads carry it (Chatwoot's `webhook_data`). */
export function contactWebhookData(contact: Contact, account: Pick<Account, 'id' | 'name'>) {
  return {
    id: contact.id,
    name: contact.name,
    email: contact.email,
    phone_number: contact.phone_number,
    identifier: contact.identifier,
    thumbnail: contact.avatar_url ?? '',
    avatar: contact.avatar_url ?? '',
    type: 'contact' as const,
    blocked: contact.blocked === 1,
    additional_attributes: parseJsonObject(contact.additional_attributes),
    custom_attributes: parseJsonObject(contact.custom_attributes),
    last_activity_at: toUnix(contact.last_activity_at),
    created_at: toUnix(contact.created_at),
    account: { id: account.id, name: account.name },
  };
}

/** `changed_attributes` as Chatwoot sends it: one object per changed key. */
export function changedAttributes(before: Record<string, unknown>, after: Record<string, unknown>) {
  const changes: Record<string, { previous_value: unknown; current_value: unknown }>[] = [];
  for (const key of Object.keys(after)) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      changes.push({ [key]: { previous_value: before[key] ?? null, current_value: after[key] ?? null } });
    }
  }
  return changes;
}

type ContactSnapshot = { event: string } & ReturnType<typeof contactWebhookData> & Record<string, unknown>;

declare module '../../events.js' {
  interface ChatEvents {
    contact_created: { refs: ContactRefs; snapshot: ContactSnapshot };
    contact_updated: { refs: ContactRefs; snapshot: ContactSnapshot };
  }
}
