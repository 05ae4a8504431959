import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { settledBy } from '../background/deadline.js';
import { createBaseApp } from './app-base.js';
import type { App } from './app.types.js';
import { chatErrorBody, financeErrorBody } from './error-handler.js';
import { closeWithin } from './shutdown.js';

/**
 * A bounded shutdown (shutdown.ts) over real connections: what clients see, and that closing ends
 * whatever they do. No timing is asserted; the test's own timeout is the bound.
 */
let opened: App[] = [];
afterEach(async () => {
  await Promise.allSettled(opened.map((app) => app.close()));
  opened = [];
});

async function serve(errorBody = chatErrorBody) {
  const app = await createBaseApp({
    title: 't',
    description: 't',
    version: '0',
    logger: false,
    errorBody,
    healthCheck: async () => {},
  });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const inHandler = new Promise<void>((resolve) => (started = resolve));
  const arrived: string[] = [];
  app.addHook('onRequest', async (request) => void arrived.push(request.url));
  app.get('/ok', async () => ({ ok: true }));
  app.get('/slow', async () => {
    started();
    await gate;
    return { slow: true };
  });
  app.post('/echo', async (request) => ({ got: request.body }));
  const port = new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port;
  opened.push(app);
  return { app, port: Number(port), release, inHandler, arrived };
}

/** A raw client connection: what it sent is written as given, what it receives is kept. */
async function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    socket,
    closed,
    received: () => received,
    /** Resolves once `count` complete answers (head and body) have arrived. */
    async answers(count: number) {
      await expect
        .poll(() => received.split('HTTP/1.1 ').length - 1, { timeout: 10_000 })
        .toBeGreaterThanOrEqual(count);
      return received;
    },
  };
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n`;

describe('closeWithin', () => {
  it('closes idle keep-alive connections at once and answers the requests in flight with Connection: close', async () => {
    const { app, port, release, inHandler } = await serve();
    const idle = await connect(port);
    idle.socket.write(get('/ok'));
    expect(await idle.answers(1)).toMatch(/^HTTP\/1.1 200[\s\S]*connection: keep-alive/i);
    const busy = await connect(port);
    busy.socket.write(get('/slow'));
    await inHandler;

    // A client halfway through sending a request's head: its connection is not idle.
    const late = await connect(port);
    late.socket.write('GET /ok HTTP/1.1\r\nHost: x\r\n');

    const closing = closeWithin(app, Date.now() + 60_000);
    // Closed by the server while a request is still in flight (Fastify's close alone keeps it open
    // for the keep-alive timeout, 72 s).
    await idle.closed;
    // A request that reaches the service now is refused in its error body, and told to come back.
    late.socket.write('Accept-Language: pt-BR\r\n\r\n');
    const refused = await late.answers(1);
    expect(refused).toMatch(/^HTTP\/1.1 503 /);
    expect(refused).toMatch(/\r\nretry-after: 5\r\n/i);
    expect(refused).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4))).toEqual({
      error: 'O servidor está sendo desligado; envie a requisição de novo em instantes',
      code: 'shutting_down',
    });
    await late.closed;

    release();
    const answer = await busy.answers(1);
    expect(answer).toMatch(/^HTTP\/1.1 200[\s\S]*connection: close[\s\S]*\{"slow":true\}$/i);
    await busy.closed;
    await closing;
  });

  it('ends at the deadline while a client sends its body one byte at a time', { timeout: 20_000 }, async () => {
    const { app, port, arrived } = await serve(financeErrorBody);
    const slow = await connect(port);
    slow.socket.write(
      'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
    );
    const drip = setInterval(() => slow.socket.write(' '), 50);
    try {
      await expect.poll(() => arrived).toEqual(['/echo']); // its head arrived; the body is flowing
      await closeWithin(app, Date.now() + 300);
      await slow.closed;
      expect(slow.received()).toBe(''); // never answered: cut
    } finally {
      clearInterval(drip);
    }
  });
});

describe('settledBy', () => {
  it('says whether work finished by the deadline, and leaves it running when it did not', async () => {
    expect(await settledBy(Promise.resolve(), Date.now() + 1000)).toBe(true);
    expect(await settledBy(Promise.resolve(), undefined)).toBe(true);
    let finish!: () => void;
    const long = new Promise<void>((resolve) => (finish = resolve));
    expect(await settledBy(long, Date.now() + 20)).toBe(false);
    finish();
    await expect(settledBy(Promise.reject(new Error('failed')), Date.now() + 1000)).rejects.toThrow('failed');
  });
});
