/**
 * The ActionCable wire protocol (`actioncable-v1-json`), as Rails' ActionCable server speaks it and
 * as the `@rails/actioncable` client (Chatwoot's dashboard and web widget) expects it. One JSON
 * text frame per message.
 *
 * Server -> client
 *   {"type":"welcome"}                                      once, right after the upgrade
 *   {"type":"ping","message":<unix seconds>}                every 3 s (the client reconnects when
 *                                                           pings stop for ~6 s)
 *   {"identifier":"<id>","type":"confirm_subscription"}     the subscription is live
 *   {"identifier":"<id>","type":"reject_subscription"}      unknown token, bad identifier, too many
 *   {"identifier":"<id>","message":{"event":"message.created","data":{...}}}   a push
 *   {"type":"disconnect","reason":"server_restart","reconnect":true}           before a shutdown
 *                                                           (then close code 1001)
 *
 * Client -> server
 *   {"command":"subscribe","identifier":"<id>"}
 *   {"command":"unsubscribe","identifier":"<id>"}           no answer (as in Rails)
 *   {"command":"message","identifier":"<id>","data":"..."}  channel actions: accepted and ignored
 *   anything else (unknown command, invalid JSON, binary)    ignored
 *
 * `<id>` is a JSON document sent as a string, e.g. `{"channel":"RoomChannel","pubsub_token":"..."}`.
 * It is echoed byte for byte, because clients match pushes to subscriptions by that exact string.
 * The WebSocket subprotocol `actioncable-v1-json` is selected when the client offers it.
 */

export const CABLE_SUBPROTOCOL = 'actioncable-v1-json';

/** A push: the `message` of a frame, e.g. `{event: 'message.created', data: {...}}`. */
export interface CableMessage {
  readonly event: string;
  readonly data: unknown;
}

export type ClientCommand =
  | { readonly command: 'subscribe' | 'unsubscribe'; readonly identifier: string }
  | { readonly command: 'message'; readonly identifier: string };

/**
 * Parses one client frame; null for anything that is not a well-formed command with a string
 * identifier of at most `maxIdentifierLength` characters (such frames are ignored).
 */
export function parseClientFrame(text: string, maxIdentifierLength: number): ClientCommand | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const { command, identifier } = value as Record<string, unknown>;
  if (typeof identifier !== 'string' || identifier.length === 0 || identifier.length > maxIdentifierLength) return null;
  if (command === 'subscribe' || command === 'unsubscribe' || command === 'message') return { command, identifier };
  return null;
}

/** The identifier's JSON object (`{"channel": ..., ...}`), or null when it is not one. */
export function parseIdentifier(identifier: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(identifier);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export const welcomeFrame = (): string => '{"type":"welcome"}';

export const pingFrame = (nowMs: number): string => `{"type":"ping","message":${Math.floor(nowMs / 1000)}}`;

export const confirmFrame = (identifier: string): string =>
  `{"identifier":${JSON.stringify(identifier)},"type":"confirm_subscription"}`;

export const rejectFrame = (identifier: string): string =>
  `{"identifier":${JSON.stringify(identifier)},"type":"reject_subscription"}`;

export const disconnectFrame = (reason: string, reconnect: boolean): string =>
  JSON.stringify({ type: 'disconnect', reason, reconnect });

/**
 * A push frame from the already-serialized identifier and message, so one event's message is
 * serialized once however many subscriptions receive it.
 */
export const pushFrame = (identifierJson: string, messageJson: string): string =>
  `{"identifier":${identifierJson},"message":${messageJson}}`;

/** The subprotocol to answer with: ActionCable's when offered, none otherwise (plain clients). */
export function selectSubprotocol(offered: ReadonlySet<string>): string | false {
  return offered.has(CABLE_SUBPROTOCOL) ? CABLE_SUBPROTOCOL : false;
}
