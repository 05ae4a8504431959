import { chatListener } from '../../events.js';
import type { AppliedSlasService } from './applied-slas.service.js';

/**
 * The conversation's own events move its applied SLA: a message (a customer waiting, an agent's
 * reply), a status change (resolved, reopened), an assignment. Handled in the dispatch
 * transaction, once per event; a breach found here is recorded at the event's time.
 */
export function slaListener(applied: AppliedSlasService) {
  return chatListener({
    name: 'sla.deadlines',
    events: ['message_created', 'conversation_status_changed', 'conversation_updated'],
    async handle(trx, event) {
      if (event.accountId === null) return;
      const conversationId = event.refs.conversationId;
      switch (event.name) {
        case 'message_created':
          await applied.onMessage(
            trx,
            event.accountId,
            conversationId,
            { type: event.refs.messageType, private: event.refs.private, human: event.refs.senderType === 'user' },
            event.createdAt,
          );
          return;
        case 'conversation_status_changed':
          await applied.onStatus(trx, event.accountId, conversationId, event.snapshot.status, event.createdAt);
          return;
        case 'conversation_updated':
          await applied.onUpdated(trx, event.accountId, conversationId, {
            assigneeId: event.snapshot.assignee?.id ?? null,
            teamId: event.snapshot.team?.id ?? null,
          });
          return;
      }
    },
  });
}
