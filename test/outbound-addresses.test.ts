import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DestinationGuard } from '../src/core/webhooks/destination-guard.js';
import { ensureFinanceSetup, financeClient } from './helpers/finance-factories.js';
import { newAccount, type TestAccount } from './helpers/factories.js';
import { client, type Reply } from './helpers/http.js';
import { buildChatTestApp, buildFinanceTestApp, type ChatTestApp, type FinanceTestApp } from './helpers/test-app.js';

/**
 * One table of addresses, one rule (core/webhooks/outbound-policy.ts) at every place an account
 * sets an address the server will call: each form below is refused at save time with a 422 naming
 * the field, or accepted, the same way everywhere. No DNS is asked at save time (the resolved
 * address is checked at each call: destination-guard.test.ts).
 */
const REFUSED = [
  'http://localhost/',
  'http://localhost./',
  'http://LocalHost:8080/',
  'http://a.localhost/',
  'http://a.localhost./',
  'http://localhost.localdomain/',
  'http://metadata.google.internal/',
  'http://metadata.google.internal./',
  'http://127.0.0.1/',
  'http://127.1/',
  'http://2130706433/',
  'http://0x7f000001/',
  'http://0177.0.0.1/',
  'http://0.0.0.0/',
  'http://10.0.0.1/',
  'http://172.16.0.1/',
  'http://192.168.1.1/',
  'http://100.64.0.1/',
  'http://169.254.169.254/',
  'http://[::1]/',
  'http://[::]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://[::127.0.0.1]/',
  'http://[::ffff:0:127.0.0.1]/',
  'http://[0:0:0:0:0:ffff:127.0.0.1]/',
  'http://[64:ff9b::127.0.0.1]/',
  'http://[64:ff9b:1::1]/',
  'http://[2002:7f00:1::]/',
  'http://[2001:0:4136:e378::1]/',
  'http://[fe80::1]/',
  'http://[fd00::1]/',
];
const ACCEPTED = [
  'https://hooks.example.com/ponte',
  'https://hooks.example.com./ponte',
  'http://8.8.8.8/',
  'http://[2606:4700:4700::1111]/',
  'http://[64:ff9b::8.8.8.8]/',
  'https://localhost.example.com/',
];
/** With WEBHOOK_ALLOWED_HOSTS=127.0.0.1,localhost these pass too. */
const ALLOWED_BY_LIST = ['http://127.0.0.1:9/', 'http://localhost./', 'http://[::ffff:127.0.0.1]/'];

/** The host of a table entry as written (an SMTP server is set by host, not URL). */
const hostOf = (url: string) => /^https?:\/\/([^/]+)\//.exec(url)![1].replace(/:\d+$/, '');

interface Place {
  name: string;
  field: string;
  save(url: string): Promise<Reply>;
}

describe('the literal host rule (DestinationGuard.hostProblem)', () => {
  it('refuses every form of the table and accepts the public ones, as URLs and as bare hosts', () => {
    const guard = new DestinationGuard();
    for (const url of REFUSED) {
      expect(() => guard.checkUrl(url), url).toThrow(/not a public address/);
      expect(() => guard.checkHost(hostOf(url)), hostOf(url)).toThrow(/not a public address/);
    }
    for (const url of ACCEPTED) {
      expect(guard.checkUrl(url).protocol, url).toMatch(/^https?:$/);
      expect(() => guard.checkHost(hostOf(url)), hostOf(url)).not.toThrow();
    }
    const allowing = new DestinationGuard(['127.0.0.1', 'localhost']);
    for (const url of ALLOWED_BY_LIST) expect(() => allowing.checkUrl(url), url).not.toThrow();
  });
});

describe('every address an account can set', () => {
  let chat: ChatTestApp;
  let finance: FinanceTestApp;
  let acme: TestAccount;
  let financeToken: string;
  let places: Place[];

  beforeAll(async () => {
    chat = await buildChatTestApp();
    finance = await buildFinanceTestApp();
    acme = await newAccount(chat);
    financeToken = (await ensureFinanceSetup(finance)).admin.accessToken;
    const api = client(chat.app, acme.admin.token);
    const platform = client(chat.app, chat.platformToken);
    const fin = financeClient(finance.app, financeToken);
    let n = 0;
    places = [
      {
        name: 'webhook',
        field: 'url',
        save: (url) => api.post(`${acme.path}/webhooks`, { url, subscriptions: ['message_created'] }),
      },
      {
        name: "an account's agent bot",
        field: 'outgoing_url',
        save: (url) => api.post(`${acme.path}/agent_bots`, { name: `Bot ${++n}`, outgoing_url: url }),
      },
      {
        name: 'a global agent bot (platform)',
        field: 'outgoing_url',
        save: (url) => platform.post('/platform/api/v1/agent_bots', { name: `Bot ${++n}`, outgoing_url: url }),
      },
      {
        name: "an API inbox's webhook_url",
        field: 'channel.webhook_url',
        save: (url) =>
          api.post(`${acme.path}/inboxes`, { name: `API ${++n}`, channel: { type: 'api', webhook_url: url } }),
      },
      {
        name: "a pipeline automation's send_webhook",
        field: 'actions.0.url',
        save: (url) =>
          api.post(`${acme.path}/pipeline/automations`, {
            name: `Hook ${++n}`,
            trigger: 'manual',
            actions: [{ type: 'send_webhook', url }],
          }),
      },
      {
        name: "the assistant's base_url",
        field: 'settings.base_url',
        save: async (url) => {
          const res = await api.post(`${acme.path}/integrations/hooks`, {
            app_id: 'openai',
            settings: { api_key: 'sk-test', base_url: url },
          });
          if (res.status === 200) await api.delete(`${acme.path}/integrations/hooks/${res.body.id}`);
          return res;
        },
      },
      {
        name: 'a finance webhook',
        field: 'url',
        save: (url) => fin.post('/api/v1/webhooks', { url, events: ['invoice.paid'] }),
      },
      {
        name: "a finance account's SMTP host",
        field: 'host',
        save: (url) =>
          fin.post('/api/email/smtp', {
            host: hostOf(url),
            port: 587,
            user: 'billing@acme.test',
            password: 'smtp-secret',
            fromEmail: 'billing@acme.test',
          }),
      },
    ];
  });
  afterAll(async () => {
    await chat.close();
    await finance.close();
  });

  it('refuses each form of the table with a 422 naming the field, everywhere', async () => {
    for (const place of places) {
      for (const url of REFUSED) {
        const res = await place.save(url);
        expect(res.status, `${place.name} ${url}: ${JSON.stringify(res.body)}`).toBe(422);
        const details = res.body.details ?? res.body.error?.details;
        expect(details, `${place.name} ${url}`).toContainEqual({
          field: place.field,
          message: expect.stringMatching(/not a public address/),
        });
      }
    }
  });

  it('accepts the public forms everywhere', async () => {
    for (const place of places) {
      for (const url of ACCEPTED) {
        const res = await place.save(url);
        expect([200, 201], `${place.name} ${url}: ${JSON.stringify(res.body)}`).toContain(res.status);
      }
    }
  });
});
