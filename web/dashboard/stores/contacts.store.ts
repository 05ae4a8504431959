import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import type { ApiError } from '../../shared/api/errors.js';
import { api, settle, type Contact } from '../api.js';

/** The API's page size of the contact list. */
export const CONTACT_PAGE_SIZE = 15;
export const CONTACT_SORTS = ['-last_activity_at', 'name', '-created_at'] as const;
export type ContactSort = (typeof CONTACT_SORTS)[number];

export interface ContactQuery {
  q: string;
  page: number;
  sort: ContactSort;
}

/**
 * The contact list: one page at a time of all contacts or of a search (name, e-mail, phone,
 * identifier contain the text), with the total the server counts. It owns its requests; a
 * request overtaken by a newer one is ignored.
 */
export const useContactsStore = defineStore('contacts', () => {
  const items = shallowRef<Contact[]>([]);
  const total = shallowRef(0);
  const query = shallowRef<ContactQuery>({ q: '', page: 1, sort: '-last_activity_at' });
  const loading = shallowRef(false);
  const error = shallowRef<ApiError | null>(null);
  let generation = 0;

  async function load(accountId: number, next: ContactQuery): Promise<void> {
    const mine = ++generation;
    query.value = next;
    loading.value = true;
    error.value = null;
    const path = { accountId };
    const outcome = next.q
      ? await settle(
          api.GET('/api/v1/accounts/{accountId}/contacts/search', {
            params: { path, query: { q: next.q, page: next.page, sort: next.sort } },
          }),
        )
      : await settle(
          api.GET('/api/v1/accounts/{accountId}/contacts', {
            params: { path, query: { page: next.page, sort: next.sort } },
          }),
        );
    if (mine !== generation) return;
    loading.value = false;
    if (!outcome.ok) {
      error.value = outcome.error;
      return;
    }
    items.value = outcome.data.payload;
    total.value = outcome.data.meta.count;
  }

  return { items, total, query, loading, error, load };
});
