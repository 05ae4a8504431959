import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TESTS, connectBrowser, screenshotPath } from '../helpers/browser.js';
import { client } from '../helpers/http.js';
import type { ChatTestApp } from '../helpers/test-app.js';
import {
  expectAccessible,
  openPage,
  screenshotsAtBothWidths,
  seedPeople,
  signIn,
  startDashboard,
  type Seeded,
} from './dashboard.js';
import { seedWorkspace, type Workspace } from './workspace.js';

// Screen 3, a conversation, as an agent works it: the newest messages and older ones on scroll,
// replies and private notes (each shown once), files, canned responses, assignment, labels,
// priority and status reflected at once in the header, the list and the counts, keyboard
// shortcuts and the command bar, Markdown made safe and e-mail HTML kept in a sandboxed frame.
let t: ChatTestApp;
let base: string;
let browser: Browser;
let people: Seeded;
let ws: Workspace;

beforeAll(async () => {
  ({ t, base } = await startDashboard());
  people = await seedPeople(t);
  ws = await seedWorkspace(t, people);
  browser = await connectBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const api = () => client(t.app, people.paula.token);
const messagesOf = async (id: number) =>
  (await api().get(`${ws.acme.path}/conversations/${id}/messages`)).body.payload as {
    content: string | null;
    private: boolean;
    echo_id: string | null;
    attachments: { file_type: string }[];
  }[];
const conversationOf = async (id: number) => (await api().get(`${ws.acme.path}/conversations/${id}`)).body;
const tabCount = async (page: Page, name: string) =>
  Number(((await page.getByRole('tab', { name: new RegExp(`^${name}`) }).textContent()) ?? '').replace(/\D+/g, ''));
const log = (page: Page) => page.getByRole('log', { name: 'Messages' });
const composer = (page: Page) =>
  page.getByRole('combobox', { name: /Reply to the customer|Private note for your team/ });

async function open(page: Page, id: number, query = '?assignee=all') {
  await page.goto(`${base}/app/accounts/${people.acme.id}/conversations/${id}${query}`);
  await page.getByRole('article', { name: `Conversation #${id}` }).waitFor();
}

describe.skipIf(!BROWSER_TESTS)('a conversation', () => {
  it('shows the newest messages and older ones on scrolling up', async () => {
    for (let i = 1; i <= 45; i++)
      await api().post(`${ws.acme.path}/conversations/${ws.elisa.id}/messages`, {
        content: `Update number ${i}`,
        message_type: i % 3 === 0 ? 'outgoing' : 'incoming',
      });
    const { context, page, problems } = await openPage(browser);
    await signIn(page, base, people.paula.email);
    await open(page, ws.elisa.id);
    await log(page).getByText('Update number 45', { exact: true }).waitFor();
    expect(await log(page).getByText('Update number 20', { exact: true }).count()).toBe(0);
    // Scrolling to the top loads the pages before, down to the start of the conversation.
    for (let i = 0; i < 4; i++) await log(page).evaluate((el) => el.scrollTo({ top: 0 }));
    await expect
      .poll(async () => {
        await log(page).evaluate((el) => el.scrollTo({ top: 0 }));
        return log(page).getByText('This is the start of the conversation.').count();
      })
      .toBe(1);
    await log(page).getByText('Can I change my delivery address?').waitFor();
    expect(
      await log(page)
        .getByText(/^Update number \d+$/)
        .count(),
    ).toBe(45);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('sends a reply and a private note, each shown once and the note marked as such, with files', async () => {
    const { context, page, problems } = await openPage(browser);
    await signIn(page, base, people.paula.email);
    await open(page, ws.carla.id);
    await composer(page).fill('Sorry to hear that! We will send a new one **today**.');
    await page.keyboard.press('Enter');
    await log(page).getByText('Sorry to hear that!').waitFor();
    await expect
      .poll(async () => (await messagesOf(ws.carla.id)).filter((m) => m.content?.startsWith('Sorry')).length)
      .toBe(1);
    const reply = (await messagesOf(ws.carla.id)).find((m) => m.content?.startsWith('Sorry'))!;
    expect(reply.private).toBe(false);
    expect(reply.echo_id).toMatch(/^web-/);
    expect(await log(page).getByText('Sorry to hear that!').count()).toBe(1);
    expect(await log(page).locator('strong', { hasText: 'today' }).count()).toBe(1);

    // Alt+P: a private note, tinted and labelled; it never reaches the customer.
    await page.keyboard.press('Alt+KeyP');
    await page.getByRole('button', { name: 'Private note', pressed: true }).waitFor();
    await composer(page).fill('Checked with the warehouse: the courier dropped it.');
    await page.keyboard.press('Control+Enter');
    const note = log(page)
      .getByText('Checked with the warehouse')
      .locator('xpath=ancestor::div[contains(@class,"flex-col")][1]');
    await note.getByText('Private note').waitFor();
    await expect
      .poll(async () => (await messagesOf(ws.carla.id)).find((m) => m.content?.startsWith('Checked'))?.private)
      .toBe(true);
    await expectAccessible(page);
    await screenshotsAtBothWidths(page, 'conversation-note');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Files: an image (a thumbnail) and a PDF (a download), with the reply's text.
    await page.getByRole('button', { name: 'Reply', exact: true }).click();
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Attach files' }).click();
    await (
      await chooser
    ).setFiles([
      { name: 'damage.png', mimeType: 'image/png', buffer: png },
      { name: 'label.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') },
    ]);
    await page.getByRole('list', { name: 'Files to send' }).getByText('damage.png').waitFor();
    await composer(page).fill('Here is the shipping label.');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const image = log(page).getByRole('img', { name: 'Image damage.png' });
    await image.waitFor();
    await expect
      .poll(() => image.evaluate((img) => (img as unknown as { complete: boolean; naturalWidth: number }).naturalWidth))
      .toBe(1);
    await log(page)
      .getByRole('link', { name: /label\.pdf/ })
      .waitFor();
    const sent = (await messagesOf(ws.carla.id)).filter((m) => m.content === 'Here is the shipping label.');
    expect(sent).toHaveLength(1);
    expect(sent[0].attachments.map((a) => a.file_type).sort()).toEqual(['file', 'image']);
    await expectAccessible(page);
    await page.screenshot({ path: screenshotPath('conversation-attachments-1280.png') });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('inserts a canned response with /', async () => {
    const res = await api().post(`${ws.acme.path}/canned_responses`, {
      short_code: 'thanks',
      content: 'Thank you for your patience!',
    });
    expect(res.status, res.text).toBe(200);
    const { context, page } = await openPage(browser);
    await signIn(page, base, people.paula.email);
    await open(page, ws.diego.id);
    await composer(page).click();
    await page.keyboard.type('Hi Diego, /than');
    const option = page.getByRole('option', { name: /\/thanks/ });
    await option.waitFor();
    await expectAccessible(page);
    await page.screenshot({ path: screenshotPath('conversation-canned-1280.png') });
    await page.keyboard.press('Enter');
    expect(await composer(page).inputValue()).toBe('Hi Diego, Thank you for your patience!');
    await context.close();
  });

  it('assigns, labels, prioritises, snoozes, resolves and reopens, reflected at once in the header, the list and the counts', async () => {
    const { context, page, problems } = await openPage(browser);
    await signIn(page, base, people.paula.email);
    await page.goto(`${base}/app/accounts/${people.acme.id}/dashboard?assignee=all`);
    await page
      .getByRole('list', { name: 'Conversations' })
      .getByRole('link', { name: /Fábio Lima/ })
      .click();
    await page.getByRole('article', { name: `Conversation #${ws.fabio.id}` }).waitFor();
    const mineBefore = await tabCount(page, 'Mine');
    const unassignedBefore = await tabCount(page, 'Unassigned');

    // Below 1536 px the details open as a sheet over the page.
    await page.getByRole('button', { name: 'Conversation details' }).click();
    const details = page.getByRole('dialog', { name: 'Conversation details' });
    await details.getByLabel('Assigned agent').selectOption({ label: 'Paula Souza' });
    await page.getByText('Assigned to Paula Souza.').waitFor();
    await expect.poll(async () => (await conversationOf(ws.fabio.id)).assignee?.id).toBe(people.paula.id);
    await details.getByLabel('Team').selectOption({ label: 'Tier 1' });
    await details.getByLabel('Priority').selectOption('urgent');
    await details.getByRole('button', { name: 'Edit labels' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'vip' }).click();
    await page.keyboard.press('Escape');
    await details.getByRole('listitem').filter({ hasText: 'vip' }).waitFor();
    await expect
      .poll(async () => {
        const c = await conversationOf(ws.fabio.id);
        return [c.team?.name, c.priority, c.labels];
      })
      .toEqual(['Tier 1', 'urgent', ['vip']]);
    await expectAccessible(page);
    await page.screenshot({ path: screenshotPath('conversation-details-1280.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: screenshotPath('conversation-details-390.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });
    // The header, the list and the counts show it.
    await page.getByRole('heading', { name: /Fábio Lima.*Urgent priority/ }).waitFor();
    expect(await tabCount(page, 'Mine')).toBe(mineBefore + 1);
    expect(await tabCount(page, 'Unassigned')).toBe(unassignedBefore - 1);
    await page
      .getByRole('list', { name: 'Conversations' })
      .getByRole('link', { name: /Fábio Lima/ })
      .getByText('Paula Souza')
      .waitFor();

    // From 1536 px the details stay beside the conversation.
    await page.setViewportSize({ width: 1600, height: 900 });
    await page.getByRole('complementary', { name: 'Conversation details' }).getByLabel('Priority').waitFor();
    await expectAccessible(page);
    await page.screenshot({ path: screenshotPath('conversation-wide-1600.png') });
    await page.setViewportSize({ width: 1280, height: 800 });

    // Snooze until tomorrow, from the status menu.
    await page.getByRole('button', { name: 'More status options' }).click();
    await page.getByRole('menuitem', { name: /Until tomorrow/ }).click();
    await page.getByRole('status').getByText('The conversation is snoozed.').waitFor();
    await expect.poll(async () => (await conversationOf(ws.fabio.id)).status).toBe('snoozed');
    // It left the list of open conversations, and the counts.
    await expect
      .poll(() =>
        page
          .getByRole('list', { name: 'Conversations' })
          .getByRole('link', { name: /Fábio Lima/ })
          .count(),
      )
      .toBe(0);
    expect(await tabCount(page, 'Mine')).toBe(mineBefore);

    // Alt+E resolves; the button then reopens.
    await page.keyboard.press('Alt+KeyE');
    await page.getByRole('button', { name: 'Reopen' }).first().waitFor();
    await expect.poll(async () => (await conversationOf(ws.fabio.id)).status).toBe('resolved');
    await page.getByRole('button', { name: 'Reopen' }).first().click();
    await page.getByRole('button', { name: 'Resolve' }).waitFor();
    await expect.poll(async () => (await conversationOf(ws.fabio.id)).status).toBe('open');
    await expect.poll(() => tabCount(page, 'Mine')).toBe(mineBefore + 1);
    await page
      .getByRole('list', { name: 'Conversations' })
      .getByRole('link', { name: /Fábio Lima/ })
      .waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('undoes a change the server refuses, and says why', async () => {
    const { context, page, problems } = await openPage(browser);
    await signIn(page, base, people.rui.email);
    await open(page, ws.diego.id);
    // An administrator takes Rui out of the inbox while the conversation is on his screen.
    const removed = await client(t.app, people.paula.token).delete(`${ws.acme.path}/inbox_members`, {
      inbox_id: ws.website.id,
      user_ids: [people.rui.id],
    });
    expect(removed.status, removed.text).toBe(200);
    await page.getByRole('button', { name: 'Resolve' }).click();
    await page
      .getByRole('status')
      .getByText(/^Not changed:/)
      .waitFor();
    await page.getByRole('button', { name: 'Resolve' }).waitFor();
    expect((await conversationOf(ws.diego.id)).status).toBe('open');
    await client(t.app, people.paula.token).post(`${ws.acme.path}/inbox_members`, {
      inbox_id: ws.website.id,
      user_ids: [people.rui.id],
    });
    expect(problems.filter((p) => !/status of 404/.test(p))).toEqual([]);
    await context.close();
  });

  it('moves between conversations, lists its shortcuts and opens the command bar from the keyboard', async () => {
    const { context, page, problems } = await openPage(browser);
    await signIn(page, base, people.paula.email);
    await page.goto(`${base}/app/accounts/${people.acme.id}/dashboard?assignee=all`);
    const links = page.getByRole('list', { name: 'Conversations' }).getByRole('link');
    await links.first().waitFor();
    await page.keyboard.press('Alt+KeyJ');
    await page.waitForURL(/\/conversations\/\d+/);
    const first = page.url();
    await page.keyboard.press('Alt+KeyJ');
    await expect.poll(() => page.url()).not.toBe(first);
    await page.keyboard.press('Alt+KeyK');
    await expect.poll(() => page.url()).toBe(first);
    await composer(page).waitFor();
    await page.keyboard.press('Alt+KeyR');
    await expect.poll(() => composer(page).evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);

    await page.keyboard.press('Control+Slash');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.getByText('Next conversation').waitFor();
    await expectAccessible(page);
    await screenshotsAtBothWidths(page, 'shortcuts');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });

    await page.keyboard.press('Control+KeyK');
    const bar = page.getByRole('dialog', { name: 'Command bar' });
    await bar.getByRole('combobox', { name: 'Search or type a command' }).fill('Elisa');
    await bar.getByRole('option', { name: /Elisa Rocha/ }).waitFor();
    await expectAccessible(page);
    await page.screenshot({ path: screenshotPath('command-bar-1280.png') });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/contacts/${ws.elisa.contactId}$`));
    expect(problems).toEqual([]);
    await context.close();
  });

  it('renders Markdown without the markup a customer types, and e-mail HTML only in a sandboxed frame', async () => {
    const path = `${ws.acme.path}/conversations/${ws.diego.id}/messages`;
    await api().post(path, {
      content: 'Look: <img src=x onerror="document.title=1"> **bold** [site](https://example.com)',
      message_type: 'incoming',
    });
    await api().post(path, {
      content: 'Invoice',
      message_type: 'incoming',
      content_type: 'incoming_email',
      content_attributes: {
        email: {
          subject: 'Invoice 778',
          html_content: {
            full: '<p style="color: rgb(200, 0, 0)" onclick="alert(1)">Dear team,</p><script>parent.document.title="x"</script><style>p { font-weight: 700 }</style><form action="https://example.com"><input name="a"></form>',
          },
        },
      },
    });
    await api().post(path, { content: 'Conversation moved to Tier 1', message_type: 'activity' });
    const { context, page, problems } = await openPage(browser);
    await signIn(page, base, people.paula.email);
    await open(page, ws.diego.id);
    await log(page).locator('strong', { hasText: 'bold' }).waitFor();
    expect(await log(page).locator('.message-text img').count()).toBe(0);
    const link = log(page).getByRole('link', { name: 'site' });
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toContain('noopener');

    const frame = log(page).locator('iframe[title="E-mail: Invoice 778"]');
    await frame.waitFor();
    const sandbox = (await frame.getAttribute('sandbox')) ?? '';
    expect(sandbox).not.toContain('allow-scripts');
    expect(sandbox).not.toContain('allow-forms');
    const inside = page.frameLocator('iframe[title="E-mail: Invoice 778"]');
    const paragraph = inside.getByText('Dear team,');
    await paragraph.waitFor();
    // Its own styles apply (carried through the CSSOM); its script, handler and form do not survive.
    await expect
      .poll(() => paragraph.evaluate((p) => p.ownerDocument.defaultView!.getComputedStyle(p).color))
      .toBe('rgb(200, 0, 0)');
    expect(await paragraph.evaluate((p) => p.ownerDocument.defaultView!.getComputedStyle(p).fontWeight)).toBe('700');
    expect(await paragraph.getAttribute('onclick')).toBeNull();
    expect(await inside.locator('script, form, input').count()).toBe(0);
    await log(page).getByText('Conversation moved to Tier 1').waitFor();
    expect(await page.title()).not.toBe('1');
    expect(await page.title()).not.toBe('x');
    await expectAccessible(page);
    await screenshotsAtBothWidths(page, 'conversation-rich');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('speaks Brazilian Portuguese', async () => {
    const { context, page } = await openPage(browser, { locale: 'pt-BR' });
    await signIn(page, base, people.paula.email, undefined, 'pt-BR');
    await page.goto(`${base}/app/accounts/${people.acme.id}/conversations/${ws.carla.id}?assignee=all`);
    await page.getByRole('article', { name: `Conversa #${ws.carla.id}` }).waitFor();
    await page.getByRole('button', { name: 'Nota privada' }).click();
    await page.getByRole('combobox', { name: 'Nota privada para o seu time' }).waitFor();
    await expectAccessible(page);
    await screenshotsAtBothWidths(page, 'conversation-pt-BR');
    await context.close();
  });
});
