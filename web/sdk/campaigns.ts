import { isOpenAt, type InboxHours } from '../shared/widget/hours.js';

/**
 * Ongoing campaigns (the inbox's public list): after the host page's load event, a visitor with no
 * conversation yet gets each campaign whose `trigger_rules.url` matches the page (`*` for any
 * characters; no rule: every page) once `time_on_page` seconds have passed; one limited to business
 * hours only while the inbox is open (its working hours, read from the public inbox when needed).
 */

interface PublicCampaign {
  id: number;
  trigger_rules?: { url?: string; time_on_page?: number };
  trigger_only_during_business_hours?: boolean;
}

/** Whether a campaign's URL pattern matches the page's address. */
export function urlMatches(pattern: string | undefined, href: string): boolean {
  if (!pattern) return true;
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`).test(href);
}

async function getJson<T>(url: string): Promise<T | null> {
  try {
    const res = await fetch(url, { credentials: 'omit' });
    return res.ok ? ((await res.json()) as T) : null;
  } catch {
    return null;
  }
}

/**
 * Fetches the campaigns (`inboxUrl`/campaigns) after the page's load event and calls `trigger` for
 * each that applies, when it applies.
 */
export function watchCampaigns(inboxUrl: string, trigger: (campaignId: number) => void): void {
  let hours: Promise<InboxHours | null> | null = null;
  const start = async () => {
    const campaigns = await getJson<PublicCampaign[]>(`${inboxUrl}/campaigns`);
    for (const campaign of Array.isArray(campaigns) ? campaigns : []) {
      const rules = campaign.trigger_rules ?? {};
      if (!urlMatches(rules.url, location.href)) continue;
      const fire = async () => {
        if (campaign.trigger_only_during_business_hours) {
          const inbox = await (hours ??= getJson<InboxHours>(inboxUrl));
          if (!inbox || !isOpenAt(inbox, new Date())) return;
        }
        trigger(campaign.id);
      };
      setTimeout(() => void fire(), Math.max(0, Number(rules.time_on_page) || 0) * 1000);
    }
  };
  if (document.readyState === 'complete') void start();
  else window.addEventListener('load', () => void start(), { once: true });
}
