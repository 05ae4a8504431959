import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, testDialect, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { client } from '../../../../test/helpers/http.js';
import {
  newAccount,
  newConversation,
  newInbox,
  newMessage,
  type TestAccount,
} from '../../../../test/helpers/factories.js';
import { TestReceiver } from '../../../../test/helpers/receiver.js';
import { verifyStandardSignature } from '../../../core/webhooks/signer.js';

/**
 * What survives restarts and what several instances share: events written by one process are
 * delivered by another started later; a process killed in the middle of a delivery leaves it to
 * the next one; two instances on one database never send the same delivery twice at once.
 */
const env = { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_RETRY_DELAYS: '0.2,0.4,0.6' };
let owner: ChatTestApp;
let account: TestAccount;
beforeAll(async () => {
  // Holds the database for the whole file; the instances below are other "processes" on it.
  owner = await buildChatTestApp(env);
  account = await newAccount(owner);
});
afterAll(async () => {
  await owner.close();
});

const instance = (background: boolean, extraEnv: Record<string, string> = {}) =>
  buildChatTestApp(
    { ...env, ...extraEnv },
    { sameDatabaseAs: owner, ...(background ? { background: { pollIntervalMs: 20 } } : {}) },
  );

async function register(acc: TestAccount, url: string, subscriptions: string[]) {
  const res = await client(owner.app, acc.admin.token).post(`${acc.path}/webhooks`, { url, subscriptions });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.payload.webhook as { id: number; secret: string };
}

async function deliveryLog(webhookId: number) {
  return owner.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('subscriber_id', '=', webhookId)
    .where('subscriber_type', '=', 'webhook')
    .execute();
}

describe('durability', () => {
  it('delivers events committed by a process that stopped before delivering them', async () => {
    const r = await new TestReceiver().start();
    try {
      await register(account, r.url, ['message_created']);
      const writer = await instance(false);
      const conversation = await newConversation(writer, account);
      await newMessage(writer, account, conversation.id, { content: 'written before the restart' });
      await writer.close();
      expect(r.received).toHaveLength(0);

      const restarted = await instance(true);
      try {
        await r.waitFor(1);
        expect(r.received[0].json.content).toBe('written before the restart');
      } finally {
        await restarted.close();
      }
    } finally {
      await r.stop();
    }
  });

  it('two instances share the queue without sending a delivery twice', async () => {
    const r = await new TestReceiver().start();
    const a = await instance(true);
    const b = await instance(true);
    try {
      const webhook = await register(account, r.url, ['message_created']);
      const conversation = await newConversation(owner, account);
      const total = 40;
      for (let i = 0; i < total; i++) {
        await newMessage(i % 2 === 0 ? a : b, account, conversation.id, { content: `m${i}` });
      }
      await r.waitFor(total);
      await new Promise((res) => setTimeout(res, 300));
      const ids = r.received.map((x) => x.headers['webhook-id'] as string);
      expect(ids).toHaveLength(total);
      expect(new Set(ids).size).toBe(total);
      expect(new Set(r.received.map((x) => x.json.content)).size).toBe(total);
      const log = await deliveryLog(webhook.id);
      expect(log.filter((d) => d.status === 'succeeded' && d.attempts === 1)).toHaveLength(total);
    } finally {
      await a.close();
      await b.close();
      await r.stop();
    }
  });

  it('refuses at delivery time a destination that is no longer allowed', async () => {
    const r = await new TestReceiver().start();
    try {
      const webhook = await register(account, r.url, ['message_created']);
      const conversation = await newConversation(owner, account);
      await newMessage(owner, account, conversation.id);
      // This instance runs without the allowlist: 127.0.0.1 is loopback, so every attempt is refused.
      const strict = await instance(true, { WEBHOOK_ALLOWED_HOSTS: '' });
      try {
        let log = await deliveryLog(webhook.id);
        for (let i = 0; i < 200 && log[0]?.status !== 'failed'; i++) {
          await new Promise((res) => setTimeout(res, 25));
          log = await deliveryLog(webhook.id);
        }
        expect(log[0]).toMatchObject({ status: 'failed', attempts: 4, last_status_code: null });
        expect(log[0].last_error).toMatch(/not a public address/);
        expect(r.received).toHaveLength(0);
      } finally {
        await strict.close();
      }
    } finally {
      await r.stop();
    }
  });

  it('an agent bot gets message_created for its inbox, signed with its secret, and can reply with its token', async () => {
    const r = await new TestReceiver().start();
    const worker = await instance(true);
    try {
      const api = client(owner.app, account.admin.token);
      const bot = (await api.post(`${account.path}/agent_bots`, { name: 'Echo', outgoing_url: r.url })).body;
      const inbox = await newInbox(owner, account);
      await api.post(`${account.path}/inboxes/${inbox.id}/set_agent_bot`, { agent_bot: bot.id });
      const conversation = await newConversation(owner, account, { inboxId: inbox.id });
      await newMessage(owner, account, conversation.id, { content: 'hello bot', message_type: 'incoming' });
      await newMessage(owner, account, conversation.id, { content: 'internal', private: true });
      await r.waitFor(1);
      const first = r.received[0];
      expect(first.json).toMatchObject({
        event: 'message_created',
        content: 'hello bot',
        conversation: { id: conversation.id },
      });
      expect(verifyStandardSignature(bot.secret, first.headers as Record<string, string>, first.body)).toBe(true);

      const reply = await client(owner.app, bot.access_token).post(
        `${account.path}/conversations/${conversation.id}/messages`,
        { content: 'echo: hello bot' },
      );
      expect(reply.status).toBe(200);
      await new Promise((res) => setTimeout(res, 400));
      // Neither the private note nor the bot's own reply went back to the bot.
      expect(r.received.map((x) => x.json.content)).toEqual(['hello bot']);
    } finally {
      await worker.close();
      await r.stop();
    }
  });
});

describe('a process killed in the middle of a delivery', () => {
  const root = path.resolve(import.meta.dirname, '../../../..');
  const schemaUrl = () => {
    const db = owner.database;
    if (testDialect !== 'postgres') return db.url;
    const url = new URL(db.url);
    url.searchParams.set('options', `-c search_path=${db.schema}`);
    return url.toString();
  };
  const startServer = (port: number) =>
    spawn(process.execPath, ['--import', 'tsx', 'src/server.ts', 'chat'], {
      cwd: root,
      env: {
        ...process.env,
        ...env,
        CHAT_PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: owner.database.dataDir,
        CHAT_DATABASE_URL: schemaUrl(),
        PLATFORM_TOKEN: owner.platformToken,
        WEBHOOK_LEASE_SECONDS: '11',
        LOG_LEVEL: 'silent',
      },
      stdio: 'ignore',
    });

  it('leaves it to the next process, which sends it with the same delivery id', async () => {
    const r = await new TestReceiver().start();
    r.hang = true;
    const port = 20000 + Math.floor(Math.random() * 30000);
    let server = startServer(port);
    try {
      const webhook = await register(account, r.url, ['message_created']);
      const conversation = await newConversation(owner, account);
      await newMessage(owner, account, conversation.id, { content: 'in flight' });
      await r.waitFor(1, 20_000);
      const firstId = r.received[0].headers['webhook-id'];
      server.kill('SIGKILL');
      await new Promise((res) => server.once('exit', res));

      r.hang = false;
      server = startServer(port);
      // The dead worker's lease (11 s) runs out, then the new process takes the delivery over.
      await r.waitFor(2, 30_000);
      expect(r.received[1].headers['webhook-id']).toBe(firstId);
      expect(r.received[1].json.content).toBe('in flight');
      let log = await deliveryLog(webhook.id);
      for (let i = 0; i < 100 && log[0]?.status !== 'succeeded'; i++) {
        await new Promise((res) => setTimeout(res, 50));
        log = await deliveryLog(webhook.id);
      }
      expect(log[0]).toMatchObject({ status: 'succeeded', attempts: 2 });
    } finally {
      server.kill('SIGTERM');
      await r.stop();
    }
  }, 60_000);
});
