import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatApp } from '../src/chat/app.js';
import type { App } from '../src/core/http/app.types.js';
import { createLogger, logDestination } from '../src/core/logging/logger.js';
import { prettyLine } from '../src/core/logging/pretty.js';
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

describe('one line per request', () => {
  it('logs each request once, when answered, with its status and time; a refusal carries its code and reason', async () => {
    lines.length = 0;
    const ok = await chat.inject({ url: '/health' });
    const refused = await chat.inject({ url: '/api/v1/profile', headers: { api_access_token: 'wrong' } });
    const missing = await chat.inject({ url: '/no/such/route' });
    const entries = lines.map((l) => JSON.parse(l) as Record<string, any>);
    const of = (id: unknown) => entries.filter((e) => e.requestId === id);
    for (const res of [ok, refused, missing]) expect(of(res.headers['x-request-id'])).toHaveLength(1);
    expect(of(ok.headers['x-request-id'])[0]).toMatchObject({
      msg: 'request completed',
      req: { method: 'GET', url: '/health' },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    expect(of(refused.headers['x-request-id'])[0]).toMatchObject({ res: { statusCode: 401 }, code: 'unauthorized' });
    expect(of(missing.headers['x-request-id'])[0]).toMatchObject({
      res: { statusCode: 404 },
      code: 'not_found',
      reason: 'Route GET /no/such/route not found',
    });
  });
});

describe('the readable format (LOG_FORMAT=pretty, or a terminal)', () => {
  it('writes a request as one short line, other entries with their fields, errors with their stack', () => {
    const time = new Date(2026, 0, 2, 14, 2, 7).getTime();
    expect(
      prettyLine(
        JSON.stringify({
          level: 30,
          time,
          service: 'chat',
          requestId: 'r1',
          req: { method: 'GET', url: '/api/v1/accounts/1/contacts/9' },
          res: { statusCode: 404 },
          responseTime: 0.8,
          code: 'not_found',
          reason: 'Contact not found',
          msg: 'request completed',
        }),
      ),
    ).toBe('14:02:07 INFO  chat     GET /api/v1/accounts/1/contacts/9 404 0.8 ms  not_found: Contact not found');
    expect(prettyLine(JSON.stringify({ level: 40, time, service: 'chat', userId: 7, msg: 'no SMTP_URL' }))).toBe(
      '14:02:07 WARN  chat     no SMTP_URL  userId=7',
    );
    const failed = prettyLine(
      JSON.stringify({ level: 50, time, err: { stack: 'Error: boom\n    at here' }, msg: 'x' }),
    );
    expect(failed.split('\n')).toEqual(['14:02:07 ERROR          x', '    Error: boom', '        at here']);
  });

  it('is chosen for a terminal, JSON otherwise or with LOG_FORMAT=json', () => {
    const tty = Object.assign(new Writable({ write: (_c, _e, done) => done() }), { isTTY: true });
    const pipe = new Writable({ write: (_c, _e, done) => done() });
    expect(logDestination('auto', tty as unknown as NodeJS.WriteStream)).toBeDefined();
    expect(logDestination('auto', pipe as unknown as NodeJS.WriteStream)).toBeUndefined();
    expect(logDestination('json', tty as unknown as NodeJS.WriteStream)).toBeUndefined();
    expect(logDestination('pretty', pipe as unknown as NodeJS.WriteStream)).toBeDefined();
  });
});
