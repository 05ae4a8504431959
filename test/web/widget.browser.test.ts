import { createHmac } from 'node:crypto';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TESTS, connectBrowser, screenshotPath, seriousViolations } from '../helpers/browser.js';
import { client } from '../helpers/http.js';
import { TestReceiver } from '../helpers/receiver.js';
import type { ChatTestApp } from '../helpers/test-app.js';
import { expectAccessible, openPage, seedPeople, signIn, startDashboard, type Seeded } from './dashboard.js';
import { startHostSite, type HostSite } from './host-site.js';

// The website chat as a customer's site embeds it: Chatwoot's snippet on a page of another
// origin, the bubble, the visitor's message reaching the agents, their reply reaching the visitor
// live (private notes never), the unread badge, the conversation kept across reloads, Portuguese,
// identity checked on an HMAC-mandatory inbox, and which of the service's pages may be framed.
let t: ChatTestApp;
let base: string;
let browser: Browser;
let people: Seeded;
let host: HostSite;
let shop: { id: number; inbox_identifier: string };
let strict: { id: number; inbox_identifier: string; hmac_token: string };
let hooks: TestReceiver;

const accountPath = () => `/api/v1/accounts/${people.acme.id}`;
const api = () => client(t.app, people.paula.token);

beforeAll(async () => {
  ({ t, base } = await startDashboard({ background: { pollIntervalMs: 25 } }, { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' }));
  people = await seedPeople(t);
  hooks = await new TestReceiver().start();
  const hook = await api().post(`${accountPath()}/webhooks`, {
    url: hooks.url,
    subscriptions: ['webwidget_triggered'],
  });
  expect(hook.status, hook.text).toBe(200);
  const inbox = async (name: string, channel: Record<string, unknown>) => {
    const res = await api().post(`${accountPath()}/inboxes`, {
      name,
      channel: { type: 'web_widget', website_url: 'https://shop.example', ...channel },
      greeting_enabled: true,
      greeting_message: 'Hi there! Ask us anything about your order.',
    });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  shop = await inbox('Acme Shop', {});
  strict = await inbox('Acme Members', { hmac_mandatory: true });
  host = await startHostSite(base);
  browser = await connectBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await host?.close();
  await hooks?.stop();
  await t?.close();
});

const bubble = (page: Page, name: RegExp | string = /^(Open|Close) chat/) => page.getByRole('button', { name });
const widget = (page: Page) => page.frameLocator('#chatwoot_live_chat_widget');
const log = (frame: FrameLocator) => frame.getByRole('log', { name: /Messages|Mensagens/ });

async function shot(page: Page, name: string) {
  await page.screenshot({ path: screenshotPath(`widget-${name}-${page.viewportSize()?.width}.png`) });
}

/** The conversations of the shop inbox as the agents' API lists them, with their messages. */
async function agentView() {
  const list = await api().get(`${accountPath()}/conversations?inbox_id=${shop.id}&status=all&assignee_type=all`);
  expect(list.status, list.text).toBe(200);
  const conversations = list.body.data.payload as { id: number }[];
  return Promise.all(
    conversations.map(async (c) => {
      const res = await api().get(`${accountPath()}/conversations/${c.id}/messages`);
      return {
        id: c.id,
        messages: (res.body.payload as { content: string; message_type: number }[]).map((m) => m.content),
      };
    }),
  );
}

async function agentSays(conversationId: number, content: string, isPrivate = false) {
  const res = await api().post(`${accountPath()}/conversations/${conversationId}/messages`, {
    content,
    message_type: 'outgoing',
    private: isPrivate,
  });
  expect(res.status, res.text).toBe(200);
}

describe.skipIf(!BROWSER_TESTS)('the website chat on a customer site', () => {
  it('talks both ways, live, and keeps the conversation across reloads', async () => {
    const { context, page, problems } = await openPage(browser);
    await page.goto(`${host.origin}/?token=${shop.inbox_identifier}`);
    await bubble(page, 'Open chat').waitFor();
    expect(await page.evaluate('window.chatwootReady === true && typeof window.$chatwoot.toggle')).toBe('function');
    // A first visit loads no frame until the visitor opens the chat.
    expect(await page.locator('iframe').count()).toBe(0);
    await expectAccessible(page);
    await shot(page, 'closed');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'closed');
    await page.setViewportSize({ width: 1280, height: 800 });

    await bubble(page).click();
    const frame = widget(page);
    await frame.getByRole('heading', { name: 'Acme Shop' }).waitFor();
    await log(frame).getByText('Hi there! Ask us anything about your order.').waitFor();
    expect(await page.locator('iframe').getAttribute('src')).toBe(
      `${base}/widget?website_token=${shop.inbox_identifier}`,
    );
    await shot(page, 'open');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'open');
    await page.setViewportSize({ width: 1280, height: 800 });
    // The panel itself passes axe (run inside the frame's document).
    const panel = page.frames().find((f) => f.url().startsWith(`${base}/widget`))!;
    expect(await seriousViolations(panel as unknown as Page)).toEqual([]);

    // Opening the chat is the spec's webwidget.triggered event (the account's webhook gets it).
    await expect.poll(() => hooks.received.map((r) => r.json.event)).toContain('webwidget_triggered');

    const composer = frame.getByRole('textbox', { name: 'Your message' });
    await composer.fill('Hello! Where is my order #4512?');
    await composer.press('Enter');
    await expect
      .poll(async () => (await agentView()).flatMap((c) => c.messages))
      .toContain('Hello! Where is my order #4512?');
    const [conversation] = await agentView();
    // An agent sees it in the dashboard (a second browser).
    const agent = await openPage(browser);
    await signIn(agent.page, base, people.paula.email);
    await agent.page.goto(`${base}/app/accounts/${people.acme.id}/conversations/${conversation.id}?assignee=all`);
    await agent.page.getByRole('log', { name: 'Messages' }).getByText('Hello! Where is my order #4512?').waitFor();
    await agent.context.close();
    // Shown once, however it came back (the answer and the channel's echo carry the same echo_id).
    await expect.poll(() => log(frame).getByText('Hello! Where is my order #4512?').count()).toBe(1);

    // A private note never reaches the visitor; the reply does, live.
    await agentSays(conversation.id, 'Internal: check the warehouse first.', true);
    await agentSays(conversation.id, 'Hi! Paula here, it ships tomorrow.');
    await log(frame).getByText('Hi! Paula here, it ships tomorrow.').waitFor();
    expect(await log(frame).getByText('Internal: check the warehouse first.').count()).toBe(0);
    expect(await page.evaluate('window.received.map((m) => m.content)')).toEqual([
      'Hi! Paula here, it ships tomorrow.',
    ]);
    expect(await seriousViolations(panel as unknown as Page)).toEqual([]);
    await shot(page, 'conversation');

    // Closed, a new reply shows as unread on the bubble.
    await bubble(page, 'Close chat').click();
    await agentSays(conversation.id, 'Your tracking code is PT123.');
    await bubble(page, 'Open chat (1 unread messages)').waitFor();
    await shot(page, 'unread');

    // The credential is in the host page's cookie, never in the frame's URL.
    const cookies = await context.cookies(host.origin);
    const kept = cookies.find((c) => c.name === 'cw_conversation');
    expect(kept?.sameSite).toBe('Lax');
    expect(kept?.value).toMatch(/\S+/);
    expect(await page.locator('iframe').getAttribute('src')).not.toContain(kept!.value);

    await page.reload();
    // A returning visitor gets the hidden frame at once, so the badge is back before opening.
    await bubble(page, 'Open chat (1 unread messages)').waitFor();
    await bubble(page).click();
    for (const text of [
      'Hello! Where is my order #4512?',
      'Hi! Paula here, it ships tomorrow.',
      'Your tracking code is PT123.',
    ])
      await log(widget(page)).getByText(text).waitFor();
    expect(await bubble(page, 'Close chat').count()).toBe(1);
    await shot(page, 'conversation');
    // On a phone the panel covers the screen and closes from its own header.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.locator('iframe').evaluate((f) => f.getBoundingClientRect().width)).toBe(390);
    await shot(page, 'conversation');
    await widget(page).getByRole('button', { name: 'Close chat' }).click();
    await bubble(page, 'Open chat').waitFor();

    // Still one conversation for this visitor.
    expect((await agentView()).map((c) => c.id)).toEqual([conversation.id]);
    expect(problems).toEqual([]);
    await context.close();
  });

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
      .poll(async () => (await agentView()).find((c) => c.messages.includes('Do you ship to Lisbon?'))?.messages)
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

  it("speaks Portuguese when the site's settings say pt_BR", async () => {
    const { context, page, problems } = await openPage(browser);
    await page.goto(`${host.origin}/?token=${shop.inbox_identifier}&locale=pt_BR&type=expanded_bubble`);
    await bubble(page, /^Abrir o chat/).waitFor();
    await expect.poll(() => bubble(page, /^Abrir o chat/).textContent()).toBe('Fale conosco');
    await shot(page, 'closed-pt');
    await bubble(page, /^Abrir o chat/).click();
    const frame = widget(page);
    await frame.getByText('Estamos aqui para ajudar').waitFor();
    // Another visitor of the same inbox: none of the first visitor's conversation.
    expect(await log(frame).getByText('Hello! Where is my order #4512?').count()).toBe(0);
    expect(await log(frame).locator('.msg').count()).toBe(0);
    expect(await frame.getByRole('textbox', { name: 'Sua mensagem' }).getAttribute('placeholder')).toBe(
      'Digite sua mensagem…',
    );
    expect(await frame.getByRole('button', { name: 'Enviar' }).count()).toBe(1);
    await shot(page, 'open-pt');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('identifies the visitor on an HMAC-mandatory inbox only with a valid hash', async () => {
    const { context, page } = await openPage(browser);
    await page.goto(`${host.origin}/?token=${strict.inbox_identifier}`);
    await bubble(page, 'Open chat').waitFor();
    await page.evaluate(
      `window.$chatwoot.setUser('member-42', { name: 'Marta', email: 'marta@example.test', identifier_hash: 'wrong' })`,
    );
    await expect.poll(() => page.evaluate('window.errors.map((e) => e.code)')).toEqual(['hmac_failed']);
    const hash = createHmac('sha256', strict.hmac_token).update('member-42').digest('hex');
    await page.evaluate(
      `window.$chatwoot.setUser('member-42', { name: 'Marta', email: 'marta@example.test', identifier_hash: '${hash}' })`,
    );
    await expect
      .poll(async () => (await context.cookies(host.origin)).some((c) => c.name === 'cw_conversation'))
      .toBe(true);
    const found = await api().get(`${accountPath()}/contacts/search?q=member-42`);
    expect(found.body.payload.map((c: { name: string; identifier: string }) => [c.name, c.identifier])).toEqual([
      ['Marta', 'member-42'],
    ]);
    expect(await page.evaluate('window.errors.length')).toBe(1);
    await context.close();
  });

  it("answers the site's calls on window.$chatwoot", async () => {
    const { context, page, problems } = await openPage(browser);
    await page.goto(`${host.origin}/?token=${shop.inbox_identifier}`);
    await bubble(page, 'Open chat').waitFor();
    const call = (code: string) => page.evaluate(`window.$chatwoot.${code}`);
    const cookie = async () => (await context.cookies(host.origin)).find((c) => c.name === 'cw_conversation')?.value;

    await call("toggleBubbleVisibility('hide')");
    await bubble(page).waitFor({ state: 'hidden' });
    await call("toggleBubbleVisibility('show')");
    await call("setLocale('pt_BR')");
    await bubble(page, 'Abrir o chat').waitFor();

    await call("setUser('cust-7', { name: 'Lia Costa', email: 'lia@example.test' })");
    await call("setCustomAttributes({ plan: 'pro', seats: 3 })");
    await call("deleteCustomAttribute('seats')");
    const lia = async () => {
      const res = await api().get(`${accountPath()}/contacts/search?q=Lia`);
      return res.body.payload as { id: number; name: string; custom_attributes: Record<string, unknown> }[];
    };
    await expect.poll(async () => (await lia())[0]?.custom_attributes).toEqual({ plan: 'pro', seats: null });
    const first = await cookie();
    expect(first).toBeTruthy();

    // Conversation labels wait for a public route: the site hears so.
    await call("setLabel('vip')");
    await expect.poll(() => page.evaluate('window.errors.map((e) => e.code)')).toEqual(['not_supported']);

    await call("toggle('open')");
    await widget(page).getByText('Estamos aqui para ajudar').waitFor();
    expect(await call('isOpen')).toBe(true);
    await call('toggle()');
    await expect.poll(() => page.locator('iframe').isVisible()).toBe(false);

    // reset: a new visitor from now on.
    await call('reset()');
    expect(await cookie()).toBeUndefined();
    await call("toggle('open')");
    await expect.poll(cookie).toMatch(/\S+/);
    expect(await cookie()).not.toBe(first);
    expect(await lia()).toHaveLength(1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('may be framed by any site, while the dashboard refuses to be', async () => {
    const { context, page } = await openPage(browser);
    await page.goto(`${host.origin}/frames?token=${shop.inbox_identifier}`);
    // The frame's page renders (its composer is there); without the loader's init it waits for one.
    await page.frameLocator('iframe[name=widget]').getByRole('textbox', { name: 'Your message' }).waitFor();
    await expect.poll(() => page.frame({ name: 'dashboard' })?.url()).toMatch(/^chrome-error:/);
    expect(await page.frame({ name: 'dashboard' })!.locator('form').count()).toBe(0);
    await context.close();
  });
});
