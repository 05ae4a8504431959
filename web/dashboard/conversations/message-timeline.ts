/**
 * The messages of the open conversation as the screen holds them: the server's messages in id
 * order, and the ones this device is sending (each with an `echo_id`, made here and sent with
 * it). A sent message can come back twice, in the answer to its POST and, once realtime is wired,
 * as the pushed `message.created` echo, in either order; both carry the same id and echo_id, so
 * it is shown exactly once: the first arrival replaces the pending copy, the second updates it.
 */

/** What the timeline reads of a message (the API's message has all of it). */
export interface TimelineMessage {
  id: number;
  echo_id: string | null;
  created_at: number;
}

export interface PendingMessage {
  echoId: string;
  content: string;
  private: boolean;
  files: readonly File[];
  /** Upload progress from 0 to 1 (1 without files). */
  progress: number;
  state: 'sending' | 'failed';
  error?: string;
  createdAt: number;
}

export interface Timeline<M extends TimelineMessage> {
  messages: M[];
  pending: PendingMessage[];
}

/** Inserts or replaces messages by id, keeping id order; pending copies they confirm (same echo_id) leave. */
export function receive<M extends TimelineMessage>(timeline: Timeline<M>, incoming: readonly M[]): Timeline<M> {
  if (incoming.length === 0) return timeline;
  const byId = new Map(timeline.messages.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  const echoes = new Set(incoming.map((m) => m.echo_id).filter((e): e is string => !!e));
  return {
    messages: [...byId.values()].sort((a, b) => a.id - b.id),
    pending: echoes.size ? timeline.pending.filter((p) => !echoes.has(p.echoId)) : timeline.pending,
  };
}

/** Adds a message being sent, shown at the end until the server confirms it. */
export function enqueue<M extends TimelineMessage>(timeline: Timeline<M>, pending: PendingMessage): Timeline<M> {
  // A message already confirmed (its echo arrived first) is not queued again.
  if (timeline.messages.some((m) => m.echo_id === pending.echoId)) return timeline;
  return { ...timeline, pending: [...timeline.pending.filter((p) => p.echoId !== pending.echoId), pending] };
}

/** Changes a pending message (progress, failure); nothing when it was confirmed meanwhile. */
export function updatePending<M extends TimelineMessage>(
  timeline: Timeline<M>,
  echoId: string,
  change: Partial<PendingMessage>,
): Timeline<M> {
  if (!timeline.pending.some((p) => p.echoId === echoId)) return timeline;
  return { ...timeline, pending: timeline.pending.map((p) => (p.echoId === echoId ? { ...p, ...change } : p)) };
}

export function dropPending<M extends TimelineMessage>(timeline: Timeline<M>, echoId: string): Timeline<M> {
  return { ...timeline, pending: timeline.pending.filter((p) => p.echoId !== echoId) };
}

/** The oldest message loaded (the `before` of the next older page). */
export const oldestId = (timeline: Timeline<TimelineMessage>): number | undefined => timeline.messages[0]?.id;

/** The newest message loaded (the `after` of a catch-up). */
export const newestId = (timeline: Timeline<TimelineMessage>): number | undefined => timeline.messages.at(-1)?.id;

/** A new echo id: unique per message this device sends. */
export const newEchoId = (): string => `web-${crypto.randomUUID()}`;
