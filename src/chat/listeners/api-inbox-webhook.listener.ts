import { enqueueDelivery } from '../../core/webhooks/deliveries.js';
import { chatListener } from '../events.js';
import { API_INBOX_SUBSCRIBER, type InboxesService } from '../modules/inboxes/inboxes.service.js';

/** The events an API inbox's webhook_url receives (docs/spec/decisions.md §1, as Chatwoot sends them). */
export const API_INBOX_EVENTS = [
  'message_created',
  'message_updated',
  'conversation_created',
  'conversation_status_changed',
  'conversation_updated',
  'webwidget_triggered',
] as const;

/**
 * API inboxes receive their own inbox's events at `channel.webhook_url`, through the same signed,
 * retried delivery queue as webhooks (with its delivery log): this is how WhatsApp bridges
 * (Evolution API and others) learn about agents' replies. The body is the event's webhook body.
 * Activities are not sent (Chatwoot sends incoming, outgoing and template messages); private notes
 * are, flagged `private: true`, as Chatwoot does.
 */
export function apiInboxWebhookListener(inboxes: InboxesService) {
  return chatListener({
    name: 'api-inbox-webhooks',
    events: API_INBOX_EVENTS,
    async handle(trx, event) {
      if (event.accountId === null) return;
      if ((event.name === 'message_created' || event.name === 'message_updated') && event.refs.messageType === 2)
        return;
      const url = await inboxes.apiWebhookUrl(trx, event.accountId, event.refs.inboxId);
      if (!url) return;
      await enqueueDelivery(trx, {
        accountId: event.accountId,
        subscriberType: API_INBOX_SUBSCRIBER,
        subscriberId: event.refs.inboxId,
        url,
        eventName: event.name,
        eventId: event.id,
        payload: event.snapshot,
      });
    },
  });
}
