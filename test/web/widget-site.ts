import type { Browser, FrameLocator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { connectBrowser, screenshotPath } from '../helpers/browser.js';
import { client } from '../helpers/http.js';
import { TestReceiver } from '../helpers/receiver.js';
import type { ChatTestApp } from '../helpers/test-app.js';
import { seedPeople, startDashboard, type Seeded } from './dashboard.js';
import { startHostSite, type HostSite } from './host-site.js';

/**
 * What the website chat's browser tests share: the conversation service with its background (the
 * realtime channel and webhooks run), an account whose webhook hears `webwidget_triggered`, two
 * website inboxes (Acme Shop with a greeting; Acme Members, HMAC-mandatory), a customer's site on
 * another origin (host-site.ts), and how a test reaches the bubble, the frame and the agents' API.
 */
export interface WidgetSite {
  t: ChatTestApp;
  base: string;
  browser: Browser;
  people: Seeded;
  host: HostSite;
  hooks: TestReceiver;
  shop: { id: number; inbox_identifier: string };
  strict: { id: number; inbox_identifier: string; hmac_token: string };
  close(): Promise<void>;
}

export const accountPath = (site: WidgetSite) => `/api/v1/accounts/${site.people.acme.id}`;
export const agentApi = (site: WidgetSite) => client(site.t.app, site.people.paula.token);

export async function startWidgetSite(): Promise<WidgetSite> {
  const { t, base } = await startDashboard(
    { background: { pollIntervalMs: 25 } },
    { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' },
  );
  const people = await seedPeople(t);
  const api = client(t.app, people.paula.token);
  const path = `/api/v1/accounts/${people.acme.id}`;
  const hooks = await new TestReceiver().start();
  const hook = await api.post(`${path}/webhooks`, { url: hooks.url, subscriptions: ['webwidget_triggered'] });
  expect(hook.status, hook.text).toBe(200);
  const inbox = async (name: string, channel: Record<string, unknown>) => {
    const res = await api.post(`${path}/inboxes`, {
      name,
      channel: { type: 'web_widget', website_url: 'https://shop.example', ...channel },
      greeting_enabled: true,
      greeting_message: 'Hi there! Ask us anything about your order.',
    });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const shop = await inbox('Acme Shop', {});
  const strict = await inbox('Acme Members', { hmac_mandatory: true });
  const host = await startHostSite(base);
  const browser = await connectBrowser();
  return {
    t,
    base,
    browser,
    people,
    host,
    hooks,
    shop,
    strict,
    async close() {
      await browser.close();
      await host.close();
      await hooks.stop();
      await t.close();
    },
  };
}

export const bubble = (page: Page, name: RegExp | string = /^(Open|Close) chat/) => page.getByRole('button', { name });
export const widget = (page: Page) => page.frameLocator('#chatwoot_live_chat_widget');
export const log = (frame: FrameLocator) => frame.getByRole('log', { name: /Messages|Mensagens/ });

export async function shot(page: Page, name: string) {
  await page.screenshot({ path: screenshotPath(`widget-${name}-${page.viewportSize()?.width}.png`) });
}

/** The conversations of the shop inbox as the agents' API lists them, with their messages' texts. */
export async function agentView(site: WidgetSite) {
  const api = agentApi(site);
  const list = await api.get(
    `${accountPath(site)}/conversations?inbox_id=${site.shop.id}&status=all&assignee_type=all`,
  );
  expect(list.status, list.text).toBe(200);
  const conversations = list.body.data.payload as { id: number }[];
  return Promise.all(
    conversations.map(async (c) => {
      const res = await api.get(`${accountPath(site)}/conversations/${c.id}/messages`);
      return { id: c.id, messages: (res.body.payload as { content: string }[]).map((m) => m.content) };
    }),
  );
}

export async function agentSays(site: WidgetSite, conversationId: number, content: string, isPrivate = false) {
  const res = await agentApi(site).post(`${accountPath(site)}/conversations/${conversationId}/messages`, {
    content,
    message_type: 'outgoing',
    private: isPrivate,
  });
  expect(res.status, res.text).toBe(200);
}
