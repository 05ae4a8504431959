import { toIso } from '../../../core/time.js';
import type { AgentRow } from '../agents/agents.repository.js';
import { presentAgent } from '../agents/agents.presenter.js';
import type { Campaign } from './campaigns.migration.js';
import type { TriggerRules } from './campaigns.schema.js';

export interface CampaignInbox {
  id: number;
  name: string;
  channel_type: string;
}

/** A campaign with what its response shows beside the row. */
export interface CampaignView {
  campaign: Campaign;
  inbox: CampaignInbox;
  sender: AgentRow | null;
  /** Catalogue ids of the account's labels by title ({A}/labels), for the audience. */
  labelIds: ReadonlyMap<string, number>;
}

export interface CampaignMetrics {
  sent: number;
  failed: number;
  audience_count: number;
}

/** The stored audience: a JSON array of labels. */
export function audienceLabels(campaign: Pick<Campaign, 'audience'>): string[] {
  try {
    const value = JSON.parse(campaign.audience);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function triggerRules(campaign: Pick<Campaign, 'trigger_rules'>): TriggerRules {
  try {
    const value = JSON.parse(campaign.trigger_rules);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    const rules: TriggerRules = {};
    if (typeof value.url === 'string') rules.url = value.url;
    if (Number.isInteger(value.time_on_page)) rules.time_on_page = value.time_on_page;
    return rules;
  } catch {
    return {};
  }
}

/** Chatwoot's campaign, with the per-account number as `id` and timestamps in ISO 8601 (the spec). */
export function presentCampaign({ campaign: c, inbox, sender, labelIds }: CampaignView) {
  return {
    id: c.display_id,
    title: c.title,
    description: c.description,
    account_id: c.account_id,
    inbox_id: inbox.id,
    inbox,
    sender: sender ? presentAgent(sender) : null,
    message: c.message,
    campaign_type: c.campaign_type,
    campaign_status: c.campaign_status,
    enabled: c.enabled === 1,
    scheduled_at: toIso(c.scheduled_at),
    audience: audienceLabels(c).map((title) => ({ type: 'Label', id: labelIds.get(title) ?? title, title })),
    trigger_rules: triggerRules(c),
    trigger_only_during_business_hours: c.trigger_only_during_business_hours === 1,
    created_at: toIso(c.created_at),
    updated_at: toIso(c.updated_at),
  };
}

export function presentCampaignDetail(view: CampaignView, metrics: CampaignMetrics) {
  return { ...presentCampaign(view), ...metrics };
}

/** What the widget needs to show an ongoing campaign: no audience, no e-mail of the sender. */
export function presentPublicCampaign({ campaign: c, sender }: CampaignView) {
  return {
    id: c.display_id,
    title: c.title,
    message: c.message,
    trigger_rules: triggerRules(c),
    trigger_only_during_business_hours: c.trigger_only_during_business_hours === 1,
    sender: sender
      ? {
          id: sender.id,
          name: sender.name,
          available_name: sender.display_name || sender.name,
          thumbnail: sender.avatar_url ?? '',
        }
      : null,
  };
}
