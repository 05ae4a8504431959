import { computed, reactive, ref } from 'vue';
import { useI18n } from 'vue-i18n';
import type { Availability } from './api.js';
import { useCurrentAccount } from './current-account.js';
import { errorSentence } from './errors.js';
import { useNoticesStore } from './stores/notices.store.js';
import { useSessionStore } from './stores/session.store.js';

export const AVAILABILITIES = ['online', 'busy', 'offline'] as const satisfies readonly Availability[];

/** The dot beside a name, per availability. */
export const AVAILABILITY_DOT: Record<Availability, string> = {
  online: 'bg-online',
  busy: 'bg-busy',
  offline: 'bg-offline',
};

const asAvailability = (value: string | undefined): Availability =>
  AVAILABILITIES.find((a) => a === value) ?? 'offline';

/** The signed-in user's availability in the page's account, and setting it (with a notice either way). */
export function useAvailability() {
  const { t } = useI18n();
  const session = useSessionStore();
  const notices = useNoticesStore();
  const account = useCurrentAccount();
  const saving = ref(false);

  const status = computed(() => asAvailability(account.value?.availability));
  const settable = computed(() => account.value !== undefined && session.canSetAvailability(account.value.id));

  async function set(next: Availability) {
    const target = account.value;
    if (!target || saving.value || next === status.value) return;
    saving.value = true;
    const refused = await session.setAvailability(target.id, next);
    saving.value = false;
    if (refused) notices.notify('error', t('availability.failed', { reason: errorSentence(refused) }));
    else notices.notify('success', t('availability.saved', { status: t(`availability.${next}`) }));
  }

  return reactive({ status, settable, saving, set });
}
