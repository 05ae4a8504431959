import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { client } from '../../../../test/helpers/http.js';
import {
  newAccount,
  newAgent,
  newConversation,
  newInbox,
  type TestAccount,
} from '../../../../test/helpers/factories.js';

let t: ChatTestApp;
let account: TestAccount;
let other: TestAccount;
beforeAll(async () => {
  t = await buildChatTestApp();
  account = await newAccount(t);
  other = await newAccount(t, 'Other');
});
afterAll(async () => {
  await t.close();
});

/** A multipart body exactly as fetch would send it from a FormData. */
async function encode(form: FormData) {
  const request = new Request('http://local/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

async function postForm(url: string, form: FormData, token = account.admin.token) {
  const { payload, contentType } = await encode(form);
  const res = await t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { 'content-type': contentType, api_access_token: token },
  });
  return { status: res.statusCode, body: res.json() };
}

/** Every file under DATA_DIR/uploads (ignoring folders). */
function storedFiles(): string[] {
  const root = path.join(t.config.dataDir, 'uploads');
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((p) =>
    fs.statSync(path.join(root, p)).isFile(),
  );
}

const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

async function countMessages(conversationDisplayId: number) {
  const row = await t.db
    .selectFrom('messages')
    .innerJoin('conversations', 'conversations.id', 'messages.conversation_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('conversations.account_id', '=', account.id)
    .where('conversations.display_id', '=', conversationDisplayId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('messages with attachments (multipart)', () => {
  it('serves an unlisted audio/video subtype as a download, never inline under that type (security review)', async () => {
    const conversation = await newConversation(t, account);
    const form = new FormData();
    form.append('content', 'look');
    form.append('file', new Blob(['<script>alert(1)</script>'], { type: 'video/x-html' }), 'page.html');
    const res = await postForm(`${account.path}/conversations/${conversation.id}/messages`, form);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.attachments[0]).toMatchObject({ file_type: 'file', extension: 'html' });
    const download = await t.app.inject({ method: 'GET', url: new URL(res.body.attachments[0].data_url).pathname });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/octet-stream');
    expect(String(download.headers['content-disposition'])).toMatch(/^attachment;/);
    expect(download.headers['x-content-type-options']).toBe('nosniff');
  });

  it('stores files sent as file[], file and attachments[] and serves them back at data_url', async () => {
    const conversation = await newConversation(t, account);
    const form = new FormData();
    form.append('content', 'Here are the files');
    form.append('message_type', 'outgoing');
    form.append('file[]', new Blob([png], { type: 'image/png' }), 'photo.png');
    form.append('file', new Blob(['a,b\n1,2\n'], { type: 'text/csv' }), 'table.csv');
    form.append('attachments[]', new Blob(['%PDF-1.4 test'], { type: 'application/pdf' }), 'invoice.pdf');
    const res = await postForm(`${account.path}/conversations/${conversation.id}/messages`, form);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      content: 'Here are the files',
      message_type: 1,
      conversation_id: conversation.id,
    });
    expect(res.body.attachments).toHaveLength(3);
    const byType = Object.fromEntries(res.body.attachments.map((a: { extension: string }) => [a.extension, a]));
    expect(byType.png).toMatchObject({
      file_type: 'image',
      file_size: png.length,
      account_id: account.id,
      message_id: res.body.id,
    });
    expect(byType.csv.file_type).toBe('file');
    expect(byType.pdf.file_type).toBe('file');

    const url = new URL(byType.png.data_url);
    expect(url.origin).toBe('http://chat.test');
    const download = await t.app.inject({ method: 'GET', url: url.pathname });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(download.rawPayload, png)).toBe(0);

    // The message list carries the attachments too.
    const list = await client(t.app, account.admin.token).get(
      `${account.path}/conversations/${conversation.id}/messages`,
    );
    const listed = list.body.payload.find((m: { id: number }) => m.id === res.body.id);
    expect(listed.attachments.map((a: { id: number }) => a.id).sort()).toEqual(
      res.body.attachments.map((a: { id: number }) => a.id).sort(),
    );
  });

  it('accepts files without text content', async () => {
    const conversation = await newConversation(t, account);
    const form = new FormData();
    form.append('file[]', new Blob([png], { type: 'image/png' }), 'only.png');
    const res = await postForm(`${account.path}/conversations/${conversation.id}/messages`, form);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.attachments).toHaveLength(1);
  });

  it('answers a 41 MB file with 413 and leaves neither a message nor a file', async () => {
    const conversation = await newConversation(t, account);
    const before = await countMessages(conversation.id);
    const filesBefore = storedFiles().length;
    const form = new FormData();
    form.append('content', 'too big');
    form.append('file[]', new Blob([Buffer.alloc(41 * 1024 * 1024, 1)], { type: 'application/pdf' }), 'big.pdf');
    const res = await postForm(`${account.path}/conversations/${conversation.id}/messages`, form);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
    expect(await countMessages(conversation.id)).toBe(before);
    expect(storedFiles().length).toBe(filesBefore);
  });

  it('refuses invalid fields after upload and removes the stored files', async () => {
    const conversation = await newConversation(t, account);
    const filesBefore = storedFiles().length;
    const form = new FormData();
    form.append('content', 'x');
    form.append('message_type', 'sideways');
    form.append('file[]', new Blob([png], { type: 'image/png' }), 'photo.png');
    const res = await postForm(`${account.path}/conversations/${conversation.id}/messages`, form);
    expect(res.status).toBe(422);
    expect(storedFiles().length).toBe(filesBefore);
  });

  it('uploads nothing to an unknown conversation or another account (404), or without a token (401)', async () => {
    const foreign = await newConversation(t, other);
    const filesBefore = storedFiles().length;
    const form = new FormData();
    form.append('content', 'x');
    form.append('file[]', new Blob([png], { type: 'image/png' }), 'photo.png');
    // Conversation ids are per-account numbers: an unknown number, and another account's path.
    expect((await postForm(`${account.path}/conversations/999999/messages`, form)).status).toBe(404);
    expect(
      (await postForm(`${other.path}/conversations/${foreign.id}/messages`, form, account.admin.token)).status,
    ).toBe(404);
    expect((await postForm(`${account.path}/conversations/${foreign.id}/messages`, form, 'bad-token')).status).toBe(
      401,
    );
    expect(storedFiles().length).toBe(filesBefore);
  });

  it('an agent outside the inbox cannot attach (404)', async () => {
    const inbox = await newInbox(t, account);
    const conversation = await newConversation(t, account, { inboxId: inbox.id });
    const agent = await newAgent(t, account);
    const form = new FormData();
    form.append('content', 'x');
    form.append('file[]', new Blob([png], { type: 'image/png' }), 'photo.png');
    expect(
      (await postForm(`${account.path}/conversations/${conversation.id}/messages`, form, agent.token)).status,
    ).toBe(404);
  });

  it('soft delete removes the attachment rows and their files', async () => {
    const conversation = await newConversation(t, account);
    const form = new FormData();
    form.append('content', 'to be deleted');
    form.append('file[]', new Blob([png], { type: 'image/png' }), 'photo.png');
    const created = await postForm(`${account.path}/conversations/${conversation.id}/messages`, form);
    const dataUrl = new URL(created.body.attachments[0].data_url);
    expect((await t.app.inject({ method: 'GET', url: dataUrl.pathname })).statusCode).toBe(200);

    const deleted = await client(t.app, account.admin.token).delete(
      `${account.path}/conversations/${conversation.id}/messages/${created.body.id}`,
    );
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({
      content: 'This message was deleted',
      content_attributes: { deleted: true },
      attachments: [],
    });
    const rows = await t.db.selectFrom('attachments').select('id').where('message_id', '=', created.body.id).execute();
    expect(rows).toEqual([]);
    // File removal runs after commit; give it a moment, then the URL is gone.
    await new Promise((r) => setTimeout(r, 50));
    expect((await t.app.inject({ method: 'GET', url: dataUrl.pathname })).statusCode).toBe(404);
  });

  it('deleting the contact, the inbox or the account removes the attachment files', async () => {
    const upload = async (acc: TestAccount, conversationId: number) => {
      const form = new FormData();
      form.append('content', 'with a file');
      form.append('file[]', new Blob([png], { type: 'image/png' }), 'photo.png');
      const res = await postForm(`${acc.path}/conversations/${conversationId}/messages`, form, acc.admin.token);
      expect(res.status).toBe(200);
      return new URL(res.body.attachments[0].data_url).pathname;
    };
    const served = async (pathname: string) => (await t.app.inject({ method: 'GET', url: pathname })).statusCode;
    const fileCount = () => storedFiles().length;

    const acc = await newAccount(t, 'Deletions');
    const api = client(t.app, acc.admin.token);

    const byContact = await newConversation(t, acc);
    const contactFile = await upload(acc, byContact.id);
    let before = fileCount();
    expect((await api.delete(`${acc.path}/contacts/${byContact.contact.id}`)).status).toBe(200);
    expect(await served(contactFile)).toBe(404);
    expect(fileCount()).toBe(before - 1);

    const inbox = await newInbox(t, acc);
    const byInbox = await newConversation(t, acc, { inboxId: inbox.id });
    const inboxFile = await upload(acc, byInbox.id);
    before = fileCount();
    expect((await api.delete(`${acc.path}/inboxes/${inbox.id}`)).status).toBe(200);
    expect(await served(inboxFile)).toBe(404);
    expect(fileCount()).toBe(before - 1);

    const last = await newConversation(t, acc);
    const accountFile = await upload(acc, last.id);
    before = fileCount();
    expect((await client(t.app, t.platformToken).delete(`/platform/api/v1/accounts/${acc.id}`)).status).toBe(200);
    expect(await served(accountFile)).toBe(404);
    expect(fileCount()).toBe(before - 1);
  });
});
