import type { Conversation } from '../api.js';
import type { ServerEvent } from '../conversations/server-events.js';

/**
 * Where server events go: every store that shows conversations or messages listens (`onServerEvent`,
 * once, when it is created) and applies them to what it holds. Today the stores hand it the
 * conversation or message their own requests answered (and an optimistic change first, undone by
 * the server's answer); wiring `/cable` later is one subscription that calls `applyServerEvent`
 * with each pushed event.
 */
type Listener = (event: ServerEvent, before?: Conversation) => void;

const listeners = new Set<Listener>();

export function onServerEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Applies an event everywhere; `before` is the conversation as the screen knew it, when the event changes one. */
export function applyServerEvent(event: ServerEvent, before?: Conversation): void {
  for (const listener of listeners) listener(event, before);
}
