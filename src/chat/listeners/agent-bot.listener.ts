import { enqueueDelivery } from '../../core/webhooks/deliveries.js';
import { chatListener } from '../events.js';

/**
 * Agent bots receive `message_created` for the conversations of the inboxes they are connected
 * to, at their `outgoing_url`, through the same delivery queue as webhooks. A bot is not sent its
 * own messages, nor private notes.
 */
export function agentBotListener() {
  return chatListener({
    name: 'agent-bots',
    events: ['message_created'],
    async handle(trx, event) {
      const { refs } = event;
      if (event.accountId === null || refs.private) return;
      const bot = await trx
        .selectFrom('inboxes')
        .innerJoin('agent_bots', 'agent_bots.id', 'inboxes.agent_bot_id')
        .select(['agent_bots.id as id', 'agent_bots.outgoing_url as outgoing_url'])
        .where('inboxes.account_id', '=', event.accountId)
        .where('inboxes.id', '=', refs.inboxId)
        .executeTakeFirst();
      if (!bot?.outgoing_url) return;
      if (refs.senderType === 'agent_bot' && refs.senderId === bot.id) return;
      await enqueueDelivery(trx, {
        accountId: event.accountId,
        subscriberType: 'agent_bot',
        subscriberId: bot.id,
        url: bot.outgoing_url,
        eventName: event.name,
        eventId: event.id,
        payload: event.snapshot,
      });
    },
  });
}
