import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import type { ApiError } from '../../shared/api/errors.js';
import { api, settle, type Conversation, type ConversationCounts } from '../api.js';
import { apiFilters, DEFAULT_VIEW, viewKey, type ListView } from '../conversations/list-filters.js';
import { place, recount } from '../conversations/list-placement.js';
import { isConversationEvent, withMessage, type ServerEvent } from '../conversations/server-events.js';
import { onServerEvent } from './server-events.js';

/** The API's page size of the conversation list. */
export const PAGE_SIZE = 25;

const NO_COUNTS: ConversationCounts = { mine_count: 0, unassigned_count: 0, assigned_count: 0, all_count: 0 };

/**
 * The conversation list of the inbox screen: one view (tab and filters) at a time, its loaded
 * pages in order, and the tab counts. It owns its requests (a page, the next page, the counts) and
 * applies server events (`apply`): a conversation created or changed moves into, within or out of
 * the list and the counts follow, with no reload. Counts that cannot be known here are asked for
 * once per burst of events.
 */
export const useConversationListStore = defineStore('conversation-list', () => {
  const accountId = shallowRef<number | null>(null);
  /** The signed-in user (the "Mine" tab). */
  const me = shallowRef(0);
  const view = shallowRef<ListView>(DEFAULT_VIEW);
  const items = shallowRef<Conversation[]>([]);
  const counts = shallowRef<ConversationCounts>(NO_COUNTS);
  const page = shallowRef(0);
  const complete = shallowRef(false);
  const loading = shallowRef(false);
  const loadingMore = shallowRef(false);
  const error = shallowRef<ApiError | null>(null);
  /** The conversation on screen: its new messages are read already. */
  const openId = shallowRef<number | null>(null);
  let generation = 0;

  const path = () => ({ accountId: accountId.value ?? 0 });
  /** The conversation on screen has nothing unread here. */
  const seen = (c: Conversation) => (c.id === openId.value && c.unread_count > 0 ? { ...c, unread_count: 0 } : c);

  async function fetchPage(n: number) {
    const { tab, filters } = view.value;
    return settle(
      api.GET('/api/v1/accounts/{accountId}/conversations', {
        params: { path: path(), query: { assignee_type: tab, page: n, ...apiFilters(filters) } },
      }),
    );
  }

  /** Shows a view of an account's list: its first page and counts (nothing when it is on screen already). */
  async function show(account: number, user: number, next: ListView, force = false): Promise<void> {
    const same = accountId.value === account && viewKey(view.value) === viewKey(next) && page.value > 0;
    if (same && !force) return;
    const mine = ++generation;
    accountId.value = account;
    me.value = user;
    view.value = next;
    loading.value = true;
    error.value = null;
    if (!same) {
      items.value = [];
      complete.value = false;
      page.value = 0;
    }
    const outcome = await fetchPage(1);
    if (mine !== generation) return;
    loading.value = false;
    if (!outcome.ok) {
      error.value = outcome.error;
      return;
    }
    items.value = outcome.data.data.payload.map(seen);
    counts.value = outcome.data.data.meta;
    page.value = 1;
    complete.value = outcome.data.data.payload.length < PAGE_SIZE;
  }

  /** Loads the next page (scrolling down); conversations already listed (moved meanwhile) are not repeated. */
  async function loadMore(): Promise<void> {
    if (complete.value || loadingMore.value || loading.value || page.value === 0) return;
    const mine = generation;
    loadingMore.value = true;
    const outcome = await fetchPage(page.value + 1);
    if (mine !== generation) return;
    loadingMore.value = false;
    if (!outcome.ok) {
      error.value = outcome.error;
      return;
    }
    const listed = new Set(items.value.map((c) => c.id));
    items.value = [...items.value, ...outcome.data.data.payload.filter((c) => !listed.has(c.id)).map(seen)];
    counts.value = outcome.data.data.meta;
    page.value += 1;
    complete.value = outcome.data.data.payload.length < PAGE_SIZE;
  }

  // Counts the list cannot work out itself: asked for once, however many events asked.
  let countsWanted = false;
  let countsRunning: Promise<void> | null = null;
  function refreshCounts(): Promise<void> {
    countsWanted = true;
    countsRunning ??= (async () => {
      while (countsWanted) {
        countsWanted = false;
        const mine = generation;
        const outcome = await settle(
          api.GET('/api/v1/accounts/{accountId}/conversations/meta', {
            params: { path: path(), query: apiFilters(view.value.filters) },
          }),
        );
        if (outcome.ok && mine === generation) counts.value = outcome.data.meta;
      }
      countsRunning = null;
    })();
    return countsRunning;
  }

  const find = (id: number) => items.value.find((c) => c.id === id);

  /**
   * Applies a server event: a conversation created or changed (`before` is what the screen knew of
   * it, when the list does not hold it), or a message that moves its conversation up.
   */
  function apply(event: ServerEvent, before?: Conversation): void {
    if (accountId.value === null || event.data.account_id !== accountId.value) return;
    let next: Conversation;
    let previous: Conversation | undefined;
    if (isConversationEvent(event)) {
      next = seen(event.data);
      previous = find(next.id) ?? before;
    } else {
      const listed = find(event.data.conversation_id);
      if (!listed) return;
      const read = openId.value === listed.id;
      next = withMessage(listed, event.data, event.event === 'message.created' && !read);
      previous = listed;
    }
    const known = previous !== undefined || event.event === 'conversation.created';
    const placed = place(items.value, next, view.value, me.value, complete.value);
    if (placed.changed) items.value = placed.items;
    if (!isConversationEvent(event)) return;
    const counted = recount(counts.value, previous, next, view.value.filters, me.value, known);
    counts.value = counted.counts;
    if (!counted.certain) void refreshCounts();
  }

  onServerEvent(apply);

  /** Marks the conversation on screen (its unread count goes to zero here; the view tells the server). */
  function markOpen(id: number | null): void {
    openId.value = id;
    const listed = id === null ? undefined : find(id);
    if (listed && listed.unread_count > 0)
      items.value = items.value.map((c) => (c.id === id ? { ...c, unread_count: 0 } : c));
  }

  return {
    accountId,
    view,
    items,
    counts,
    complete,
    loading,
    loadingMore,
    error,
    openId,
    show,
    loadMore,
    refreshCounts,
    apply,
    find,
    markOpen,
  };
});
