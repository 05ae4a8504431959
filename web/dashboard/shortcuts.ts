import { onBeforeUnmount, onMounted } from 'vue';
import { useI18n } from 'vue-i18n';
import type { MessageKey } from './i18n/keys.js';

/**
 * The dashboard's keyboard shortcuts (Chatwoot's where it has one: Alt+J / Alt+K between
 * conversations, Alt+E to resolve, Alt+P for a private note, Mod+K for the command bar, Mod+/ for
 * this list). Every shortcut holds a modifier, so typing never triggers one (WCAG 2.1.4). Keys are
 * matched by their physical code, so Alt+letter works on a Mac keyboard too (where Alt types a symbol).
 */
export interface Shortcut {
  id: ShortcutId;
  /** Ctrl, or Command on Apple systems. */
  mod?: boolean;
  alt?: boolean;
  code: string;
  /** The key as written in the help ("K", "/", "Enter"). */
  key: string;
  label: MessageKey;
  group: 'general' | 'conversation';
}

export type ShortcutId =
  'commandBar' | 'help' | 'next' | 'previous' | 'focusReply' | 'send' | 'togglePrivate' | 'resolve';

export const SHORTCUTS: readonly Shortcut[] = [
  { id: 'commandBar', mod: true, code: 'KeyK', key: 'K', label: 'shortcuts.commandBar', group: 'general' },
  { id: 'help', mod: true, code: 'Slash', key: '/', label: 'shortcuts.help', group: 'general' },
  { id: 'next', alt: true, code: 'KeyJ', key: 'J', label: 'shortcuts.next', group: 'general' },
  { id: 'previous', alt: true, code: 'KeyK', key: 'K', label: 'shortcuts.previous', group: 'general' },
  { id: 'focusReply', alt: true, code: 'KeyR', key: 'R', label: 'shortcuts.focusReply', group: 'conversation' },
  { id: 'send', mod: true, code: 'Enter', key: 'Enter', label: 'shortcuts.send', group: 'conversation' },
  { id: 'togglePrivate', alt: true, code: 'KeyP', key: 'P', label: 'shortcuts.togglePrivate', group: 'conversation' },
  { id: 'resolve', alt: true, code: 'KeyE', key: 'E', label: 'shortcuts.resolve', group: 'conversation' },
];

const apple = (): boolean => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** Whether a key press is this shortcut. */
export function isShortcut(event: KeyboardEvent, shortcut: Shortcut): boolean {
  const mod = apple() ? event.metaKey : event.ctrlKey;
  return (
    event.code === shortcut.code &&
    mod === !!shortcut.mod &&
    event.altKey === !!shortcut.alt &&
    !event.shiftKey &&
    (apple() || !event.metaKey)
  );
}

/** The keys of a shortcut as the help and hints write them ("Ctrl K", "⌘ K", "Alt J", "⌥ J"). */
export function shortcutKeys(id: ShortcutId): string[] {
  const s = SHORTCUTS.find((x) => x.id === id)!;
  const keys: string[] = [];
  if (s.mod) keys.push(apple() ? '⌘' : 'Ctrl');
  if (s.alt) keys.push(apple() ? '⌥' : 'Alt');
  keys.push(s.key);
  return keys;
}

/** A shortcut's keys as one piece of text ("Ctrl + K"). */
export function useShortcutLabel() {
  const { t } = useI18n();
  return (id: ShortcutId) => shortcutKeys(id).join(` ${t('shortcuts.plus')} `);
}

type Handler = (event: KeyboardEvent) => void;
const handlers = new Map<ShortcutId, Handler[]>();
let listening = false;

function dispatch(event: KeyboardEvent) {
  if (event.isComposing || event.repeat) return;
  for (const shortcut of SHORTCUTS) {
    if (!isShortcut(event, shortcut)) continue;
    const stack = handlers.get(shortcut.id);
    const handler = stack?.[stack.length - 1];
    if (!handler) continue;
    event.preventDefault();
    handler(event);
    return;
  }
}

/** Handles a shortcut while the calling component is on screen (the one mounted last wins). */
export function useShortcut(id: ShortcutId, handler: Handler): void {
  onMounted(() => {
    if (!listening) {
      window.addEventListener('keydown', dispatch);
      listening = true;
    }
    handlers.set(id, [...(handlers.get(id) ?? []), handler]);
  });
  onBeforeUnmount(() => {
    handlers.set(
      id,
      (handlers.get(id) ?? []).filter((h) => h !== handler),
    );
  });
}
