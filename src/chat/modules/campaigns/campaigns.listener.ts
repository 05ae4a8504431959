import { chatListener } from '../../events.js';
import type { CampaignSending } from './campaigns.sending.js';

/** The campaign number a widget event names (`event_info.campaign_id`), if it names one. */
function campaignNumberOf(snapshot: Record<string, unknown>): number | null {
  const info = snapshot.event_info;
  if (!info || typeof info !== 'object' || Array.isArray(info)) return null;
  const raw = (info as Record<string, unknown>).campaign_id;
  const n = typeof raw === 'string' && /^\d{1,10}$/.test(raw) ? Number(raw) : raw;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 && n <= 2147483647 ? n : null;
}

/**
 * The widget's `campaign.triggered`, recorded as `webwidget_triggered` with the campaign's number
 * in `event_info`, starts the campaign's conversation with that contact. Handled in the dispatch
 * transaction, once per event; a second trigger by the same contact finds its recipient row and
 * does nothing.
 */
export function campaignTriggerListener(sending: CampaignSending) {
  return chatListener({
    name: 'campaigns.widget-trigger',
    events: ['webwidget_triggered'],
    async handle(trx, event) {
      if (event.accountId === null) return;
      const number = campaignNumberOf(event.snapshot);
      if (number === null) return;
      await sending.trigger(trx, event.accountId, event.refs, number);
    },
  });
}
