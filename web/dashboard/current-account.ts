import { computed } from 'vue';
import { useRoute } from 'vue-router';
import { useSessionStore } from './stores/session.store.js';

/** The account of the page (`/app/accounts/:accountId/...`), as the profile lists it. */
export function useCurrentAccount() {
  const route = useRoute();
  const session = useSessionStore();
  return computed(() => session.accountById(Number(route.params.accountId)));
}
