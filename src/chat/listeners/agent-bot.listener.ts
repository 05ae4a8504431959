import type { EventListener } from '../../core/events/dispatcher.js';
import { enqueueDelivery } from '../../core/webhooks/deliveries.js';
import type { ChatDatabase } from '../db/schema.js';

interface MessagePayload {
  inbox?: { id?: number };
  sender?: { id?: number; type?: string } | null;
  private?: boolean;
}

/**
 * Agent bots receive `message_created` for the conversations of the inboxes they are connected
 * to, at their `outgoing_url`, through the same delivery queue as webhooks. A bot is not sent its
 * own messages, nor private notes.
 */
export function agentBotListener(): EventListener<ChatDatabase> {
  return {
    name: 'agent-bots',
    async inTransaction(trx, event) {
      if (event.accountId === null || event.name !== 'message_created') return;
      const payload = event.payload as MessagePayload;
      const inboxId = payload.inbox?.id;
      if (typeof inboxId !== 'number' || payload.private) return;
      const bot = await trx
        .selectFrom('inboxes')
        .innerJoin('agent_bots', 'agent_bots.id', 'inboxes.agent_bot_id')
        .select(['agent_bots.id as id', 'agent_bots.outgoing_url as outgoing_url'])
        .where('inboxes.account_id', '=', event.accountId)
        .where('inboxes.id', '=', inboxId)
        .executeTakeFirst();
      if (!bot?.outgoing_url) return;
      if (payload.sender?.type === 'agent_bot' && payload.sender.id === bot.id) return;
      await enqueueDelivery(trx, {
        accountId: event.accountId,
        subscriberType: 'agent_bot',
        subscriberId: bot.id,
        url: bot.outgoing_url,
        eventName: event.name,
        eventId: event.id,
        payload: event.payload,
      });
    },
  };
}
