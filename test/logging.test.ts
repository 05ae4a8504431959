import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatApp } from '../src/chat/app.js';
import type { App } from '../src/core/http/app-base.js';
import { createLogger } from '../src/core/logging/logger.js';
import { buildFinanceApp } from '../src/finance/app.js';
import { buildChatTestApp, buildFinanceTestApp, type ChatTestApp, type FinanceTestApp } from './helpers/test-app.js';

// The production logger (server.ts) keeps credentials out of the log: headers, body fields, and
// the tokens that e-mailed links carry in their query strings.
const lines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});
let chatBase: ChatTestApp;
let financeBase: FinanceTestApp;
let chat: App;
let finance: App;

beforeAll(async () => {
  chatBase = await buildChatTestApp();
  financeBase = await buildFinanceTestApp();
  const logger = createLogger('trace', sink);
  // The same services on the same databases, logging through the production logger.
  chat = await buildChatApp({
    db: chatBase.db,
    dialect: chatBase.dialect,
    config: chatBase.config,
    logger,
    background: false,
  });
  finance = await buildFinanceApp({
    db: financeBase.db,
    dialect: financeBase.dialect,
    config: financeBase.config,
    logger,
    background: false,
  });
});
afterAll(async () => {
  await chat.close();
  await finance.close();
  await chatBase.close();
  await financeBase.close();
});

describe('the production log', () => {
  it('masks tokens in URLs, credential headers, and passwords, and still logs the requests', async () => {
    await finance.inject({ url: '/reset-password?token=SECRET-RESET-1&lang=pt' });
    await finance.inject({ url: '/accept-invitation?token=SECRET-INVITE-2' });
    await chat.inject({ url: '/auth/password/edit?reset_password_token=SECRET-RESET-3' });
    await chat.inject({ url: '/api/v1/profile', headers: { api_access_token: 'SECRET-HEADER-4' } });
    await finance.inject({ url: '/api/auth/me', headers: { authorization: 'Bearer SECRET-HEADER-5' } });
    await finance.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'nobody@example.test', password: 'SECRET-PASSWORD-6' },
    });
    const log = lines.join('\n');
    for (let i = 1; i <= 6; i++) expect(log).not.toMatch(new RegExp(`SECRET-[A-Z]+-${i}`));
    const urls = lines
      .map((l) => JSON.parse(l) as { req?: { url?: string } })
      .flatMap((l) => (l.req?.url ? [l.req.url] : []));
    expect(urls).toEqual(
      expect.arrayContaining([
        '/reset-password?token=[redacted]&lang=pt',
        '/accept-invitation?token=[redacted]',
        '/api/v1/profile',
      ]),
    );
  });
});
