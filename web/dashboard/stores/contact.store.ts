import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import type { ApiError } from '../../shared/api/errors.js';
import { api, settle, type AttributeDefinition, type Contact, type Conversation, type DealPage } from '../api.js';

export type Deal = DealPage['data'][number];
/** What an edit sends: the contact's own fields, and attributes merged into the stored ones. */
export interface ContactEdit {
  name?: string;
  email?: string | null;
  phone_number?: string | null;
  identifier?: string | null;
  additional_attributes?: Record<string, unknown>;
  custom_attributes?: Record<string, unknown>;
}

/**
 * One contact's page: the contact, its labels, its conversations (in the inboxes the user sees),
 * its deals (pipeline cards of the contact) and the account's contact attribute definitions. It
 * owns these requests, and the contact's edits, labels and merges.
 */
export const useContactStore = defineStore('contact', () => {
  const accountId = shallowRef(0);
  const contact = shallowRef<Contact | null>(null);
  const labels = shallowRef<string[]>([]);
  const conversations = shallowRef<Conversation[]>([]);
  const deals = shallowRef<Deal[]>([]);
  const dealsTotal = shallowRef(0);
  const dealsError = shallowRef<ApiError | null>(null);
  const definitions = shallowRef<AttributeDefinition[]>([]);
  const error = shallowRef<ApiError | null>(null);
  const loading = shallowRef(false);
  let generation = 0;

  async function open(account: number, id: number): Promise<void> {
    const mine = ++generation;
    accountId.value = account;
    if (contact.value?.id !== id) {
      contact.value = null;
      labels.value = conversations.value = deals.value = [];
    }
    loading.value = true;
    error.value = null;
    const params = { path: { accountId: account, id } };
    const [c, l, cs, d, defs] = await Promise.all([
      settle(api.GET('/api/v1/accounts/{accountId}/contacts/{id}', { params })),
      settle(api.GET('/api/v1/accounts/{accountId}/contacts/{id}/labels', { params })),
      settle(api.GET('/api/v1/accounts/{accountId}/contacts/{id}/conversations', { params })),
      settle(
        api.GET('/api/v1/accounts/{accountId}/pipeline_cards', {
          params: { path: { accountId: account }, query: { contact_id: id, page: 1, per_page: 25 } },
        }),
      ),
      settle(
        api.GET('/api/v1/accounts/{accountId}/custom_attribute_definitions', {
          params: { path: { accountId: account }, query: { attribute_model: 'contact_attribute' } },
        }),
      ),
    ]);
    if (mine !== generation) return;
    loading.value = false;
    if (!c.ok) {
      error.value = c.error;
      return;
    }
    contact.value = c.data.payload;
    labels.value = l.ok ? l.data.payload : [];
    conversations.value = cs.ok ? cs.data.payload : [];
    deals.value = d.ok ? d.data.data : [];
    dealsTotal.value = d.ok ? d.data.meta.total : 0;
    dealsError.value = d.ok ? null : d.error;
    definitions.value = defs.ok ? defs.data.data : [];
  }

  /** Saves an edit; the refusal (with the fields at fault) when the server refuses it. */
  async function update(edit: ContactEdit): Promise<ApiError | null> {
    const current = contact.value;
    if (!current) return null;
    const outcome = await settle(
      api.PATCH('/api/v1/accounts/{accountId}/contacts/{id}', {
        params: { path: { accountId: accountId.value, id: current.id } },
        body: edit,
      }),
    );
    if (!outcome.ok) return outcome.error;
    contact.value = outcome.data.payload;
    return null;
  }

  async function setLabels(next: string[]): Promise<ApiError | null> {
    const current = contact.value;
    if (!current) return null;
    const before = labels.value;
    labels.value = next;
    const outcome = await settle(
      api.POST('/api/v1/accounts/{accountId}/contacts/{id}/labels', {
        params: { path: { accountId: accountId.value, id: current.id } },
        body: { labels: next },
      }),
    );
    if (!outcome.ok) {
      labels.value = before;
      return outcome.error;
    }
    labels.value = outcome.data.payload;
    return null;
  }

  /** Merges another contact into this one (the other is deleted), then reads this one again. */
  async function mergeIn(mergeeId: number): Promise<ApiError | null> {
    const current = contact.value;
    if (!current) return null;
    const outcome = await settle(
      api.POST('/api/v1/accounts/{accountId}/actions/contact_merge', {
        params: { path: { accountId: accountId.value } },
        body: { base_contact_id: current.id, mergee_contact_id: mergeeId },
      }),
    );
    if (!outcome.ok) return outcome.error;
    await open(accountId.value, current.id);
    return null;
  }

  return {
    contact,
    labels,
    conversations,
    deals,
    dealsTotal,
    dealsError,
    definitions,
    error,
    loading,
    open,
    update,
    setLabels,
    mergeIn,
  };
});
