/**
 * Ongoing campaigns (the inbox's public list): after the host page's load event, a visitor with no
 * conversation yet gets each campaign whose `trigger_rules.url` matches the page (`*` for any
 * characters; no rule: every page) once `time_on_page` seconds have passed. Campaigns limited to
 * business hours wait for the widget to know them (decision 0042) and are not triggered.
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

/** Fetches the campaigns after the page's load event and calls `trigger` for each that applies, when it applies. */
export function watchCampaigns(listUrl: string, trigger: (campaignId: number) => void): void {
  const start = async () => {
    let campaigns: PublicCampaign[];
    try {
      const res = await fetch(listUrl, { credentials: 'omit' });
      if (!res.ok) return;
      campaigns = (await res.json()) as PublicCampaign[];
    } catch {
      return;
    }
    for (const campaign of Array.isArray(campaigns) ? campaigns : []) {
      const rules = campaign.trigger_rules ?? {};
      if (campaign.trigger_only_during_business_hours || !urlMatches(rules.url, location.href)) continue;
      setTimeout(() => trigger(campaign.id), Math.max(0, Number(rules.time_on_page) || 0) * 1000);
    }
  };
  if (document.readyState === 'complete') void start();
  else window.addEventListener('load', () => void start(), { once: true });
}
