import { defineStore } from 'pinia';
import { ref } from 'vue';

export interface Notice {
  id: number;
  tone: 'success' | 'error';
  text: string;
  /** A button in the notice (an undo), which dismisses it. */
  action?: NoticeAction;
}

export interface NoticeAction {
  label: string;
  run: () => void;
}

/** Short confirmations and failures of an action, shown for a few seconds (and read out: NoticeTray). */
export const useNoticesStore = defineStore('notices', () => {
  const notices = ref<Notice[]>([]);
  let next = 1;

  function dismiss(id: number) {
    notices.value = notices.value.filter((n) => n.id !== id);
  }

  function notify(tone: Notice['tone'], text: string, ms = 5000, action?: NoticeAction) {
    const id = next++;
    notices.value = [...notices.value.slice(-2), { id, tone, text, ...(action ? { action } : {}) }];
    window.setTimeout(() => dismiss(id), ms);
  }

  return { notices, notify, dismiss };
});
