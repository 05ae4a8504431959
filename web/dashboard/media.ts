import { onBeforeUnmount, shallowRef, type Ref } from 'vue';

/** Whether a media query matches now, following it as the window changes. */
export function useMediaQuery(query: string): Ref<boolean> {
  const list = window.matchMedia(query);
  const matches = shallowRef(list.matches);
  const follow = (e: MediaQueryListEvent) => (matches.value = e.matches);
  list.addEventListener('change', follow);
  onBeforeUnmount(() => list.removeEventListener('change', follow));
  return matches;
}
