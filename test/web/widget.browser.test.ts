import { createHmac } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TESTS, seriousViolations } from '../helpers/browser.js';
import { expectAccessible, openPage, signIn } from './dashboard.js';
import type { HostSite } from './host-site.js';
import {
  accountPath as siteAccountPath,
  agentApi,
  agentSays,
  agentView,
  bubble,
  log,
  shot,
  startWidgetSite,
  widget,
  type WidgetSite,
} from './widget-site.js';

// The website chat as a customer's site embeds it: Chatwoot's snippet on a page of another
// origin, the bubble, the visitor's message reaching the agents, their reply reaching the visitor
// live (private notes never), the unread badge, the conversation kept across reloads, Portuguese,
// identity checked on an HMAC-mandatory inbox, the site's calls, and which pages may be framed.
let site: WidgetSite;
let base: string;
let browser: Browser;
let host: HostSite;
let shop: WidgetSite['shop'];

beforeAll(async () => {
  site = await startWidgetSite();
  ({ base, browser, host, shop } = site);
}, 60_000);
afterAll(async () => {
  await site?.close();
});

const accountPath = () => siteAccountPath(site);
const api = () => agentApi(site);

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
    await expect.poll(() => site.hooks.received.map((r) => r.json.event)).toContain('webwidget_triggered');

    const composer = frame.getByRole('textbox', { name: 'Your message' });
    await composer.fill('Hello! Where is my order #4512?');
    await composer.press('Enter');
    await expect
      .poll(async () => (await agentView(site)).flatMap((c) => c.messages))
      .toContain('Hello! Where is my order #4512?');
    const [conversation] = await agentView(site);
    // An agent sees it in the dashboard (a second browser).
    const agent = await openPage(browser);
    await signIn(agent.page, base, site.people.paula.email);
    await agent.page.goto(`${base}/app/accounts/${site.people.acme.id}/conversations/${conversation.id}?assignee=all`);
    await agent.page.getByRole('log', { name: 'Messages' }).getByText('Hello! Where is my order #4512?').waitFor();
    await agent.context.close();
    // Shown once, however it came back (the answer and the channel's echo carry the same echo_id).
    await expect.poll(() => log(frame).getByText('Hello! Where is my order #4512?').count()).toBe(1);

    // A private note never reaches the visitor; the reply does, live.
    await agentSays(site, conversation.id, 'Internal: check the warehouse first.', true);
    await agentSays(site, conversation.id, 'Hi! Paula here, it ships tomorrow.');
    await log(frame).getByText('Hi! Paula here, it ships tomorrow.').waitFor();
    expect(await log(frame).getByText('Internal: check the warehouse first.').count()).toBe(0);
    expect(await page.evaluate('window.received.map((m) => m.content)')).toEqual([
      'Hi! Paula here, it ships tomorrow.',
    ]);
    expect(await seriousViolations(panel as unknown as Page)).toEqual([]);
    await shot(page, 'conversation');

    // Closed, a new reply shows as unread on the bubble.
    await bubble(page, 'Close chat').click();
    await agentSays(site, conversation.id, 'Your tracking code is PT123.');
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
    expect((await agentView(site)).map((c) => c.id)).toEqual([conversation.id]);
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
    await page.goto(`${host.origin}/?token=${site.strict.inbox_identifier}`);
    await bubble(page, 'Open chat').waitFor();
    await page.evaluate(
      `window.$chatwoot.setUser('member-42', { name: 'Marta', email: 'marta@example.test', identifier_hash: 'wrong' })`,
    );
    await expect.poll(() => page.evaluate('window.errors.map((e) => e.code)')).toEqual(['hmac_failed']);
    const hash = createHmac('sha256', site.strict.hmac_token).update('member-42').digest('hex');
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
