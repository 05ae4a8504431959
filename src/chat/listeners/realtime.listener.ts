import type { Broadcaster } from '../../core/realtime/broadcaster.js';
import { chatListener } from '../events.js';

/**
 * Realtime push: after the dispatch commit, announces each event that has a push (the `realtime`
 * events the modules declare) to every instance's hub (PostgreSQL: NOTIFY with the event id; SQLite: in process). Best effort: nothing
 * is written, and a failure is logged by the dispatcher, not retried.
 */
export function realtimeListener(broadcaster: Broadcaster, pushed: ReadonlySet<string>) {
  return chatListener({
    name: 'realtime',
    afterCommit(event) {
      if (event.accountId === null || !pushed.has(event.name)) return;
      const { id, accountId, name, snapshot, origin, createdAt } = event;
      broadcaster.publish({ id, accountId, name, payload: snapshot as Record<string, unknown>, origin, createdAt });
    },
  });
}
