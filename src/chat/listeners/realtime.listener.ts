import type { EventListener } from '../../core/events/dispatcher.js';
import type { Broadcaster } from '../../core/realtime/broadcaster.js';
import type { ChatDatabase } from '../db/schema.js';
import { REALTIME_EVENTS } from '../realtime/realtime.routing.js';

/**
 * Realtime push: after the dispatch commit, announces each event that has a push to every
 * instance's hub (PostgreSQL: NOTIFY with the event id; SQLite: in process). Best effort: nothing
 * is written, and a failure is logged by the dispatcher, not retried.
 */
export function realtimeListener(broadcaster: Broadcaster): EventListener<ChatDatabase> {
  return {
    name: 'realtime',
    afterCommit(event) {
      if (event.accountId !== null && REALTIME_EVENTS.has(event.name)) broadcaster.publish(event);
    },
  };
}
