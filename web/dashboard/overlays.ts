import { shallowRef } from 'vue';

/** The shell's overlays any screen may open: the command bar (Mod+K) and the keyboard shortcuts (Mod+/). */
export const commandBarOpen = shallowRef(false);
export const shortcutsOpen = shallowRef(false);
