import { render } from 'preact';
import { envelope, readHostMessage, type FrameMessage, type HostMessage } from '../shared/widget/protocol.js';
import { inboxApi, setApiLanguage } from './api.js';
import { App } from './App.js';
import { VisitorCable } from './cable.js';
import { chooseLanguage } from './i18n.js';
import { Session } from './session.js';
import './styles.css';

/**
 * The frame at /widget?website_token=...: the website inbox's chat. It says `loaded` to the page
 * that framed it (nothing secret), and takes the first `init` from its parent window as the host:
 * from then on it reads messages only from that window and origin, and posts only to that origin
 * (the visitor's credential among them). Opened directly, not framed, it is a full-page chat.
 */

const token = new URLSearchParams(location.search).get('website_token') ?? '';
const framed = window.parent !== window;
let hostOrigin: string | null = null;

const post = (message: FrameMessage) => {
  if (framed && hostOrigin) window.parent.postMessage(envelope(message), hostOrigin);
};

const echoId = () => {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
};

/** The newest message shown, kept in the frame's storage (partitioned by the host site where browsers do). */
const seenKey = (conversationId: number) => `ponte-widget-seen:${token}:${conversationId}`;
const seen = {
  read(conversationId: number): number | null {
    try {
      const value = Number(localStorage.getItem(seenKey(conversationId)));
      return Number.isSafeInteger(value) && value > 0 ? value : null;
    } catch {
      return null;
    }
  },
  write(conversationId: number, id: number): void {
    try {
      localStorage.setItem(seenKey(conversationId), String(id));
    } catch {
      // Storage refused (a browser blocking third-party storage): the server's time alone decides.
    }
  },
};

const session = new Session(
  {
    api: inboxApi(token),
    post,
    connect: (pubsubToken, onPush, onConnected) => {
      const cable = new VisitorCable({
        url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/cable`,
        pubsubToken,
        onPush,
        onConnected,
      });
      return () => cable.close();
    },
    newEchoId: echoId,
    seen,
  },
  chooseLanguage(null, navigator.languages),
);

function setLanguage(choice: string | null) {
  const language = chooseLanguage(choice, navigator.languages);
  document.documentElement.lang = language;
  setApiLanguage(language);
  session.setLanguage(language);
}

function onHostMessage(message: HostMessage) {
  switch (message.type) {
    case 'init':
      setLanguage(message.locale);
      void session.init(message.credential, message.open);
      return;
    case 'open':
      void session.open();
      return;
    case 'close':
      session.close();
      return;
    case 'set-user':
      void session.setUser(message.identifier, message.user);
      return;
    case 'set-custom-attributes':
      void session.setCustomAttributes(message.attributes);
      return;
    case 'delete-custom-attribute':
      void session.deleteCustomAttribute(message.key);
      return;
    case 'set-label':
    case 'remove-label':
      session.label(message.type);
      return;
    case 'set-locale':
      setLanguage(message.locale);
      return;
    case 'campaign':
      void session.campaign(message.campaignId);
      return;
    case 'reset':
      session.reset();
      return;
  }
}

window.addEventListener('message', (event: MessageEvent) => {
  if (!framed || event.source !== window.parent) return;
  const message = readHostMessage(event.data);
  if (!message) return;
  if (hostOrigin === null) {
    if (message.type !== 'init' || event.origin === 'null') return;
    hostOrigin = event.origin;
  } else if (event.origin !== hostOrigin) return;
  onHostMessage(message);
});

render(
  <App session={session} standalone={!framed} onClose={() => post({ type: 'close' })} />,
  document.getElementById('widget')!,
);

setLanguage(null);
if (framed) window.parent.postMessage(envelope({ type: 'loaded' }), '*');
else void session.init(null, true);
