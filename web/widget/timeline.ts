import type { WidgetMessage } from '../shared/widget/protocol.js';
import type { PublicAttachment, PublicMessage } from './api.js';

/**
 * The messages the widget shows, as pure rules (unit tested): one entry per message however it
 * arrives (the answer to the visitor's send, the channel's echo of it, a re-read after a
 * reconnect), matched by server id or by the visitor's `echo_id`, in creation order.
 */

export interface Shown {
  /** Stable key: the echo id while the visitor's message is on its way, else `m<id>`. */
  key: string;
  id: number | null;
  echoId: string | null;
  content: string;
  /** Sent by the visitor (message_type 0). */
  mine: boolean;
  sender: string | null;
  createdAt: number;
  state: 'sending' | 'sent' | 'failed';
  attachments: PublicAttachment[];
}

export function fromServer(m: PublicMessage): Shown {
  return {
    key: m.echo_id && m.message_type === 0 ? m.echo_id : `m${m.id}`,
    id: m.id,
    echoId: m.echo_id,
    content: m.content ?? '',
    mine: m.message_type === 0,
    sender: m.sender?.available_name ?? m.sender?.name ?? null,
    createdAt: m.created_at,
    state: 'sent',
    attachments: (m.attachments ?? []).map(({ id, data_url, file_type, extension }) => ({
      id,
      data_url,
      file_type,
      extension,
    })),
  };
}

/** The list with `shown` in place of the entry it matches (same id, or same echo id), else added in order. */
export function merge(list: readonly Shown[], shown: Shown): Shown[] {
  const at = list.findIndex(
    (m) => (shown.id !== null && m.id === shown.id) || (shown.echoId !== null && m.echoId === shown.echoId && m.mine),
  );
  if (at >= 0) {
    const next = list.slice();
    next[at] = { ...shown, key: list[at].key };
    return next;
  }
  const next = [...list, shown];
  // Entries still on their way stay last; the others by creation time, then id.
  return next.sort((a, b) =>
    a.id === null || b.id === null
      ? Number(a.id === null) - Number(b.id === null)
      : a.createdAt - b.createdAt || a.id - b.id,
  );
}

/** A channel push applied: `added` tells whether it is a message the list did not hold. */
export function applyPush(
  list: readonly Shown[],
  event: string,
  message: PublicMessage,
): { messages: Shown[]; added: boolean } {
  if (event !== 'message.created' && event !== 'message.updated') return { messages: list.slice(), added: false };
  const shown = fromServer(message);
  const known = list.some(
    (m) => m.id === shown.id || (shown.echoId !== null && shown.mine && m.echoId === shown.echoId),
  );
  return { messages: merge(list, shown), added: !known && event === 'message.created' };
}

/** The newest server id held, for a re-read of what came after it. */
export function lastServerId(list: readonly Shown[]): number | null {
  return list.reduce<number | null>((max, m) => (m.id !== null && (max === null || m.id > max) ? m.id : max), null);
}

/**
 * Messages from the agents the visitor has not seen: created since the visitor last looked
 * (`seenAt`, UNIX seconds, as the server keeps it) and newer than the newest message this browser
 * showed them (`seenId`, when it knows it). Messages carry whole seconds, so the id settles a
 * message of the same second as the look; without one, such a message counts (a badge too many,
 * never a reply missed).
 */
export const unreadAfter = (list: readonly Shown[], seenAt: number, seenId: number | null): number =>
  list.filter((m) => !m.mine && m.createdAt >= Math.floor(seenAt) && (seenId === null || (m.id ?? 0) > seenId)).length;

/** A message as the host page gets it (`chatwoot:on-message`): the public fields, the sender's name and kind. */
export const forHost = (m: PublicMessage): WidgetMessage => ({
  id: m.id,
  content: m.content,
  message_type: m.message_type,
  created_at: m.created_at,
  conversation_id: m.conversation_id,
  sender: m.sender ? { name: m.sender.name, type: m.sender.type } : null,
});
