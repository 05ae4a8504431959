import { defineStore } from 'pinia';
import { computed, shallowRef } from 'vue';
import type { ApiError } from '../../shared/api/errors.js';
import { api, settle, type Agent, type Inbox, type Label, type Team } from '../api.js';

/**
 * The account's people and places the screens pick from: inboxes (an agent gets only the ones they
 * are a member of: the server filters them), teams, labels and agents. Read once per account, when
 * a screen first needs them, and again on `refresh`.
 */
export const useDirectoryStore = defineStore('directory', () => {
  const accountId = shallowRef<number | null>(null);
  const inboxes = shallowRef<Inbox[]>([]);
  const teams = shallowRef<Team[]>([]);
  const labels = shallowRef<Label[]>([]);
  const agents = shallowRef<Agent[]>([]);
  const error = shallowRef<ApiError | null>(null);
  let loading: Promise<void> | null = null;

  const inboxById = computed(() => new Map(inboxes.value.map((i) => [i.id, i])));
  const labelByTitle = computed(() => new Map(labels.value.map((l) => [l.title, l])));

  async function read(account: number): Promise<void> {
    const path = { accountId: account };
    const [i, t, l, a] = await Promise.all([
      settle(api.GET('/api/v1/accounts/{accountId}/inboxes', { params: { path } })),
      settle(api.GET('/api/v1/accounts/{accountId}/teams', { params: { path } })),
      settle(api.GET('/api/v1/accounts/{accountId}/labels', { params: { path } })),
      settle(api.GET('/api/v1/accounts/{accountId}/agents', { params: { path } })),
    ]);
    if (accountId.value !== account) return;
    inboxes.value = i.ok ? [...i.data.payload].sort((x, y) => x.name.localeCompare(y.name)) : [];
    teams.value = t.ok ? [...t.data].sort((x, y) => x.name.localeCompare(y.name)) : [];
    labels.value = l.ok ? l.data.payload : [];
    agents.value = a.ok ? [...a.data].sort((x, y) => x.name.localeCompare(y.name)) : [];
    const failed = [i, t, l, a].find((o) => !o.ok);
    error.value = failed && !failed.ok ? failed.error : null;
  }

  /** Loads the account's directory unless it is loaded (or loading) already. */
  function load(account: number): Promise<void> {
    if (accountId.value === account && loading) return loading;
    accountId.value = account;
    inboxes.value = teams.value = labels.value = agents.value = [];
    loading = read(account);
    return loading;
  }

  function refresh(): Promise<void> {
    if (accountId.value === null) return Promise.resolve();
    loading = read(accountId.value);
    return loading;
  }

  return { accountId, inboxes, teams, labels, agents, error, inboxById, labelByTitle, load, refresh };
});
