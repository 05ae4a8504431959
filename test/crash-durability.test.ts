import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { testDialect } from './helpers/test-app.js';
import { TestReceiver } from './helpers/receiver.js';
import { randomPort, startServer, waitFor, type ServerProcess } from './helpers/server-process.js';

/**
 * "Nothing acknowledged is lost", with group commit on SQLite: the chat service is killed with
 * SIGKILL (no shutdown, no flush) while clients keep posting messages, then started again on the
 * same DATA_DIR, several times. Every message that was answered 2xx must be there after each
 * restart, and its message_created webhook must reach the receiver in the end.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-crash-'));
const platformToken = randomBytes(24).toString('base64url');
const port = randomPort();
const base = `http://127.0.0.1:${port}`;
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function start(): ServerProcess {
  return startServer(
    {
      LOG_LEVEL: 'error',
      DATA_DIR: dataDir,
      CHAT_PORT: String(port),
      PLATFORM_TOKEN: platformToken,
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    },
    ['chat'],
  );
}

const untilHealthy = () => waitFor(`${base}/health`, 30_000);

async function call(token: string, method: string, url: string, body?: unknown) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { api_access_token: token, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, any>;
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

describe.skipIf(testDialect !== 'sqlite')('crash durability (SQLite, group commit)', () => {
  it('every acknowledged message survives kill -9 under write load, and its webhook is delivered', async () => {
    const receiver = await new TestReceiver().start();
    let server = start();
    try {
      await untilHealthy();
      const account = await call(platformToken, 'POST', '/platform/api/v1/accounts', { name: 'Crash test' });
      const user = await call(platformToken, 'POST', '/platform/api/v1/users', {
        name: 'Admin',
        email: `crash-${randomBytes(4).toString('hex')}@example.test`,
        password: 'crash-test-password',
      });
      await call(platformToken, 'POST', `/platform/api/v1/accounts/${account.id}/account_users`, {
        user_id: user.id,
        role: 'administrator',
      });
      const token = user.access_token as string;
      const A = `/api/v1/accounts/${account.id}`;
      const inbox = await call(token, 'POST', `${A}/inboxes`, { name: 'Crash inbox', channel: { type: 'api' } });
      const contact = await call(token, 'POST', `${A}/contacts`, { name: 'Customer', inbox_id: inbox.id });
      const conversation = await call(token, 'POST', `${A}/conversations`, {
        source_id: contact.payload.contact_inbox.source_id,
        inbox_id: inbox.id,
      });
      await call(token, 'POST', `${A}/webhooks`, { url: receiver.url, subscriptions: ['message_created'] });

      const acknowledged = new Set<number>();
      for (let round = 0; round < 3; round++) {
        // Eight clients post as fast as they can; the process dies once enough were answered.
        let stop = false;
        const target = acknowledged.size + 40;
        const client = async () => {
          while (!stop) {
            try {
              const message = await call(token, 'POST', `${A}/conversations/${conversation.id}/messages`, {
                content: `round ${round}`,
                message_type: 'outgoing',
              });
              acknowledged.add(message.id as number);
              if (acknowledged.size >= target && !stop) {
                stop = true;
                server.child.kill('SIGKILL');
              }
            } catch {
              // Refused or cut off by the kill: never acknowledged, so never counted.
              if (server.child.exitCode !== null || server.child.signalCode !== null) stop = true;
            }
          }
        };
        await Promise.all(Array.from({ length: 8 }, client));
        await server.exited;

        server = start();
        await untilHealthy();
        const stored = new Set<number>();
        let before: number | undefined;
        // Every page, newest first, back to the start.
        for (;;) {
          const page = await call(
            token,
            'GET',
            `${A}/conversations/${conversation.id}/messages${before ? `?before=${before}` : ''}`,
          );
          const ids = (page.payload as { id: number }[]).map((m) => m.id);
          if (ids.length === 0) break;
          for (const id of ids) stored.add(id);
          const oldest = Math.min(...ids);
          if (before !== undefined && oldest >= before) break;
          before = oldest;
        }
        const lost = [...acknowledged].filter((id) => !stored.has(id));
        expect(lost, `round ${round}: acknowledged but missing after kill -9`).toEqual([]);
      }

      // The restarted process delivers what the killed ones had not.
      const deadline = Date.now() + 60_000;
      // Webhook payloads carry ids as strings (Chatwoot does too).
      const delivered = () => new Set(receiver.received.map((r) => Number((r.json as { id: string }).id)));
      while ([...acknowledged].some((id) => !delivered().has(id)) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect([...acknowledged].filter((id) => !delivered().has(id))).toEqual([]);
      expect(acknowledged.size).toBeGreaterThanOrEqual(120);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await receiver.stop();
    }
  }, 180_000);
});
