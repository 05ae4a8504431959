import { createPinia } from 'pinia';
import { createApp, watch } from 'vue';
import '../ui/styles.css';
import { sessionHeaders } from '../shared/auth/device-session.js';
import { connectApi } from './api.js';
import App from './App.vue';
import { applyLanguage, currentLanguage, i18n } from './i18n/index.js';
import { createDashboardRouter } from './router.js';
import { usePreferencesStore } from './stores/preferences.store.js';
import { useSessionStore } from './stores/session.store.js';

/**
 * The dashboard's start: the UI's language first (its catalogue is fetched), then the API's
 * connection to the session, then the router, which decides the first page.
 */
const app = createApp(App);
const pinia = createPinia();
app.use(pinia).use(i18n);

const preferences = usePreferencesStore(pinia);
await applyLanguage(preferences.language);

const session = useSessionStore(pinia);
const router = createDashboardRouter();
connectApi({
  credentials: () => (session.device ? sessionHeaders(session.device) : {}),
  language: currentLanguage,
  // The server no longer knows the session (it ended, expired, or a new password ended it).
  onUnauthorized: () => session.forget('ended'),
});

// Whenever the session goes (sign-out here or in another tab, or ended by the server), a page
// that needs it gives way to the sign-in page, which says why and comes back after.
watch(
  () => session.signedIn,
  async (signedIn) => {
    const here = router.currentRoute.value;
    if (signedIn || here.meta.public || here.matched.length === 0) return;
    await router.replace({ name: 'login', query: session.ending === 'ended' ? { redirect: here.fullPath } : {} });
  },
);

app.use(router);
await router.isReady();
app.mount('#app');
