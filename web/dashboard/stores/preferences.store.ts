import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { isLanguage, uiLanguage, type Language } from '../../shared/i18n/language.js';
import { applyLanguage } from '../i18n/index.js';

const LANGUAGE_KEY = 'ponte.language';

function storedChoice(): Language | null {
  const value = window.localStorage.getItem(LANGUAGE_KEY);
  return isLanguage(value) ? value : null;
}

/** What the user chose on this device: the UI's language (none chosen: the browser's). */
export const usePreferencesStore = defineStore('preferences', () => {
  const choice = ref<Language | null>(storedChoice());
  const browser = computed(() => uiLanguage(null, navigator.languages));
  const language = computed(() => choice.value ?? browser.value);

  async function chooseLanguage(next: Language | null): Promise<void> {
    choice.value = next;
    if (next) window.localStorage.setItem(LANGUAGE_KEY, next);
    else window.localStorage.removeItem(LANGUAGE_KEY);
    await applyLanguage(language.value);
  }

  return { choice, browser, language, chooseLanguage };
});
