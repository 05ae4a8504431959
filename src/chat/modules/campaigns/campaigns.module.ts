import type { ChatModule } from '../../module.types.js';
import { campaignTriggerListener } from './campaigns.listener.js';
import {
  migration0041Campaigns,
  type CampaignCountersTable,
  type CampaignRecipientsTable,
  type CampaignsTable,
} from './campaigns.migration.js';
import { campaignsRoutes } from './campaigns.routes.js';
import { CampaignSending } from './campaigns.sending.js';
import { CampaignsService } from './campaigns.service.js';

declare module '../../container.js' {
  interface ChatServices {
    campaigns: CampaignsService;
    campaignSending: CampaignSending;
  }
}
declare module '../../db/schema.js' {
  interface ChatDatabase {
    campaigns: CampaignsTable;
    campaign_counters: CampaignCountersTable;
    campaign_recipients: CampaignRecipientsTable;
  }
}

/**
 * Campaigns (`{A}/campaigns`, and the widget's list on the public interface): one-off campaigns
 * sent at their time by the job scheduler in batches, ongoing campaigns started by the widget's
 * `campaign.triggered` event (a listener of `webwidget_triggered`).
 */
export const campaignsModule: ChatModule = {
  name: 'campaigns',
  migrations: { '0041_campaigns': migration0041Campaigns },
  services: (deps, built) => ({
    campaigns: new CampaignsService(deps, { inboxes: built.inboxes, agents: built.agents, labels: built.labels }),
    campaignSending: new CampaignSending(deps, {
      agents: built.agents,
      users: built.users,
      contacts: built.contacts,
      conversations: built.conversations,
      conversationMessages: built.conversationMessages,
    }),
  }),
  routes: [campaignsRoutes],
  listeners: ({ services }) => [campaignTriggerListener(services.campaignSending)],
  jobs: ({ services }) => services.campaignSending.jobs(),
};
