import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredFile } from '../../../core/http/multipart.js';
import { classifyFile } from '../../../core/storage/file-formats.js';
import {
  createLocalFileStore,
  newStorageKey,
  sanitizeFileName,
  type LocalFileStore,
} from '../../../core/storage/file-store.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { newAccount, newConversation, newMessage, type TestAccount } from '../../../../test/helpers/factories.js';
import type { Attachment } from '../../db/schema.js';
import * as repo from './attachments.repository.js';
import { presentAttachment } from '../messages/attachments.presenter.js';

let t: ChatTestApp;
let store: LocalFileStore;
beforeAll(async () => {
  t = await buildChatTestApp();
  // The same directory the app's store uses (<DATA_DIR>/uploads).
  store = createLocalFileStore(t.config.dataDir);
});
afterAll(async () => {
  await t.close();
});

/** Stores bytes as an upload would and returns the file description readMultipart gives. */
async function storeFile(bytes: Buffer, name: string, type: string): Promise<StoredFile> {
  const fileName = sanitizeFileName(name);
  const format = classifyFile(type, fileName)!;
  const saved = await store.save(Readable.from([bytes]), { fileName, contentType: format.contentType });
  return {
    storageKey: saved.storageKey,
    fileName,
    contentType: format.contentType,
    size: saved.size,
    fileType: format.kind,
    extension: format.extension,
  };
}

/** A message in a new conversation of the account, with attachment rows for the given files. */
async function messageWithAttachments(account: TestAccount, files: StoredFile[]) {
  const conversation = await newConversation(t, account);
  const message = await newMessage(t, account, conversation.id);
  const rows = await t.db.transaction().execute((trx) => repo.insertAttachments(trx, account.id, message.id, files));
  return { conversation, message, rows };
}

const pathOf = (row: Attachment) => new URL(presentAttachment(row, t.config.chat.publicUrl).data_url).pathname;
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('GET /attachments/:key/:name', () => {
  it('serves the file byte for byte, without a token, with its type and safe headers', async () => {
    const account = await newAccount(t);
    const pdf = randomBytes(300_000);
    const png = randomBytes(1234);
    const { message, rows } = await messageWithAttachments(account, [
      await storeFile(pdf, 'Relatório final.pdf', 'application/pdf'),
      await storeFile(png, 'photo.png', 'image/png'),
    ]);

    expect(presentAttachment(rows[0], t.config.chat.publicUrl)).toEqual({
      id: rows[0].id,
      message_id: message.id,
      file_type: 'file',
      account_id: account.id,
      extension: 'pdf',
      data_url: `http://chat.test/attachments/${rows[0].storage_key}/Relat%C3%B3rio%20final.pdf`,
      thumb_url: `http://chat.test/attachments/${rows[0].storage_key}/Relat%C3%B3rio%20final.pdf`,
      file_size: 300_000,
      width: null,
      height: null,
    });

    const res = await get(pathOf(rows[0]));
    expect(res.statusCode).toBe(200);
    expect(Buffer.compare(res.rawPayload, pdf)).toBe(0);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-length']).toBe('300000');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Relat_rio final.pdf"; filename*=UTF-8''Relat%C3%B3rio%20final.pdf`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('private, max-age=86400, immutable');
    expect(res.headers['content-security-policy']).toContain('sandbox');

    const image = await get(pathOf(rows[1]));
    expect(image.statusCode).toBe(200);
    expect(Buffer.compare(image.rawPayload, png)).toBe(0);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-disposition']).toBe(`inline; filename="photo.png"; filename*=UTF-8''photo.png`);
  });

  it('serves a file whose name is as long as names get, in any script', async () => {
    const account = await newAccount(t);
    const { rows } = await messageWithAttachments(account, [
      await storeFile(Buffer.from('long'), `${'文'.repeat(200)}.txt`, 'text/plain'),
    ]);
    expect(rows[0].file_name.endsWith('文.txt')).toBe(true);
    const res = await get(pathOf(rows[0]));
    expect(res.statusCode).toBe(200);
    expect(res.payload).toBe('long');
  });

  it('serves byte ranges and refuses ranges past the end', async () => {
    const account = await newAccount(t);
    const video = randomBytes(5000);
    const { rows } = await messageWithAttachments(account, [await storeFile(video, 'clip.mp4', 'video/mp4')]);
    const url = pathOf(rows[0]);

    const part = await get(url, { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100-199/5000');
    expect(part.headers['content-length']).toBe('100');
    expect(Buffer.compare(part.rawPayload, video.subarray(100, 200))).toBe(0);

    const tail = await get(url, { range: 'bytes=-10' });
    expect(tail.statusCode).toBe(206);
    expect(Buffer.compare(tail.rawPayload, video.subarray(4990))).toBe(0);

    const past = await get(url, { range: 'bytes=5000-' });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe('bytes */5000');
    expect(past.json()).toMatchObject({ code: 'range_not_satisfiable' });
  });

  it('answers 404 for unknown or malformed keys, a wrong name, and a row whose file is gone', async () => {
    const account = await newAccount(t);
    const { rows } = await messageWithAttachments(account, [
      await storeFile(Buffer.from('a,b\n1,2\n'), 'data.csv', 'text/csv'),
      await storeFile(Buffer.from('gone'), 'gone.txt', 'text/plain'),
    ]);
    await store.remove([rows[1].storage_key]);
    for (const url of [
      `/attachments/${newStorageKey()}/data.csv`,
      `/attachments/${rows[0].storage_key.toUpperCase()}/data.csv`,
      `/attachments/..%2F..%2Fchat.sqlite/data.csv`,
      `/attachments/${rows[0].storage_key}/other.csv`,
      `/attachments/${rows[0].storage_key}`,
      pathOf(rows[1]),
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ code: 'not_found', error: expect.any(String) });
    }
    expect((await get(pathOf(rows[0]))).statusCode).toBe(200);
  });

  it('stops serving a file once its message attachments are deleted', async () => {
    const account = await newAccount(t);
    const { message, rows } = await messageWithAttachments(account, [
      await storeFile(Buffer.from('bye'), 'bye.txt', 'text/plain'),
    ]);
    const url = pathOf(rows[0]);
    expect((await get(url)).statusCode).toBe(200);

    const other = await newAccount(t, 'Other');
    expect(await repo.deleteAttachmentsOfMessage(t.db, other.id, message.id)).toEqual([]);
    const keys = await repo.deleteAttachmentsOfMessage(t.db, account.id, message.id);
    expect(keys).toEqual([rows[0].storage_key]);
    await store.remove(keys);
    expect((await get(url)).statusCode).toBe(404);
  });
});

describe('attachments repository', () => {
  it('lists many messages in one call and collects storage keys by account, inbox and contact', async () => {
    const account = await newAccount(t);
    const other = await newAccount(t, 'Other');
    const a = await messageWithAttachments(account, [
      await storeFile(Buffer.from('1'), 'a1.txt', 'text/plain'),
      await storeFile(Buffer.from('2'), 'a2.txt', 'text/plain'),
    ]);
    const b = await messageWithAttachments(account, [await storeFile(Buffer.from('3'), 'b.txt', 'text/plain')]);
    const foreign = await messageWithAttachments(other, [await storeFile(Buffer.from('4'), 'x.txt', 'text/plain')]);
    const keys = (rows: Attachment[]) => rows.map((r) => r.storage_key).sort();

    const listed = await repo.listAttachmentsOfMessages(t.db, account.id, [
      a.message.id,
      b.message.id,
      foreign.message.id,
    ]);
    expect(listed.map((r) => r.id)).toEqual([...a.rows, ...b.rows].map((r) => r.id));
    const grouped = repo.groupByMessage(listed);
    expect(grouped.get(a.message.id)?.map((r) => r.file_name)).toEqual(['a1.txt', 'a2.txt']);
    expect(grouped.has(foreign.message.id)).toBe(false);
    expect(await repo.listAttachmentsOfMessages(t.db, account.id, [])).toEqual([]);

    expect((await repo.storageKeysOfAccount(t.db, account.id)).sort()).toEqual(keys([...a.rows, ...b.rows]));
    expect((await repo.storageKeysOfInbox(t.db, account.id, a.conversation.inbox_id)).sort()).toEqual(keys(a.rows));
    expect((await repo.storageKeysOfContact(t.db, account.id, b.conversation.contact.id)).sort()).toEqual(keys(b.rows));
    // Ids of another account's inbox or contact give nothing.
    expect(await repo.storageKeysOfInbox(t.db, account.id, foreign.conversation.inbox_id)).toEqual([]);
    expect(await repo.storageKeysOfContact(t.db, account.id, foreign.conversation.contact.id)).toEqual([]);
  });
});

describe('multipart in the chat app', () => {
  it('answers 400, not 500, to multipart sent to a JSON-only route, changing nothing', async () => {
    const account = await newAccount(t);
    const count = async () =>
      Number(
        (
          await t.db
            .selectFrom('contacts')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const form = new FormData();
    form.append('name', 'Multipart Contact');
    form.append('file', new Blob(['x'], { type: 'text/plain' }), 'x.txt');
    const encoded = new Response(form);
    const res = await t.app.inject({
      method: 'POST',
      url: `${account.path}/contacts`,
      headers: { api_access_token: account.admin.token, 'content-type': encoded.headers.get('content-type')! },
      payload: Buffer.from(await encoded.arrayBuffer()),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'unsupported_content_type', error: expect.any(String) });
    expect(await count()).toBe(before);
  });

  it('documents the file route in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.paths['/attachments/{key}/{name}'].get.responses).toHaveProperty('200');
  });
});
