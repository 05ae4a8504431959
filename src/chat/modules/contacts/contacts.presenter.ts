import { parseJsonObject, toUnix } from '../../../core/time.js';
import type { Contact, Inbox } from '../../db/schema.js';

export interface ContactInboxRow {
  source_id: string;
  inbox_id: number;
  inbox_name: string;
  channel_type: string;
}

export function presentContactInbox(ci: ContactInboxRow) {
  return { source_id: ci.source_id, inbox: { id: ci.inbox_id, name: ci.inbox_name, channel_type: ci.channel_type } };
}

/** A contact inbox row with its inbox record, in the same shape. */
export function presentContactInboxOf(ci: { source_id: string }, inbox: Pick<Inbox, 'id' | 'name' | 'channel_type'>) {
  return presentContactInbox({
    source_id: ci.source_id,
    inbox_id: inbox.id,
    inbox_name: inbox.name,
    channel_type: inbox.channel_type,
  });
}

export function presentContact(contact: Contact, contactInboxes: ContactInboxRow[] = []) {
  return {
    id: contact.id,
    name: contact.name,
    email: contact.email,
    phone_number: contact.phone_number,
    identifier: contact.identifier,
    thumbnail: contact.avatar_url ?? '',
    availability_status: 'offline',
    blocked: contact.blocked === 1,
    type: 'contact' as const,
    additional_attributes: parseJsonObject(contact.additional_attributes),
    custom_attributes: parseJsonObject(contact.custom_attributes),
    last_activity_at: toUnix(contact.last_activity_at),
    created_at: toUnix(contact.created_at),
    contact_inboxes: contactInboxes.map(presentContactInbox),
  };
}

/** A page of contacts, each with its contact inboxes (fetched for the whole page at once). */
export function presentContactPage(page: {
  contacts: Contact[];
  count: number;
  currentPage: number;
  contactInboxes: Map<number, ContactInboxRow[]>;
}) {
  return {
    meta: { count: page.count, current_page: page.currentPage },
    payload: page.contacts.map((c) => presentContact(c, page.contactInboxes.get(c.id) ?? [])),
  };
}
