import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { CableClient } from './helpers/cable.js';
import { randomPort, startServer, waitFor, type ServerProcess } from './helpers/server-process.js';
import { TEST_DATABASE_URL, testDialect } from './helpers/test-app.js';

/**
 * SIGTERM under load, as Docker sends it (and SIGKILLs 10 s later): both services, clients holding
 * keep-alive connections and writing as fast as they can, an idle keep-alive connection, a client
 * sending its body one byte at a time, and a realtime client. The process must exit 0 within
 * SHUTDOWN_TIMEOUT_SECONDS (3 here), and every write it acknowledged must be there after a restart.
 * Two trials; on PostgreSQL too (each service in its own schema).
 */
const BOUND_SECONDS = 3;
const TRIALS = 2;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-shutdown-'));
const platformToken = randomBytes(24).toString('base64url');
const chatPort = randomPort();
const financePort = chatPort + 1;
const chatBase = `http://127.0.0.1:${chatPort}`;
const financeBase = `http://127.0.0.1:${financePort}`;
const schemas = ['chat', 'finance'].map((s) => `t_shutdown_${s}_${randomBytes(4).toString('hex')}`);

async function admin(statements: string[]) {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (testDialect === 'postgres') await admin(schemas.map((s) => `drop schema if exists ${s} cascade`));
});

const inSchema = (schema: string) =>
  `${TEST_DATABASE_URL}${TEST_DATABASE_URL.includes('?') ? '&' : '?'}options=-c%20search_path%3D${schema}`;

function start(): ServerProcess {
  return startServer({
    DATA_DIR: dataDir,
    CHAT_PORT: String(chatPort),
    FINANCE_PORT: String(financePort),
    PLATFORM_TOKEN: platformToken,
    SHUTDOWN_TIMEOUT_SECONDS: String(BOUND_SECONDS),
    ...(testDialect === 'postgres'
      ? { CHAT_DATABASE_URL: inSchema(schemas[0]), FINANCE_DATABASE_URL: inSchema(schemas[1]) }
      : {}),
  });
}

async function call(base: string, headers: Record<string, string>, method: string, url: string, body?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, any>;
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** A raw connection that sent `head` (and keeps whatever it is told); resolves `closed` when the server closes it. */
async function rawConnection(port: number, head: string) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.on('error', () => {});
  let received = '';
  socket.on('data', (c: Buffer) => (received += c.toString()));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.write(head);
  return { socket, closed, received: () => received };
}

describe('SIGTERM under load', () => {
  it(`exits 0 within ${BOUND_SECONDS} s with keep-alive, slow and realtime clients, losing nothing acknowledged (${TRIALS} trials)`, async () => {
    if (testDialect === 'postgres') await admin(schemas.map((s) => `create schema ${s}`));
    let server = start();
    try {
      await waitFor(`${chatBase}/health`);
      await waitFor(`${financeBase}/health`);
      const platform = { api_access_token: platformToken };
      const account = await call(chatBase, platform, 'POST', '/platform/api/v1/accounts', { name: 'Shutdown' });
      const user = await call(chatBase, platform, 'POST', '/platform/api/v1/users', {
        name: 'Admin',
        email: `shutdown-${randomBytes(4).toString('hex')}@example.test`,
        password: 'shutdown-test-password',
      });
      await call(chatBase, platform, 'POST', `/platform/api/v1/accounts/${account.id}/account_users`, {
        user_id: user.id,
        role: 'administrator',
      });
      const agent = { api_access_token: user.access_token as string };
      const A = `/api/v1/accounts/${account.id}`;
      const inbox = await call(chatBase, agent, 'POST', `${A}/inboxes`, { name: 'Inbox', channel: { type: 'api' } });
      const contact = await call(chatBase, agent, 'POST', `${A}/contacts`, { name: 'Customer', inbox_id: inbox.id });
      const conversation = await call(chatBase, agent, 'POST', `${A}/conversations`, {
        source_id: contact.payload.contact_inbox.source_id,
        inbox_id: inbox.id,
      });
      const setup = await call(financeBase, {}, 'POST', '/api/auth/setup', {
        email: `finance-${randomBytes(4).toString('hex')}@example.test`,
        password: 'shutdown-test-password',
        fullName: 'Finance Admin',
        companyName: 'Shutdown',
      });
      const finance = { authorization: `Bearer ${setup.data.accessToken}` };
      const messages = `${A}/conversations/${conversation.id}/messages`;

      const acknowledged = { messages: new Set<number>(), transactions: new Set<string>() };
      for (let trial = 0; trial < TRIALS; trial++) {
        const target = acknowledged.messages.size + 30;
        let stop = false;
        // Clients on keep-alive connections (fetch keeps them), writing until the process is gone.
        const writer = async (write: () => Promise<void>) => {
          while (!stop) {
            try {
              await write();
            } catch {
              // Refused (503 shutting_down) or cut off: never acknowledged, so never counted.
              if (server.child.exitCode !== null) stop = true;
            }
          }
        };
        const writers = [
          ...Array.from({ length: 6 }, () =>
            writer(async () => {
              const m = await call(chatBase, agent, 'POST', messages, {
                content: `trial ${trial}`,
                message_type: 'outgoing',
              });
              acknowledged.messages.add(m.id as number);
            }),
          ),
          ...Array.from({ length: 3 }, () =>
            writer(async () => {
              const t = await call(financeBase, finance, 'POST', '/api/transactions', {
                kind: 'income',
                amount: 12.5,
                date: '2026-01-02',
              });
              acknowledged.transactions.add(t.data.id as string);
            }),
          ),
        ];
        // An idle keep-alive connection and a body arriving at 1 byte a second, on each service.
        const idle = await Promise.all(
          [chatPort, financePort].map((port) =>
            rawConnection(port, 'GET /health HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n'),
          ),
        );
        const slowHead = (url: string, auth: string) =>
          `POST ${url} HTTP/1.1\r\nHost: x\r\n${auth}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`;
        const slow = await Promise.all([
          rawConnection(chatPort, slowHead(messages, `api_access_token: ${agent.api_access_token}`)),
          rawConnection(financePort, slowHead('/api/transactions', `Authorization: ${finance.authorization}`)),
        ]);
        const drip = setInterval(() => slow.forEach((s) => s.socket.write(' ')), 1000);
        const cable = await CableClient.connect(`ws://127.0.0.1:${chatPort}/cable`);

        await expect.poll(() => acknowledged.messages.size, { timeout: 20_000 }).toBeGreaterThanOrEqual(target);
        await expect.poll(() => acknowledged.transactions.size, { timeout: 20_000 }).toBeGreaterThan(0);
        const signalled = Date.now();
        server.child.kill('SIGTERM');
        const code = await server.exited;
        const seconds = (Date.now() - signalled) / 1000;
        stop = true;
        clearInterval(drip);
        await Promise.all(writers);

        expect(code, server.output()).toBe(0);
        // The bound, and what the process needs to close its databases and end.
        expect(seconds).toBeLessThan(BOUND_SECONDS + 2);
        expect(server.output()).not.toContain('shutdown bound passed with work still closing');
        await Promise.all([...idle, ...slow].map((c) => c.closed));
        for (const s of slow) expect(s.received()).toBe(''); // cut at the bound, never answered
        await cable.whenClosed();
        expect(cable.frames).toContainEqual({ type: 'disconnect', reason: 'server_restart', reconnect: true });

        // After a restart every acknowledged write is there.
        server = start();
        await waitFor(`${chatBase}/health`);
        await waitFor(`${financeBase}/health`);
        const stored = new Set<number>();
        for (let before: number | undefined; ;) {
          const page = await call(chatBase, agent, 'GET', `${messages}${before ? `?before=${before}` : ''}`);
          const ids = (page.payload as { id: number }[]).map((m) => m.id);
          if (ids.length === 0 || (before !== undefined && Math.min(...ids) >= before)) break;
          ids.forEach((id) => stored.add(id));
          before = Math.min(...ids);
        }
        expect(
          [...acknowledged.messages].filter((id) => !stored.has(id)),
          `trial ${trial}`,
        ).toEqual([]);
        const listed = new Set<string>();
        for (let page = 1; ; page++) {
          const res = await call(financeBase, finance, 'GET', `/api/transactions?limit=100&page=${page}`);
          const items = res.data.items as { id: string }[];
          items.forEach((t) => listed.add(t.id));
          if (items.length < 100) break;
        }
        expect(
          [...acknowledged.transactions].filter((id) => !listed.has(id)),
          `trial ${trial}`,
        ).toEqual([]);
      }
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  }, 60_000);
});
