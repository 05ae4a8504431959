import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TESTS } from '../helpers/browser.js';
import { newPublicContact, newPublicConversation, publicInboxPath } from '../helpers/factories.js';
import { client } from '../helpers/http.js';
import type { ChatTestApp } from '../helpers/test-app.js';
import { openPage } from './dashboard.js';
import type { HostSite } from './host-site.js';
import {
  accountPath as siteAccountPath,
  agentApi,
  agentView,
  bubble,
  log,
  shot,
  startWidgetSite,
  widget,
  type WidgetSite,
} from './widget-site.js';

// The website chat's proactive and long-lived sides: ongoing campaigns opening it on the pages
// they target, working hours with the away message (and campaigns that wait for them), and a long
// conversation read from its end with older messages on scrolling up.
let site: WidgetSite;
let t: ChatTestApp;
let browser: Browser;
let host: HostSite;
let shop: WidgetSite['shop'];

beforeAll(async () => {
  site = await startWidgetSite();
  ({ t, browser, host, shop } = site);
}, 60_000);
afterAll(async () => {
  await site?.close();
});

const accountPath = () => siteAccountPath(site);
const api = () => agentApi(site);

describe.skipIf(!BROWSER_TESTS)('the website chat: campaigns, hours, long conversations', () => {
  it("opens with an ongoing campaign's message on the pages it targets", async () => {
    const created = await api().post(`${accountPath()}/campaigns`, {
      title: 'Spring sale',
      message: 'Spring sale: 20% off all mugs today!',
      campaign_type: 'ongoing',
      inbox_id: shop.id,
      enabled: true,
      trigger_rules: { url: `${host.origin}/promo/*`, time_on_page: 1 },
    });
    expect(created.status, created.text).toBe(200);
    const { context, page, problems } = await openPage(browser);
    await page.goto(`${host.origin}/promo/mugs?token=${shop.inbox_identifier}`);
    // After a second on the page the chat opens by itself with the campaign's message.
    await bubble(page, 'Close chat').waitFor();
    const frame = widget(page);
    await log(frame).getByText('Spring sale: 20% off all mugs today!').waitFor();
    await shot(page, 'campaign');
    // The visitor's answer goes into the campaign's conversation.
    const composer = frame.getByRole('textbox', { name: 'Your message' });
    await composer.fill('Do you ship to Lisbon?');
    await composer.press('Enter');
    await expect
      .poll(async () => (await agentView(site)).find((c) => c.messages.includes('Do you ship to Lisbon?'))?.messages)
      .toEqual(['Spring sale: 20% off all mugs today!', 'Do you ship to Lisbon?']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('outside working hours shows the away message, and campaigns limited to business hours wait', async () => {
    const closed = await api().post(`${accountPath()}/inboxes`, {
      name: 'Acme Night Desk',
      channel: { type: 'web_widget', website_url: 'https://shop.example' },
      working_hours_enabled: true,
      timezone: 'America/Sao_Paulo',
      working_hours: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day_of_week: day, closed_all_day: true })),
      out_of_office_message: 'We are closed now. Leave a message and we will e-mail you.',
    });
    expect(closed.status, closed.text).toBe(200);
    const campaign = async (title: string, businessHoursOnly: boolean, seconds: number) => {
      const res = await api().post(`${accountPath()}/campaigns`, {
        title,
        message: `${title}!`,
        campaign_type: 'ongoing',
        inbox_id: closed.body.id,
        enabled: true,
        trigger_only_during_business_hours: businessHoursOnly,
        trigger_rules: { url: `${host.origin}/night*`, time_on_page: seconds },
      });
      expect(res.status, res.text).toBe(200);
    };
    await campaign('Office hours offer', true, 0);
    await campaign('Night owl offer', false, 1);
    const { context, page, problems } = await openPage(browser);
    await page.goto(`${host.origin}/night?token=${closed.body.inbox_identifier}`);
    // The first campaign (business hours only) would have fired at once and left the cookie that
    // stops the second; the second opening the chat shows the first never fired.
    await bubble(page, 'Close chat').waitFor();
    const frame = widget(page);
    await log(frame).getByText('Night owl offer!').waitFor();
    expect(await log(frame).getByText('Office hours offer!').count()).toBe(0);
    await log(frame).getByText('We are closed now. Leave a message and we will e-mail you.').waitFor();
    await frame.getByText('We are away right now').waitFor();
    await shot(page, 'away');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows a long conversation from its end, and older messages on scrolling up', async () => {
    // A visitor who wrote from another page of the site: the cookie is all the widget needs.
    const visitor = await newPublicContact(t, shop.inbox_identifier, { name: 'Long Talker' });
    const conversation = await newPublicConversation(t, shop.inbox_identifier, visitor.source_id);
    const path = `${publicInboxPath(shop.inbox_identifier)}/contacts/${visitor.source_id}/conversations/${conversation.id}/messages`;
    for (let i = 1; i <= 45; i++) {
      const res = await client(t.app).post(path, { content: `Line ${i}` });
      expect(res.status, res.text).toBe(200);
    }
    const { context, page, problems } = await openPage(browser);
    await context.addCookies([{ name: 'cw_conversation', value: visitor.source_id, url: host.origin }]);
    await page.goto(`${host.origin}/?token=${shop.inbox_identifier}`);
    await bubble(page, 'Open chat').click();
    const messages = log(widget(page));
    await messages.getByText('Line 45', { exact: true }).waitFor();
    expect(await messages.getByText('Line 20', { exact: true }).count()).toBe(0);
    await expect
      .poll(async () => {
        await messages.evaluate((el) => el.scrollTo({ top: 0 }));
        return messages.getByText('Line 1', { exact: true }).count();
      })
      .toBe(1);
    // Each line once, in order, and the greeting above the first.
    const lines = (await messages.locator('.bubble').allTextContents()).filter((text) => text.startsWith('Line '));
    expect(lines).toEqual(Array.from({ length: 45 }, (_, i) => `Line ${i + 1}`));
    await messages.getByText('Hi there! Ask us anything about your order.').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
