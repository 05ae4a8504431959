import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../core/security/tokens.js';
import { buildChatApp } from '../../app.js';
import { newAccount, newAgent, type TestAccount } from '../../../../test/helpers/factories.js';
import { client } from '../../../../test/helpers/http.js';
import { TestSmtpServer, type ReceivedEmail } from '../../../../test/helpers/smtp.js';
import { buildChatTestApp, type ChatTestApp } from '../../../../test/helpers/test-app.js';
import { FORGOT_PASSWORD_MESSAGE } from './invitations.routes.js';
import { PASSWORD_LIMITS, RESET_JOB } from './invitations.service.js';
import { insertPasswordToken } from './password-tokens.repository.js';

/**
 * Invitations and forgotten passwords end to end: the mail worker sends to a real SMTP server on
 * 127.0.0.1, and the links are followed as a person (the page) or a client (PUT /auth/password) would.
 */

let smtp: TestSmtpServer;
let t: ChatTestApp;
beforeAll(async () => {
  smtp = await new TestSmtpServer().start();
  t = await buildChatTestApp(
    { SMTP_URL: smtp.url, MAIL_FROM: 'Ponte <no-reply@ponte.test>' },
    { background: { pollIntervalMs: 20 } },
  );
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});

const unique = () => randomBytes(5).toString('hex');
/** Each test its own client address, so that the per-address rate limits of one do not reach another. */
const newIp = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0] % 250)}`;

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  text: string;
  json: () => any;
}

async function request(
  ip: string,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  body?: Record<string, string>,
  form = false,
): Promise<Answer> {
  const res = await t.app.inject({
    method,
    url,
    remoteAddress: ip,
    headers: {
      accept: form || method === 'GET' ? 'text/html,application/xhtml+xml' : 'application/json',
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(body ? { payload: form ? new URLSearchParams(body).toString() : body } : {}),
  });
  return { status: res.statusCode, headers: res.headers, text: res.body, json: () => JSON.parse(res.body) };
}

const page = (ip: string, token: string) =>
  request(ip, 'GET', `/auth/password/edit?reset_password_token=${encodeURIComponent(token)}`);
const submit = (ip: string, fields: Record<string, string>) => request(ip, 'POST', '/auth/password/edit', fields, true);
const signIn = (email: string, password: string) =>
  client(t.app)
    .post('/auth/sign_in', { email, password })
    .then((r) => r.status);

/** Waits for an e-mail to `to` (the mail worker sends the queue in the background). */
async function mailTo(to: string): Promise<ReceivedEmail> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const found = smtp.received.find((e) => e.to.includes(to));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no e-mail to ${to}`);
}

/** The token of the set-password link in an e-mail (the link is on PUBLIC_URL). */
function tokenIn(email: ReceivedEmail): string {
  const match = /http:\/\/chat\.test\/auth\/password\/edit\?reset_password_token=([^&\s]+)/.exec(email.text);
  expect(match, email.text).not.toBeNull();
  return decodeURIComponent(match![1]);
}

/** Waits until the reset job for `email` has run. */
async function resetJobDone(email: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const jobs = await t.db.selectFrom('jobs').select(['status', 'payload']).where('name', '=', RESET_JOB).execute();
    const mine = jobs.filter((j) => JSON.parse(j.payload).email === email);
    if ((mine.length > 0 && mine.every((j) => j.status === 'done')) || Date.now() > deadline) return mine;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const tokensOf = (userId: number) =>
  t.db.selectFrom('password_tokens').selectAll().where('user_id', '=', userId).orderBy('id').execute();
const emailsTo = async (address: string) =>
  (await t.db.selectFrom('outgoing_emails').select('to_addresses').execute()).filter((e) =>
    e.to_addresses.includes(address),
  );

async function createAgent(account: TestAccount, email: string, role = 'agent') {
  const res = await client(t.app, account.admin.token).post(`${account.path}/agents`, {
    name: 'Nina Novak',
    email,
    role,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: number; email: string; confirmed: boolean; invitation_email: string };
}

/** The agent as the account's list shows it. */
async function listedAgent(account: TestAccount, id: number) {
  const res = await client(t.app, account.admin.token).get(`${account.path}/agents`);
  return (res.body as { id: number; confirmed: boolean }[]).find((a) => a.id === id);
}

describe('inviting an agent', () => {
  it('e-mails a new agent a link whose page sets the password once; sign-in then works', async () => {
    const ip = newIp();
    const account = await newAccount(t, 'Acme <Support> & "Co"');
    const email = `nina-${unique()}@example.test`;
    const agent = await createAgent(account, email);
    // The answer says the invitation is on its way; the agent is unconfirmed until they choose a password.
    expect(agent).toMatchObject({ invitation_email: 'queued', confirmed: false });

    // Queued in the creating transaction: there as soon as the agent exists.
    const [queued] = await t.db
      .selectFrom('outgoing_emails')
      .selectAll()
      .where('source', '=', 'identity:invitation')
      .where('account_id', '=', account.id)
      .execute();
    expect(JSON.parse(queued.to_addresses)).toEqual([email]);

    // (The received subject is MIME-encoded: the queue row has it as written.)
    expect(queued.subject).toBe('Join Acme <Support> & "Co" on Ponte');
    const mail = await mailTo(email);
    expect(mail.text).toContain('Hello Nina Novak');
    expect(mail.text).toContain('added you to Acme <Support> & "Co" on Ponte as an agent');
    expect(mail.text).toContain('within 7 days');
    expect(mail.text).toContain('ask for a new one at http://chat.test/auth/password/new');
    const token = tokenIn(mail);
    // Only the token's hash is stored.
    const [row] = await tokensOf(agent.id);
    expect(row).toMatchObject({
      purpose: 'invitation',
      account_id: account.id,
      used_at: null,
      token_hash: sha256Hex(token),
    });
    expect(JSON.stringify(await t.db.selectFrom('password_tokens').selectAll().execute())).not.toContain(token);

    const form = await page(ip, token);
    expect(form.status).toBe(200);
    expect(form.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(form.headers['content-security-policy']).toContain("default-src 'none'");
    expect(form.headers['content-security-policy']).toContain("form-action 'self'");
    expect(form.headers['cache-control']).toBe('no-store');
    expect(form.headers['referrer-policy']).toBe('no-referrer');
    expect(form.text).not.toContain('<script');
    expect(form.text).toContain('<title>Join Acme &lt;Support&gt; &amp; &quot;Co&quot;</title>');
    expect(form.text).not.toContain('Acme <Support>');
    expect(form.text).toContain(`<strong>${email}</strong>`);
    expect(form.text).toContain('<form method="post" action="edit">');
    expect(form.text).toContain(`name="reset_password_token" value="${token}"`);

    // A password that does not fit shows the form again and uses nothing.
    const differ = await submit(ip, {
      reset_password_token: token,
      password: 'a fine new password',
      password_confirmation: 'another password',
    });
    expect(differ.status).toBe(422);
    expect(differ.text).toContain('The repeated password doesn&#39;t match password.');
    expect(differ.text).toContain('<form method="post"');
    const short = await submit(ip, { reset_password_token: token, password: 'short', password_confirmation: 'short' });
    expect(short.status).toBe(422);
    expect(short.text).toContain('too short');
    expect(await signIn(email, 'a fine new password')).toBe(401);

    const done = await submit(ip, {
      reset_password_token: token,
      password: 'a fine new password',
      password_confirmation: 'a fine new password',
    });
    expect(done.status, done.text).toBe(200);
    expect(done.headers['content-security-policy']).toContain("default-src 'none'");
    expect(done.text).toContain(
      `Your password is set. <a href="../../app/login?email=${encodeURIComponent(email)}">Sign in</a> as ${email} with it.`,
    );
    expect(await signIn(email, 'a fine new password')).toBe(200);
    expect((await listedAgent(account, agent.id))?.confirmed).toBe(true);

    // Once only: the page, its form and the API all refuse the used link.
    const again = await page(ip, token);
    expect(again.status).toBe(422);
    expect(again.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(again.text).toContain('This link is invalid, was already used or has expired');
    expect(again.text).not.toContain('<form');
    const reposted = await submit(ip, {
      reset_password_token: token,
      password: 'a second password',
      password_confirmation: 'a second password',
    });
    expect(reposted.status).toBe(422);
    const put = await request(ip, 'PUT', '/auth/password', {
      reset_password_token: token,
      password: 'a second password',
      password_confirmation: 'a second password',
    });
    expect(put.status).toBe(422);
    expect(put.json()).toMatchObject({ code: 'invalid_reset_token' });
    expect(await signIn(email, 'a second password')).toBe(401);
  });

  it("sends nothing when the e-mail already has a user (another account's member): no link, no e-mail", async () => {
    const home = await newAccount(t, 'Home');
    const theirs = await newAgent(t, home);
    const other = await newAccount(t, 'Other');
    const added = await createAgent(other, theirs.email, 'administrator');
    expect(added.id).toBe(theirs.id);
    expect(added).toMatchObject({ invitation_email: 'not_needed', confirmed: true });
    // The e-mail would have been queued in the request's transaction: nothing is, nor will be.
    expect(await emailsTo(theirs.email)).toEqual([]);
    expect(await tokensOf(theirs.id)).toEqual([]);
    // Their own password still signs them in.
    expect(await signIn(theirs.email, 'correct horse battery')).toBe(200);
  });

  it('escapes what the page echoes from a link', async () => {
    const res = await page(newIp(), '"><script>alert(1)</script>');
    expect(res.status).toBe(422);
    expect(res.text).not.toContain('<script>alert(1)');
    expect(res.text).not.toContain('<form');
  });

  it('answers a client that asks for JSON with the error body', async () => {
    const res = await t.app.inject({ url: '/auth/password/edit?reset_password_token=nope', remoteAddress: newIp() });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'invalid_reset_token', error: expect.any(String) });
  });
});

describe('forgotten passwords', () => {
  it('e-mails a reset link; PUT /auth/password sets the password once and answers as sign-in does', async () => {
    const ip = newIp();
    const account = await newAccount(t);
    const user = await newAgent(t, account);
    const before = await client(t.app).post('/auth/sign_in', { email: user.email, password: 'correct horse battery' });
    expect(before.status).toBe(200);
    const oldSession = {
      'access-token': String(before.headers['access-token']),
      client: String(before.headers['client']),
      uid: user.email,
    };
    const known = await request(ip, 'POST', '/auth/password', { email: user.email.toUpperCase() });
    expect(known.status).toBe(200);
    expect(known.json()).toEqual({ message: FORGOT_PASSWORD_MESSAGE });
    const mail = await mailTo(user.email);
    expect(mail.subject).toBe('Reset your Ponte password');
    expect(mail.text).toContain('within one hour');
    const token = tokenIn(mail);
    const [row] = await tokensOf(user.id);
    expect(row).toMatchObject({ purpose: 'reset', account_id: null, token_hash: sha256Hex(token) });
    expect(row.expires_at - row.created_at).toBe(3_600_000);

    const mismatch = await request(ip, 'PUT', '/auth/password', {
      reset_password_token: token,
      password: 'my new password',
      password_confirmation: 'my other password',
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.json().details).toEqual([{ field: 'password_confirmation', message: "doesn't match password" }]);

    const set = await request(ip, 'PUT', '/auth/password', {
      reset_password_token: token,
      password: 'my new password',
      password_confirmation: 'my new password',
    });
    expect(set.status, set.text).toBe(200);
    expect(set.json().data).toMatchObject({ id: user.id, email: user.email, access_token: user.token });
    expect(set.headers['uid']).toBe(user.email);
    expect(set.headers['access-token']).toEqual(expect.any(String));
    // The session it opened authenticates.
    const profile = await t.app.inject({
      url: '/api/v1/profile',
      headers: {
        'access-token': String(set.headers['access-token']),
        client: String(set.headers['client']),
        uid: user.email,
      },
    });
    expect(profile.statusCode).toBe(200);
    // The sessions opened before the new password have ended.
    expect((await t.app.inject({ url: '/api/v1/profile', headers: oldSession })).statusCode).toBe(401);
    expect(await signIn(user.email, 'my new password')).toBe(200);
    expect(await signIn(user.email, 'correct horse battery')).toBe(401);

    const again = await request(ip, 'PUT', '/auth/password', {
      reset_password_token: token,
      password: 'yet another password',
      password_confirmation: 'yet another password',
    });
    expect(again.status).toBe(422);
    expect(again.json()).toMatchObject({ code: 'invalid_reset_token' });
  });

  it('answers an unknown e-mail exactly as a known one, and sends nothing', async () => {
    const ip = newIp();
    const account = await newAccount(t);
    const user = await newAgent(t, account);
    const stranger = `nobody-${unique()}@example.test`;
    const known = await request(ip, 'POST', '/auth/password', { email: user.email });
    const unknown = await request(ip, 'POST', '/auth/password', { email: stranger });
    expect(unknown.status).toBe(known.status);
    expect(unknown.text).toBe(known.text);
    expect(Object.keys(unknown.headers).sort()).toEqual(Object.keys(known.headers).sort());
    // Both requests queued the same job; once the stranger's has run, nothing was queued or sent for it.
    expect(await resetJobDone(stranger)).toHaveLength(1);
    await mailTo(user.email);
    expect(await emailsTo(stranger)).toEqual([]);
    expect(smtp.received.filter((e) => e.to.includes(stranger))).toEqual([]);
  });

  it('lets two requests racing with one link set the password once', async () => {
    const ip = newIp();
    const account = await newAccount(t);
    const user = await newAgent(t, account);
    await request(ip, 'POST', '/auth/password', { email: user.email });
    const token = tokenIn(await mailTo(user.email));
    const answers = await Promise.all(
      ['first racer pw', 'second racer pw'].map((password) =>
        request(ip, 'PUT', '/auth/password', {
          reset_password_token: token,
          password,
          password_confirmation: password,
        }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    const winner = answers[0].status === 200 ? 'first racer pw' : 'second racer pw';
    expect(await signIn(user.email, winner)).toBe(200);
  });

  it('refuses an expired link on the page and on the API', async () => {
    const ip = newIp();
    const account = await newAccount(t);
    const user = await newAgent(t, account);
    const token = `expired-${unique()}`;
    const now = Date.now();
    await insertPasswordToken(t.db, {
      userId: user.id,
      purpose: 'reset',
      tokenHash: sha256Hex(token),
      accountId: null,
      expiresAt: now - 1,
      now: now - 3_600_001,
    });
    expect((await page(ip, token)).status).toBe(422);
    const put = await request(ip, 'PUT', '/auth/password', {
      reset_password_token: token,
      password: 'too late password',
      password_confirmation: 'too late password',
    });
    expect(put.status).toBe(422);
    expect(put.json()).toMatchObject({ code: 'invalid_reset_token' });
    expect(await signIn(user.email, 'too late password')).toBe(401);
  });

  it('a newer reset link replaces the older one, and using it retires the invitation too', async () => {
    const ip = newIp();
    const account = await newAccount(t);
    const email = `twice-${unique()}@example.test`;
    const agent = await createAgent(account, email);
    const invitation = tokenIn(await mailTo(email));
    await request(ip, 'POST', '/auth/password', { email });
    await resetJobDone(email);
    await request(ip, 'POST', '/auth/password', { email });
    await resetJobDone(email);
    const rows = await tokensOf(agent.id);
    expect(rows.map((r) => [r.purpose, r.used_at === null])).toEqual([
      ['invitation', true],
      ['reset', false],
      ['reset', true],
    ]);
    const mails = await (async () => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const found = smtp.received.filter((e) => e.to.includes(email));
        if (found.length === 3 || Date.now() > deadline) return found;
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const [first, second] = mails.filter((m) => m.subject.startsWith('Reset')).map(tokenIn);
    expect((await page(ip, first)).status).toBe(422);
    expect((await page(ip, second)).status).toBe(200);
    const done = await submit(ip, {
      reset_password_token: second,
      password: 'chosen at last',
      password_confirmation: 'chosen at last',
    });
    expect(done.status).toBe(200);
    expect((await page(ip, invitation)).status).toBe(422);
  });
});

describe('the reset request page', () => {
  it('asks for an address and answers the same page for a known and an unknown one', async () => {
    const ip = newIp();
    const form = await request(ip, 'GET', '/auth/password/new');
    expect(form.status).toBe(200);
    expect(form.headers['content-security-policy']).toContain("default-src 'none'");
    expect(form.text).toContain('<form method="post" action="new">');
    expect(form.text).not.toContain('<script');

    const account = await newAccount(t);
    const user = await newAgent(t, account);
    const stranger = `<b>nobody</b>-${unique()}@example.test`;
    const known = await request(ip, 'POST', '/auth/password/new', { email: user.email }, true);
    const unknown = await request(ip, 'POST', '/auth/password/new', { email: stranger }, true);
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.text).toBe(known.text);
    expect(known.text).toContain(FORGOT_PASSWORD_MESSAGE);
    // Both pages lead back to the dashboard's sign-in page (relative to /auth/password/).
    expect(form.text).toContain('<a href="../../app/login">Back to sign in</a>');
    expect(known.text).toContain('<a href="../../app/login">Back to sign in</a>');
    // The link arrives, and opens the set-password page.
    const token = tokenIn(await mailTo(user.email));
    expect((await page(ip, token)).status).toBe(200);
    expect(await resetJobDone(stranger.toLowerCase())).toHaveLength(1);
    expect(await emailsTo('nobody</b>')).toEqual([]);

    const bad = await request(ip, 'POST', '/auth/password/new', { email: 'not an address' }, true);
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('Enter the e-mail address you sign in with.');
    // A client that does not ask for HTML gets the error body.
    const json = await t.app.inject({
      method: 'POST',
      url: '/auth/password/new',
      remoteAddress: ip,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=nope',
    });
    expect(json.statusCode).toBe(422);
    expect(json.json()).toMatchObject({ code: 'unprocessable_entity', details: [{ field: 'email' }] });
  });

  it("is where a link that no longer works points, in the page's language", async () => {
    const res = await page(newIp(), 'no-such-token');
    expect(res.status).toBe(422);
    expect(res.text).toContain('<a href="new?locale=en">Ask for a new link</a>');
  });
});

describe('logs', () => {
  it('never carry the token of a link (the page is opened with it in the query)', async () => {
    const lines: string[] = [];
    const logged = await buildChatApp({
      db: t.db,
      dialect: t.dialect,
      config: t.config,
      logger: { level: 'trace', stream: { write: (line: string) => void lines.push(line) } },
      background: false,
    });
    try {
      const account = await newAccount(t);
      const user = await newAgent(t, account);
      const token = `logged-${unique()}`;
      await insertPasswordToken(t.db, {
        userId: user.id,
        purpose: 'reset',
        tokenHash: sha256Hex(token),
        accountId: null,
        expiresAt: Date.now() + 60_000,
        now: Date.now(),
      });
      const opened = await logged.inject({
        url: `/auth/password/edit?reset_password_token=${token}`,
        remoteAddress: newIp(),
      });
      expect(opened.statusCode).toBe(200);
      const used = await logged.inject({
        method: 'POST',
        url: '/auth/password/edit',
        remoteAddress: newIp(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          reset_password_token: token,
          password: 'logged password',
          password_confirmation: 'logged password',
        }).toString(),
      });
      expect(used.statusCode).toBe(200);
      // The other requests were logged (so the log was on), these without the token.
      expect(lines.some((l) => l.includes('/auth/password/edit'))).toBe(true);
      expect(lines.join('\n')).not.toContain(token);
      expect(lines.join('\n')).not.toContain('logged password');
    } finally {
      await logged.close();
    }
  });
});

describe('rate limits', () => {
  it('limits forgotten-password requests per e-mail and per client address', async () => {
    const email = `limited-${unique()}@example.test`;
    for (let i = 0; i < PASSWORD_LIMITS.forgotPerEmail.limit; i++)
      expect((await request(newIp(), 'POST', '/auth/password', { email })).status).toBe(200);
    const refused = await request(newIp(), 'POST', '/auth/password', { email });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });

    const ip = newIp();
    for (let i = 0; i < PASSWORD_LIMITS.forgotPerIp.limit; i++)
      expect((await request(ip, 'POST', '/auth/password', { email: `x${i}-${unique()}@example.test` })).status).toBe(
        200,
      );
    expect((await request(ip, 'POST', '/auth/password', { email: `y-${unique()}@example.test` })).status).toBe(429);
  });

  it('limits attempts to use a link per client address', async () => {
    const ip = newIp();
    const body = { reset_password_token: 'guess', password: 'some password', password_confirmation: 'some password' };
    for (let i = 0; i < PASSWORD_LIMITS.setPerIp.limit; i++)
      expect((await request(ip, 'PUT', '/auth/password', body)).status).toBe(422);
    const refused = await request(ip, 'PUT', '/auth/password', body);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });
});

describe('without SMTP_URL', () => {
  it('still creates agents, logs that no invitation was sent, queues nothing, and answers forgotten passwords the same', async () => {
    const bare = await buildChatTestApp();
    // The same service on the same database, with its log collected (the test app logs nothing).
    const lines: string[] = [];
    const logged = await buildChatApp({
      db: bare.db,
      dialect: bare.dialect,
      config: bare.config,
      logger: { level: 'warn', stream: { write: (line: string) => void lines.push(line) } },
      background: false,
    });
    try {
      const account = await newAccount(bare);
      const email = `quiet-${unique()}@example.test`;
      const res = await client(logged, account.admin.token).post(`${account.path}/agents`, {
        name: 'Quiet Agent',
        email,
        role: 'agent',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      // The answer says nobody was e-mailed, and the agent stays unconfirmed.
      expect(res.body).toMatchObject({ invitation_email: 'not_sent_no_smtp', confirmed: false });
      const warnings = lines.map((l) => JSON.parse(l) as { msg: string; userId?: number });
      expect(warnings).toContainEqual(
        expect.objectContaining({
          msg: 'agent invitation not sent: SMTP_URL is not set (node dist/cli.js chat:reset-password sets a password)',
          userId: res.body.id,
        }),
      );
      expect(await bare.db.selectFrom('password_tokens').selectAll().execute()).toEqual([]);
      expect(await bare.db.selectFrom('outgoing_emails').selectAll().execute()).toEqual([]);
      const forgot = await client(logged).post('/auth/password', { email });
      expect(forgot.status).toBe(200);
      expect(forgot.body).toEqual({ message: FORGOT_PASSWORD_MESSAGE });
      expect(lines.join('\n')).not.toContain(email);
    } finally {
      await logged.close();
      await bare.close();
    }
  });
});
