/**
 * What the loader (web/sdk, on the host page) and the frame (web/widget, at /widget) say to each
 * other by postMessage. Every message carries `ponte: 'widget'`; each side checks the sender (the
 * frame's window and origin, or the parent's window and the origin its `init` came from) before
 * reading one, and reads it only through these guards.
 */

export const WIDGET_CHANNEL = 'widget';

/** The visitor's identity as `$chatwoot.setUser(identifier, user)` gives it. */
export interface WidgetUser {
  name?: string;
  email?: string;
  phone_number?: string;
  identifier_hash?: string;
}

/** Loader to frame. `credential` is the contact identifier kept in the host page's cookie. */
export type HostMessage =
  | { type: 'init'; credential: string | null; locale: string | null; open: boolean }
  | { type: 'open' }
  | { type: 'close' }
  | { type: 'set-user'; identifier: string; user: WidgetUser }
  | { type: 'set-custom-attributes'; attributes: Record<string, unknown> }
  | { type: 'delete-custom-attribute'; key: string }
  | { type: 'set-label'; label: string }
  | { type: 'remove-label'; label: string }
  | { type: 'set-locale'; locale: string }
  | { type: 'campaign'; campaignId: number }
  | { type: 'reset' };

/** A message as the widget hands it to the host page (`chatwoot:on-message`). */
export interface WidgetMessage {
  id: number;
  content: string | null;
  message_type: number;
  created_at: number;
  conversation_id: number;
  sender: { name: string; type: string } | null;
}

/** Frame to loader. */
export type FrameMessage =
  | { type: 'loaded' }
  | { type: 'credential'; credential: string | null }
  | { type: 'unread'; count: number }
  | { type: 'message'; message: WidgetMessage }
  | { type: 'close' }
  | { type: 'error'; code: string; message: string };

type Envelope<T> = T & { ponte: typeof WIDGET_CHANNEL };

export const envelope = <T extends HostMessage | FrameMessage>(message: T): Envelope<T> => ({
  ponte: WIDGET_CHANNEL,
  ...message,
});

const HOST_TYPES = new Set<string>([
  'init',
  'open',
  'close',
  'set-user',
  'set-custom-attributes',
  'delete-custom-attribute',
  'set-label',
  'remove-label',
  'set-locale',
  'campaign',
  'reset',
]);
const FRAME_TYPES = new Set<string>(['loaded', 'credential', 'unread', 'message', 'close', 'error']);

const isEnvelope = (data: unknown): data is { ponte: string; type: string } =>
  typeof data === 'object' &&
  data !== null &&
  (data as { ponte?: unknown }).ponte === WIDGET_CHANNEL &&
  typeof (data as { type?: unknown }).type === 'string';

/** A message of the loader, or null for anything else posted to the frame. */
export function readHostMessage(data: unknown): HostMessage | null {
  return isEnvelope(data) && HOST_TYPES.has(data.type) ? (data as unknown as HostMessage) : null;
}

/** A message of the frame, or null for anything else posted to the host page. */
export function readFrameMessage(data: unknown): FrameMessage | null {
  return isEnvelope(data) && FRAME_TYPES.has(data.type) ? (data as unknown as FrameMessage) : null;
}

/** `chatwootSettings.locale` ('pt_BR', 'pt-BR', 'en') as one of the widget's languages, or null when it names none. */
export function widgetLanguage(locale: string | null | undefined): 'en' | 'pt-BR' | null {
  if (!locale) return null;
  const lower = locale.toLowerCase().replace('_', '-');
  if (lower === 'pt' || lower.startsWith('pt-')) return 'pt-BR';
  if (lower === 'en' || lower.startsWith('en-')) return 'en';
  return null;
}
