import {
  envelope,
  readFrameMessage,
  widgetLanguage,
  type FrameMessage,
  type HostMessage,
  type WidgetUser,
} from '../shared/widget/protocol.js';
import { watchCampaigns } from './campaigns.js';
import { readCredential, writeCredential } from './cookie.js';
import { Launcher } from './launcher.js';
import { LOADER_STRINGS } from './strings.js';

/**
 * The loader served at /packs/js/sdk.js (README.md in web/): Chatwoot's snippet, unchanged but
 * for its BASE_URL, runs it. `chatwootSDK.run({ websiteToken, baseUrl })` reads
 * `window.chatwootSettings`, shows the bubble and defines `window.$chatwoot`; the frame
 * (/widget) is created on the first open, at once for a returning visitor (for the unread badge),
 * or when a call needs the server (setUser...). The conversation credential goes to the frame by
 * postMessage to the frame's origin only, never in its URL.
 */

interface ChatwootSettings {
  position?: 'left' | 'right';
  locale?: string;
  launcherTitle?: string;
  hideMessageBubble?: boolean;
  type?: 'standard' | 'expanded_bubble';
  widgetColor?: string;
}

declare global {
  interface Window {
    chatwootSettings?: ChatwootSettings;
    chatwootSDK?: { run(options: { websiteToken: string; baseUrl: string }): void };
    $chatwoot?: ReturnType<typeof createApi>;
  }
}

const DEFAULT_COLOR = '#1f6feb';

function createApi(websiteToken: string, baseUrl: string) {
  const settings = window.chatwootSettings ?? {};
  const origin = new URL(baseUrl, location.href).origin;
  const frameUrl = `${origin}/widget?website_token=${encodeURIComponent(websiteToken)}`;
  let locale = widgetLanguage(settings.locale);
  const strings = () => LOADER_STRINGS[locale ?? widgetLanguage(navigator.language) ?? 'en'];
  let frameReady = false;
  const pending: HostMessage[] = [];

  const send = (message: HostMessage) => {
    const target = launcher.frame?.contentWindow;
    if (frameReady && target) target.postMessage(envelope(message), origin);
    else {
      pending.push(message);
      launcher.ensureFrame();
    }
  };

  const api = {
    hasLoaded: false,
    isOpen: false,
    websiteToken,
    baseUrl,
    position: settings.position === 'left' ? ('left' as const) : ('right' as const),
    hideMessageBubble: Boolean(settings.hideMessageBubble),
    type: settings.type === 'expanded_bubble' ? ('expanded_bubble' as const) : ('standard' as const),
    launcherTitle: settings.launcherTitle ?? '',
    locale: locale ?? '',

    /** Opens or closes the panel; without a state, the other of the two. */
    toggle(state?: 'open' | 'close') {
      const open = state ? state === 'open' : !api.isOpen;
      if (open === api.isOpen) return;
      api.isOpen = open;
      launcher.setOpen(open);
      send({ type: open ? 'open' : 'close' });
    },
    toggleBubbleVisibility(visibility?: 'show' | 'hide') {
      api.hideMessageBubble = visibility ? visibility === 'hide' : !api.hideMessageBubble;
      launcher.setBubbleVisible(!api.hideMessageBubble);
    },
    setUser(identifier: string | number, user: WidgetUser = {}) {
      if (identifier === undefined || identifier === null || identifier === '') return;
      send({ type: 'set-user', identifier: String(identifier), user: pickUser(user) });
    },
    setCustomAttributes(attributes: Record<string, unknown>) {
      if (attributes && typeof attributes === 'object') send({ type: 'set-custom-attributes', attributes });
    },
    deleteCustomAttribute(key: string) {
      if (key) send({ type: 'delete-custom-attribute', key: String(key) });
    },
    setLabel(label: string) {
      if (label) send({ type: 'set-label', label: String(label) });
    },
    removeLabel(label: string) {
      if (label) send({ type: 'remove-label', label: String(label) });
    },
    setLocale(next: string) {
      locale = widgetLanguage(next) ?? locale;
      api.locale = locale ?? '';
      launcher.setStrings(strings());
      if (launcher.frame) send({ type: 'set-locale', locale: next });
    },
    /** Forgets the visitor: the cookie, the frame's conversation, the open panel. */
    reset() {
      writeCredential(null);
      if (api.isOpen) api.toggle('close');
      if (launcher.frame) send({ type: 'reset' });
      launcher.setUnread(0);
    },
  };

  const launcher = new Launcher(
    {
      frameUrl,
      position: api.position,
      expanded: api.type === 'expanded_bubble',
      launcherTitle: settings.launcherTitle ?? null,
      color: settings.widgetColor ?? DEFAULT_COLOR,
      onToggle: () => api.toggle(),
    },
    strings(),
  );
  launcher.setBubbleVisible(!api.hideMessageBubble);

  window.addEventListener('message', (event: MessageEvent) => {
    if (event.origin !== origin || !launcher.frame || event.source !== launcher.frame.contentWindow) return;
    const message = readFrameMessage(event.data);
    if (message) onFrameMessage(message);
  });

  function onFrameMessage(message: FrameMessage) {
    switch (message.type) {
      case 'loaded': {
        frameReady = true;
        const init: HostMessage = { type: 'init', credential: readCredential(), locale, open: api.isOpen };
        for (const m of [init, ...pending.splice(0)]) launcher.frame?.contentWindow?.postMessage(envelope(m), origin);
        return;
      }
      case 'credential':
        writeCredential(message.credential);
        return;
      case 'unread':
        launcher.setUnread(api.isOpen ? 0 : message.count);
        return;
      case 'message':
        window.dispatchEvent(new CustomEvent('chatwoot:on-message', { detail: message.message }));
        return;
      case 'close':
        api.toggle('close');
        return;
      case 'error':
        window.dispatchEvent(
          new CustomEvent('chatwoot:error', { detail: { code: message.code, message: message.message } }),
        );
        return;
    }
  }

  // A returning visitor gets the (hidden) frame at once, for the unread badge; a new one, the
  // campaigns meant for the page (the first that fires opens the chat with its message).
  if (readCredential()) launcher.ensureFrame();
  else
    watchCampaigns(`${origin}/public/api/v1/inboxes/${encodeURIComponent(websiteToken)}`, (campaignId) => {
      if (api.isOpen || readCredential()) return;
      send({ type: 'campaign', campaignId });
      api.toggle('open');
    });
  return api;
}

function pickUser(user: WidgetUser): WidgetUser {
  const picked: WidgetUser = {};
  for (const key of ['name', 'email', 'phone_number', 'identifier_hash'] as const) {
    const value = user?.[key];
    if (typeof value === 'string' && value !== '') picked[key] = value;
  }
  return picked;
}

function run(options: { websiteToken: string; baseUrl: string }) {
  if (window.$chatwoot || !options?.websiteToken || !options.baseUrl) return;
  const start = () => {
    window.$chatwoot = createApi(options.websiteToken, options.baseUrl);
    window.$chatwoot.hasLoaded = true;
    window.dispatchEvent(new CustomEvent('chatwoot:ready'));
  };
  if (document.body) start();
  else document.addEventListener('DOMContentLoaded', start, { once: true });
}

window.chatwootSDK = { run };
