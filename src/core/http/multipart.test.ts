import fs from 'node:fs';
import os from 'node:os';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBaseApp } from './app-base.js';
import type { App } from './app.types.js';
import { chatErrorBody } from './error-handler.js';
import {
  discardOnFailure,
  jsonOrMultipartBody,
  readJsonOrMultipart,
  readMultipart,
  MAX_FILE_BYTES,
  registerMultipart,
} from './multipart.js';
import { unprocessable } from './errors.js';
import { LocalFileStore } from '../storage/file-store.js';

let dir: string;
let store: LocalFileStore;
let app: App;

const MessageBody = Type.Object({
  content: Type.String({ minLength: 1, maxLength: 100 }),
  private: Type.Optional(Type.Boolean()),
  content_attributes: Type.Optional(Type.Object({ in_reply_to: Type.Optional(Type.Integer()) })),
});

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-multipart-'));
  store = new LocalFileStore(path.join(dir, 'uploads'));
  app = await createBaseApp({
    title: 't',
    description: 't',
    version: '0',
    logger: false,
    errorBody: chatErrorBody,
    healthCheck: async () => {},
  });
  await registerMultipart(app);
  app.post('/raw', { config: { multipart: true } }, async (req) => readMultipart(req, store));
  app.post(
    '/messages',
    { config: { multipart: true, bodyKey: 'message' }, schema: { body: jsonOrMultipartBody(MessageBody) } },
    async (req) => {
      const { body, files } = await readJsonOrMultipart(req, store, MessageBody);
      return discardOnFailure(store, files, async () => {
        if (body.content === 'fail later') throw unprocessable('The request could not be processed');
        return { body, files };
      });
    },
  );
  app.post('/json-only', { schema: { body: Type.Object({ name: Type.String() }) } }, async (req) => req.body);
  await app.ready();
});

afterAll(async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  fs.rmSync(path.join(dir, 'uploads'), { recursive: true, force: true });
});

/** Every regular file under the store (temporary files included). */
function filesOnDisk(): string[] {
  const root = path.join(dir, 'uploads');
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((p) =>
    fs.statSync(path.join(root, p)).isFile(),
  );
}

/** A real multipart body, as a browser or SDK builds it from FormData. */
async function encode(form: FormData): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const res = new Response(form);
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type')! },
  };
}

async function post(url: string, form: FormData) {
  const { payload, headers } = await encode(form);
  const res = await app.inject({ method: 'POST', url, payload, headers });
  return { status: res.statusCode, body: res.json() };
}

const blob = (content: string | Uint8Array, type: string) => new Blob([content], { type });

describe('readMultipart', () => {
  it('stores several files under every accepted field name, with the text fields', async () => {
    const form = new FormData();
    form.append('content', 'hello');
    form.append('message_type', 'outgoing');
    form.append('labels[]', 'a');
    form.append('labels[]', 'b');
    form.append('file[]', blob('png-bytes', 'image/png'), 'one.png');
    form.append('file[]', blob('%PDF-1.4', 'application/pdf'), 'two.pdf');
    form.append('file', blob('col1,col2', 'text/csv'), 'three.csv');
    form.append('attachments[]', blob('voice', 'audio/ogg'), 'note.ogg');
    form.append('attachments', blob('movie', 'video/mp4'), 'clip.mp4');
    form.append('attachments[]', blob('xlsx', 'application/octet-stream'), '../../sheet.xlsx');

    const res = await post('/raw', form);
    expect(res.status).toBe(200);
    expect(res.body.fields).toEqual({ content: 'hello', message_type: 'outgoing', labels: ['a', 'b'] });
    expect(res.body.files.map((f: any) => [f.fileName, f.contentType, f.fileType, f.extension, f.size])).toEqual([
      ['one.png', 'image/png', 'image', 'png', 9],
      ['two.pdf', 'application/pdf', 'file', 'pdf', 8],
      ['three.csv', 'text/csv', 'file', 'csv', 9],
      ['note.ogg', 'audio/ogg', 'audio', 'ogg', 5],
      ['clip.mp4', 'video/mp4', 'video', 'mp4', 5],
      ['sheet.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'file', 'xlsx', 4],
    ]);
    for (const f of res.body.files) {
      expect(f.storageKey).toMatch(/^[0-9a-f]{32}$/);
      const stored = await store.openRead(f.storageKey);
      expect(stored?.size).toBe(f.size);
      stored?.stream.destroy();
    }
    expect(filesOnDisk()).toHaveLength(6);
  });

  it('answers 413 to a file over 40 MB and keeps nothing', { timeout: 60_000 }, async () => {
    const form = new FormData();
    form.append('content', 'big');
    form.append('file[]', blob('small first', 'text/plain'), 'first.txt');
    form.append('file[]', blob(new Uint8Array(41 * 1024 * 1024), 'video/mp4'), 'big.mp4');
    form.append('file[]', blob('after', 'text/plain'), 'after.txt');
    const res = await post('/raw', form);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'Each attachment may be at most 40 MB', code: 'payload_too_large' });
    expect(filesOnDisk()).toEqual([]);
  });

  it('answers 413 to a 41 MB file over a real connection, which stays usable', { timeout: 60_000 }, async () => {
    const server = await createBaseApp({
      title: 't',
      description: 't',
      version: '0',
      logger: false,
      errorBody: chatErrorBody,
      healthCheck: async () => {},
    });
    await registerMultipart(server);
    server.post('/raw', { config: { multipart: true } }, async (req) => readMultipart(req, store));
    const address = await server.listen({ port: 0, host: '127.0.0.1' });
    try {
      const form = new FormData();
      form.append('file[]', blob(new Uint8Array(41 * 1024 * 1024), 'application/pdf'), 'big.pdf');
      const res = await fetch(`${address}/raw`, { method: 'POST', body: form });
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ code: 'payload_too_large' });
      const small = new FormData();
      small.append('file', blob('ok', 'text/plain'), 'ok.txt');
      const ok = await fetch(`${address}/raw`, { method: 'POST', body: small });
      expect(ok.status).toBe(200);
      expect(filesOnDisk()).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('answers 413 to 16 files and keeps none of them', async () => {
    const form = new FormData();
    for (let i = 0; i < 16; i++) form.append('file[]', blob(`file ${i}`, 'text/plain'), `f${i}.txt`);
    const res = await post('/raw', form);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'At most 15 attachments per request', code: 'payload_too_large' });
    expect(filesOnDisk()).toEqual([]);

    const fifteen = new FormData();
    for (let i = 0; i < 15; i++) fifteen.append('file[]', blob(`file ${i}`, 'text/plain'), `f${i}.txt`);
    expect((await post('/raw', fifteen)).status).toBe(200);
    expect(filesOnDisk()).toHaveLength(15);
  });

  it('answers 422 to an unsupported type and removes what was already stored', async () => {
    for (const [content, type, name] of [
      ['<script>alert(1)</script>', 'text/html', 'page.html'],
      ['<svg/>', 'image/svg+xml', 'logo.svg'],
      ['MZ', 'application/octet-stream', 'setup.exe'],
      ['png?', 'image/png', 'disguised.html'],
    ]) {
      const form = new FormData();
      form.append('file[]', blob('fine', 'image/png'), 'fine.png');
      form.append('file[]', blob(content, type), name);
      const res = await post('/raw', form);
      expect(res.status, name).toBe(422);
      expect(res.body.code).toBe('unprocessable_entity');
      expect(res.body.error).toContain(name);
      expect(res.body.error).toContain('PNG, JPG, GIF, WebP');
    }
    expect(filesOnDisk()).toEqual([]);
  });

  it('answers 422 to a file under another field name, an unnamed or an empty file', async () => {
    const other = new FormData();
    other.append('file[]', blob('fine', 'image/png'), 'fine.png');
    other.append('avatar', blob('x', 'image/png'), 'x.png');
    const res = await post('/raw', other);
    expect(res.status).toBe(422);
    expect(res.body.details).toEqual([{ field: 'avatar', message: 'is not a file field' }]);

    // An HTML form's empty file input is skipped; an unnamed part with content is not.
    const emptyInput = [
      '--XyZ',
      'Content-Disposition: form-data; name="content"',
      '',
      'hi',
      '--XyZ',
      'Content-Disposition: form-data; name="file[]"; filename=""',
      'Content-Type: application/octet-stream',
      '',
      '',
      '--XyZ--',
    ].join('\r\n');
    const skipped = await app.inject({
      method: 'POST',
      url: '/raw',
      payload: emptyInput,
      headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
    });
    expect(skipped.statusCode).toBe(200);
    expect(skipped.json()).toEqual({ fields: { content: 'hi' }, files: [] });
    const unnamed = await app.inject({
      method: 'POST',
      url: '/raw',
      payload: emptyInput.replace('\r\n\r\n\r\n--XyZ--', '\r\n\r\ndata\r\n--XyZ--'),
      headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
    });
    expect(unnamed.statusCode).toBe(422);
    expect(unnamed.json().error).toBe('Every attachment needs a file name');

    const empty = new FormData();
    empty.append('file', blob('', 'text/plain'), 'empty.txt');
    const res2 = await post('/raw', empty);
    expect(res2.status).toBe(422);
    expect(res2.body.error).toBe('Attachment "empty.txt" is empty');
    expect(filesOnDisk()).toEqual([]);
  });

  it('answers 400 to malformed multipart bodies and keeps nothing', async () => {
    const noBoundary = await app.inject({
      method: 'POST',
      url: '/raw',
      payload: 'garbage',
      headers: { 'content-type': 'multipart/form-data' },
    });
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json()).toMatchObject({ code: 'malformed_body' });

    // A file part cut off before its closing boundary.
    const cut = [
      '--XyZ',
      'Content-Disposition: form-data; name="file[]"; filename="a.txt"',
      'Content-Type: text/plain',
      '',
      'some text that never ends',
    ].join('\r\n');
    const truncated = await app.inject({
      method: 'POST',
      url: '/raw',
      payload: cut,
      headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
    });
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json()).toMatchObject({ code: 'malformed_body' });

    const proto = new FormData();
    proto.append('__proto__', 'x');
    expect((await post('/raw', proto)).status).toBe(400);
    expect(filesOnDisk()).toEqual([]);
  });
  it('keeps nothing when the client disconnects mid-upload', async () => {
    const server = await createBaseApp({
      title: 't',
      description: 't',
      version: '0',
      logger: false,
      errorBody: chatErrorBody,
      healthCheck: async () => {},
    });
    await registerMultipart(server);
    let settle!: (outcome: unknown) => void;
    const settled = new Promise((resolve) => (settle = resolve));
    server.post('/raw', { config: { multipart: true } }, async (req) => {
      try {
        const result = await readMultipart(req, store);
        settle(result);
        return result;
      } catch (err) {
        settle(err);
        throw err;
      }
    });
    const address = new URL(await server.listen({ port: 0, host: '127.0.0.1' }));
    try {
      const socket = net.connect(Number(address.port), '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      const head = [
        '--XyZ',
        'Content-Disposition: form-data; name="file[]"; filename="a.txt"',
        'Content-Type: text/plain',
        '',
        '',
      ].join('\r\n');
      await new Promise((resolve) =>
        socket.write(
          `POST /raw HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: 10000000\r\n\r\n${head}`,
          resolve,
        ),
      );
      await new Promise((resolve) => socket.write(Buffer.alloc(300_000, 97), resolve));
      socket.destroy();
      expect(await settled).toMatchObject({ statusCode: 400, code: 'malformed_body' });
      expect(filesOnDisk()).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

/** A multipart body streamed from parts: text fields, and files given as a size (zero bytes). */
function* formParts(boundary: string, parts: ({ field: string; value: string } | { file: string; bytes: number })[]) {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  for (const part of parts) {
    if ('field' in part) {
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"\r\n\r\n${part.value}\r\n`,
      );
      continue;
    }
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file[]"; filename="${part.file}"\r\n` +
        'Content-Type: application/pdf\r\n\r\n',
    );
    for (let sent = 0; sent < part.bytes; sent += chunk.length)
      yield chunk.subarray(0, Math.min(chunk.length, part.bytes - sent));
    yield Buffer.from('\r\n');
  }
  yield Buffer.from(`--${boundary}--\r\n`);
}

interface Upload {
  status: number;
  body: any;
  connection: string | undefined;
  /** Body bytes the client had written when the answer arrived. */
  sentWhenAnswered: number;
  /** Resolves when the server closed the connection. */
  closed: Promise<void>;
}

/**
 * Streams `body` as fast as the connection takes it (chunked unless `contentLength` is given) and
 * stops sending once the answer arrives; the socket is left open for the server to close.
 */
function upload(address: URL, route: string, body: Iterable<Buffer>, contentLength?: number): Promise<Upload> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request({
      host: address.hostname,
      port: address.port,
      path: route,
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'multipart/form-data; boundary=XyZ',
        ...(contentLength !== undefined ? { 'content-length': String(contentLength) } : {}),
      },
    });
    const closed = new Promise<void>((done) => req.once('close', () => done()));
    req.on('error', () => {}); // the server may close while we write: expected after its answer
    req.on('response', (res) => {
      answered = true;
      const sentWhenAnswered = sent;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          body: JSON.parse(text),
          connection: res.headers.connection,
          sentWhenAnswered,
          closed,
        }),
      );
    });
    req.flushHeaders();
    const parts = body[Symbol.iterator]();
    const pump = () => {
      for (;;) {
        if (answered) return;
        const next = parts.next();
        if (next.done) return; // the whole body went out; the socket stays open
        sent += next.value.length;
        if (!req.write(next.value)) return void req.once('drain', pump);
      }
    };
    if (contentLength === undefined || contentLength > 0) setImmediate(pump);
    req.once('error', (err) => {
      if (!answered) reject(err);
    });
  });
}

describe('refusing an upload too large early', () => {
  let server: App;
  let address: URL;
  beforeAll(async () => {
    server = await createBaseApp({
      title: 't',
      description: 't',
      version: '0',
      logger: false,
      errorBody: chatErrorBody,
      healthCheck: async () => {},
    });
    await registerMultipart(server);
    server.post('/raw', { config: { multipart: true } }, async (req) => readMultipart(req, store));
    server.post('/small', { config: { multipart: true } }, async (req) =>
      readMultipart(req, store, { maxFiles: 1, maxFileBytes: 1024 * 1024 }),
    );
    address = new URL(await server.listen({ port: 0, host: '127.0.0.1' }));
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses a 100 MB file after about 40 MB, and closes the connection', { timeout: 30_000 }, async () => {
    const res = await upload(address, '/raw', formParts('XyZ', [{ file: 'huge.pdf', bytes: 100 * 1024 * 1024 }]));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'Each attachment may be at most 40 MB', code: 'payload_too_large' });
    expect(res.connection).toBe('close');
    // What the client had sent when the answer came: the 40 MB, plus what the sockets' buffers held.
    expect(res.sentWhenAnswered).toBeGreaterThan(MAX_FILE_BYTES);
    expect(res.sentWhenAnswered).toBeLessThan(MAX_FILE_BYTES + 16 * 1024 * 1024);
    await res.closed;
    expect(filesOnDisk()).toEqual([]);
  });

  it('refuses a request whose Content-Length passes the total before reading any of it', async () => {
    const declared = 15 * MAX_FILE_BYTES + 5 * 1024 * 1024;
    const res = await upload(address, '/raw', [], declared);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'The request may be at most 604 MB', code: 'payload_too_large' });
    expect(res.sentWhenAnswered).toBe(0);
    expect(res.connection).toBe('close');
    await res.closed;
  });

  it('refuses a request (without Content-Length) as soon as it passes the total', { timeout: 30_000 }, async () => {
    // At most one file of 1 MB: 5 MB in all. Fields under their own 1 MB limit add up past it.
    const fields = Array.from({ length: 20 }, (_, i) => ({ field: `note${i}`, value: 'n'.repeat(900 * 1024) }));
    const res = await upload(address, '/small', formParts('XyZ', [{ file: 'a.pdf', bytes: 500_000 }, ...fields]));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'The request may be at most 5 MB', code: 'payload_too_large' });
    expect(res.sentWhenAnswered).toBeLessThan(5 * 1024 * 1024 + 16 * 1024 * 1024);
    await res.closed;
    expect(filesOnDisk()).toEqual([]);
  });
});

describe('routes taking JSON or multipart', () => {
  it('validates multipart fields against the JSON schema, coercing text and unwrapping the resource key', async () => {
    const form = new FormData();
    form.append('message[content]', 'with a file');
    form.append('private', 'true');
    form.append('content_attributes', '{"in_reply_to": 7}');
    form.append('attachments[]', blob('gif', 'image/gif'), 'a.gif');
    const res = await post('/messages', form);
    expect(res.status).toBe(200);
    expect(res.body.body).toEqual({ content: 'with a file', private: true, content_attributes: { in_reply_to: 7 } });
    expect(res.body.files).toHaveLength(1);

    const json = await app.inject({ method: 'POST', url: '/messages', payload: { content: 'plain json' } });
    expect(json.statusCode).toBe(200);
    expect(json.json()).toEqual({ body: { content: 'plain json' }, files: [] });
    expect(filesOnDisk()).toHaveLength(1);
  });

  it('removes the files when the fields are invalid or the operation fails', async () => {
    for (const [fields, status] of [
      [{ private: 'yes' }, 422],
      [{ content: 'x'.repeat(101) }, 422],
      [{ content: 'ok', content_attributes: '{not json' }, 422],
      [{ content: 'fail later' }, 422],
    ] as const) {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append('file[]', blob('data', 'text/plain'), 'a.txt');
      const res = await post('/messages', form);
      expect(res.status, JSON.stringify(fields)).toBe(status);
    }
    const invalid = new FormData();
    invalid.append('file[]', blob('data', 'text/plain'), 'a.txt');
    const res = await post('/messages', invalid);
    expect(res.body).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'content', message: expect.any(String) }],
    });
    expect(filesOnDisk()).toEqual([]);
  });

  it('answers 400 to multipart on a JSON-only route and to other content types on a multipart route', async () => {
    const form = new FormData();
    form.append('name', 'x');
    form.append('file', blob('data', 'text/plain'), 'a.txt');
    const res = await post('/json-only', form);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'unsupported_content_type', error: expect.stringContaining('JSON') });

    const text = await app.inject({
      method: 'POST',
      url: '/messages',
      payload: 'content=hi',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.statusCode).toBe(400);
    expect(text.json()).toMatchObject({ code: 'unsupported_content_type' });

    const unknown = await post('/nowhere', form);
    expect(unknown.status).toBe(404);
    expect(filesOnDisk()).toEqual([]);
  });

  it('documents both body types in the OpenAPI document', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const content = doc.paths['/messages'].post.requestBody.content;
    expect(Object.keys(content).sort()).toEqual(['application/json', 'multipart/form-data']);
    expect(content['multipart/form-data'].schema.properties).toHaveProperty('file[]');
    expect(content['application/json'].schema.required).toEqual(['content']);
  });
});
