import { onBeforeUnmount, onMounted, shallowRef, type Ref } from 'vue';

const now = shallowRef(Date.now());
let users = 0;
let timer: number | undefined;

/** The time now, in milliseconds, moving once a minute while a component shows it ("5m ago" stays true). */
export function useNow(): Ref<number> {
  onMounted(() => {
    if (users++ === 0) {
      now.value = Date.now();
      timer = window.setInterval(() => (now.value = Date.now()), 30_000);
    }
  });
  onBeforeUnmount(() => {
    if (--users === 0) window.clearInterval(timer);
  });
  return now;
}
