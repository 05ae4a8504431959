import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../core/security/tokens.js';
import { TestSmtpServer } from '../../../../test/helpers/smtp.js';
import { buildFinanceTestApp, type FinanceTestApp } from '../../../../test/helpers/test-app.js';
import {
  addFinanceMember,
  countFinanceRows,
  financeClient,
  financeSnapshot,
  invitationTokenOf,
  newFinanceAccount,
  nextFinanceEmailTo,
  saveFinanceSmtp,
  type FinanceTestAccount,
} from '../../../../test/helpers/finance-factories.js';

let smtp: TestSmtpServer;
let t: FinanceTestApp;
beforeAll(async () => {
  smtp = await new TestSmtpServer().start();
  t = await buildFinanceTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await smtp.stop();
});

const M = '/api/accounts/members';
const I = '/api/accounts/invitations';
const DAY = 24 * 60 * 60 * 1000;
const fresh = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;

async function accountWithSmtp(name?: string): Promise<FinanceTestAccount> {
  const account = await newFinanceAccount(t, { name });
  await saveFinanceSmtp(t, account, smtp);
  return account;
}

/** Invites through the real endpoint and returns the answer and the token of the e-mailed link. */
async function invite(account: FinanceTestAccount, email: string, role = 'agent', extra: Record<string, unknown> = {}) {
  const seen = smtp.received.length;
  const res = await financeClient(t.app, account.admin.accessToken).post(M, { email, role, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const mail = await nextFinanceEmailTo(smtp, email.toLowerCase(), seen);
  return { res, mail, token: invitationTokenOf(mail) };
}

const lookup = (token: string) => financeClient(t.app).get(`/api/auth/invitations/${token}`);
const accept = (body: Record<string, unknown>, accessToken?: string) =>
  financeClient(t.app, accessToken).post('/api/auth/invitations/accept', body);

describe('inviting a new address', () => {
  it('e-mails a link; the invitee sees the account, accepts with their own password, signs in and is listed', async () => {
    const account = await accountWithSmtp('Acme Books');
    const email = fresh('nina');
    const users = await countFinanceRows(t.db, 'users');
    const memberships = await countFinanceRows(t.db, 'memberships');

    // fullName and other unknown fields are ignored; the address is normalized.
    const { res, mail, token } = await invite(account, email.toUpperCase(), 'agent', {
      fullName: 'Set By Admin',
      isSuperAdmin: true,
    });
    expect(res.body).toEqual({
      success: true,
      message: `Invitation sent to ${email}`,
      data: {
        id: expect.stringMatching(/^\d+$/),
        email,
        role: 'agent',
        status: 'pending',
        expiresAt: expect.any(String),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        acceptedAt: null,
        revokedAt: null,
        invitedBy: { id: account.admin.id, email: account.admin.email, fullName: 'Ada Admin' },
      },
    });
    expect(Date.parse(res.body.data.expiresAt) - Date.parse(res.body.data.createdAt)).toBe(7 * DAY);
    expect(JSON.stringify(res.body)).not.toContain(token);
    // Nobody was created or added: that waits for the invitee.
    expect(await countFinanceRows(t.db, 'users')).toBe(users);
    expect(await countFinanceRows(t.db, 'memberships')).toBe(memberships);

    expect(mail.subject).toBe('Invitation to join Acme Books');
    expect(mail.headers.from).toBe('Acme Billing <billing@acme.test>');
    expect(mail.text).toContain('Ada Admin invited you to join Acme Books on Ponte finance as an agent');
    const row = await t.db
      .selectFrom('invitations')
      .selectAll()
      .where('id', '=', Number(res.body.data.id))
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256Hex(token));

    const shown = await lookup(token);
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({
      success: true,
      data: {
        account: { id: account.accountId, name: 'Acme Books' },
        email,
        role: 'agent',
        expiresAt: res.body.data.expiresAt,
        invitedBy: { fullName: 'Ada Admin' },
        passwordRequired: true,
      },
    });

    const accepted = await accept({ token, password: 'nina own password', fullName: '  Nina New ' });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({
      success: true,
      message: 'Invitation accepted',
      data: {
        accessToken: expect.any(String),
        refreshToken: expect.any(String),
        expiresIn: 86400,
        user: { id: expect.stringMatching(/^\d+$/), email, fullName: 'Nina New', role: 'agent' },
        account: { id: account.accountId, name: 'Acme Books' },
      },
    });
    const me = await financeClient(t.app, accepted.body.data.accessToken).get('/api/auth/me');
    expect(me.body.data).toMatchObject({
      email,
      role: 'agent',
      emailVerified: true,
      account: { id: account.accountId },
    });
    const login = await financeClient(t.app).post('/api/auth/login', { email, password: 'nina own password' });
    expect(login.status).toBe(200);
    expect(login.body.data.account.id).toBe(account.accountId);

    const members = await financeClient(t.app, account.admin.accessToken).get(M);
    expect(members.body.data.members.map((m: { email: string }) => m.email)).toEqual([account.admin.email, email]);
    const list = await financeClient(t.app, account.admin.accessToken).get(I);
    expect(list.body.data.invitations[0]).toMatchObject({
      id: res.body.data.id,
      status: 'accepted',
      acceptedAt: expect.any(String),
    });

    // Single use.
    const again = await accept({ token, password: 'another password', fullName: 'Someone' });
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ success: false, error: { code: 'invalid_invitation' } });
    expect((await lookup(token)).status).toBe(422);
  });

  it('answers the same whether or not the address already has a user, and the e-mails read the same', async () => {
    const account = await accountWithSmtp('Same Co');
    const someoneElse = await newFinanceAccount(t, { fullName: 'Existing Person' });
    const a = await invite(account, someoneElse.admin.email);
    const b = await invite(account, fresh('nobody'));
    const mask = (body: any) => ({
      ...body,
      message: body.message.replace(body.data.email, '<e>'),
      data: { ...body.data, id: '<id>', email: '<e>', expiresAt: '<t>', createdAt: '<t>', updatedAt: '<t>' },
    });
    expect(mask(a.res.body)).toEqual(mask(b.res.body));
    const text = (mail: typeof a.mail, token: string) => mail.text.replace(token, '<token>');
    expect(text(a.mail, a.token)).toBe(text(b.mail, b.token));
    expect(a.mail.subject).toBe(b.mail.subject);
    // The existing user was not added and their profile is not shown.
    expect(JSON.stringify(a.res.body)).not.toContain('Existing Person');
    const accounts = await financeClient(t.app, someoneElse.admin.accessToken).get('/api/auth/accounts');
    expect(accounts.body.data).toHaveLength(1);
  });
});

describe('expired, revoked, resent and renewed invitations', () => {
  it('an expired link fails; resend issues a new link and kills the old one; revoke kills the new one', async () => {
    const account = await accountWithSmtp();
    const email = fresh('late');
    const admin = financeClient(t.app, account.admin.accessToken);
    const first = await invite(account, email);
    const id = first.res.body.data.id;
    const users = await countFinanceRows(t.db, 'users');

    await t.db
      .updateTable('invitations')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', Number(id))
      .execute();
    const expired = await accept({ token: first.token, password: 'long enough 1', fullName: 'Late' });
    const unknown = await accept({ token: 'no-such-token', password: 'long enough 1', fullName: 'Late' });
    expect(expired.status).toBe(422);
    expect(expired.body).toEqual(unknown.body);
    expect((await lookup(first.token)).body).toEqual((await lookup('no-such-token')).body);
    expect((await admin.get(`${I}?status=expired`)).body.data.invitations.map((i: { id: string }) => i.id)).toEqual([
      id,
    ]);

    const seen = smtp.received.length;
    const resent = await admin.post(`${I}/${id}/resend`);
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({
      success: true,
      message: `Invitation sent again to ${email}`,
      data: { id, status: 'pending' },
    });
    expect(Date.parse(resent.body.data.expiresAt)).toBeGreaterThan(Date.now() + 7 * DAY - 60_000);
    const second = invitationTokenOf(await nextFinanceEmailTo(smtp, email, seen));
    expect(second).not.toBe(first.token);
    expect((await lookup(first.token)).status).toBe(422);
    expect((await lookup(second)).status).toBe(200);

    const revoked = await admin.delete(`${I}/${id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ success: true, data: null, message: 'Invitation revoked' });
    const afterRevoke = await accept({ token: second, password: 'long enough 1', fullName: 'Late' });
    expect(afterRevoke.status).toBe(422);
    expect(afterRevoke.body).toEqual(unknown.body);
    expect((await admin.get(I)).body.data.invitations[0]).toMatchObject({
      id,
      status: 'revoked',
      revokedAt: expect.any(String),
    });

    // Revoked (or accepted) invitations can be neither revoked nor resent again.
    for (const res of [await admin.delete(`${I}/${id}`), await admin.post(`${I}/${id}/resend`)]) {
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({
        error: { code: 'invalid_transition', details: [{ field: 'status', message: 'is revoked' }] },
      });
    }
    expect(await countFinanceRows(t.db, 'users')).toBe(users);
    expect((await financeClient(t.app).post('/api/auth/login', { email, password: 'long enough 1' })).status).toBe(401);
  });

  it('a second invite of a pending address renews it (same id, new link, the new role)', async () => {
    const account = await accountWithSmtp();
    const email = fresh('twice');
    const first = await invite(account, email, 'agent');
    const second = await invite(account, email, 'admin');
    expect(second.res.body.message).toBe(`Invitation renewed and sent again to ${email}`);
    expect(second.res.body.data).toMatchObject({ id: first.res.body.data.id, role: 'admin', status: 'pending' });
    expect((await lookup(first.token)).status).toBe(422);
    const joined = await accept({ token: second.token, password: 'long enough 1', fullName: 'Twice' });
    expect(joined.body.data.user.role).toBe('admin');
    const accepted = await financeClient(t.app, account.admin.accessToken).post(
      `${I}/${first.res.body.data.id}/resend`,
    );
    expect(accepted.status).toBe(409);
    expect(accepted.body.error.details).toEqual([{ field: 'status', message: 'is accepted' }]);
  });
});

describe('refusals', () => {
  it('a password is refused with a clear 422; members are a 409; bad input a 422; nothing changes and nothing is sent', async () => {
    const account = await accountWithSmtp();
    const agent = await addFinanceMember(t, account, 'agent');
    const admin = financeClient(t.app, account.admin.accessToken);
    const before = await financeSnapshot(t.db);
    const seen = smtp.received.length;

    const withPassword = await admin.post(M, {
      email: fresh('pw'),
      role: 'agent',
      fullName: 'X',
      password: 'chosen password',
    });
    expect(withPassword.status).toBe(422);
    expect(withPassword.body).toEqual({
      success: false,
      message: expect.stringContaining('choose their own password'),
      error: { code: 'password_not_allowed', details: [{ field: 'password', message: 'is not accepted' }] },
    });
    for (const email of [agent.email, account.admin.email.toUpperCase()]) {
      const dup = await admin.post(M, { email, role: 'admin' });
      expect(dup.status).toBe(409);
      expect(dup.body).toMatchObject({ success: false, error: { code: 'conflict', details: [{ field: 'email' }] } });
    }
    for (const body of [
      {},
      { email: 'x@example.test' },
      { email: 'x@example.test', role: 'owner' },
      { email: 'nope', role: 'agent' },
      { email: 7, role: 'agent' },
      [1],
    ]) {
      const res = await admin.post(M, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.success).toBe(false);
    }
    for (const q of ['page=0', 'limit=101', 'status=lost']) expect((await admin.get(`${I}?${q}`)).status, q).toBe(422);
    expect(await financeSnapshot(t.db)).toEqual(before);
    // Invitations are sent before the answer, so nothing can still be on its way.
    expect(smtp.received.length).toBe(seen);
  });

  it('without SMTP the invite is 422 smtp_not_configured; a refused e-mail is 422 smtp_send_failed; nothing is left behind', async () => {
    const bare = await newFinanceAccount(t);
    const before = await financeSnapshot(t.db);
    const noSmtp = await financeClient(t.app, bare.admin.accessToken).post(M, {
      email: fresh('nosmtp'),
      role: 'agent',
    });
    expect(noSmtp.status).toBe(422);
    expect(noSmtp.body).toMatchObject({ success: false, error: { code: 'smtp_not_configured' } });
    expect(await financeSnapshot(t.db)).toEqual(before);

    const account = await accountWithSmtp();
    const admin = financeClient(t.app, account.admin.accessToken);
    const invitations = await countFinanceRows(t.db, 'invitations');
    smtp.rejectNext(1);
    const refused = await admin.post(M, { email: fresh('refused'), role: 'agent' });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ error: { code: 'smtp_send_failed' } });
    expect(await countFinanceRows(t.db, 'invitations')).toBe(invitations);

    // A resend that cannot be sent leaves the invitation as it was: the earlier link still works.
    const email = fresh('keep');
    const sent = await invite(account, email);
    const rowBefore = await t.db
      .selectFrom('invitations')
      .selectAll()
      .where('id', '=', Number(sent.res.body.data.id))
      .executeTakeFirstOrThrow();
    smtp.rejectNext(1);
    const resend = await admin.post(`${I}/${sent.res.body.data.id}/resend`);
    expect(resend.status).toBe(422);
    expect(resend.body.error.code).toBe('smtp_send_failed');
    expect(
      await t.db
        .selectFrom('invitations')
        .selectAll()
        .where('id', '=', Number(sent.res.body.data.id))
        .executeTakeFirstOrThrow(),
    ).toEqual(rowBefore);
    expect((await lookup(sent.token)).status).toBe(200);
  });

  it('agents get 403; another account’s invitation is a 404; lists stay within the account, newest first, paged', async () => {
    const account = await accountWithSmtp();
    const other = await accountWithSmtp();
    const agent = await addFinanceMember(t, account, 'agent');
    const emails = [fresh('a'), fresh('b'), fresh('c')];
    const ids: string[] = [];
    for (const email of emails) ids.push((await invite(account, email)).res.body.data.id);
    await invite(other, fresh('elsewhere'));

    const before = await financeSnapshot(t.db);
    const asAgent = financeClient(t.app, agent.accessToken);
    for (const res of [
      await asAgent.get(I),
      await asAgent.post(M, { email: fresh('x'), role: 'agent' }),
      await asAgent.post(`${I}/${ids[0]}/resend`),
      await asAgent.delete(`${I}/${ids[0]}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ success: false, error: { code: 'forbidden' } });
    }
    const outsider = financeClient(t.app, other.admin.accessToken);
    for (const res of [
      await outsider.post(`${I}/${ids[0]}/resend`),
      await outsider.delete(`${I}/${ids[0]}`),
      await outsider.delete(`${I}/99999999`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'not_found' } });
    }
    expect((await outsider.delete(`${I}/abc`)).status).toBe(422);
    expect(await financeSnapshot(t.db)).toEqual(before);

    const admin = financeClient(t.app, account.admin.accessToken);
    // The agent's (accepted) invitation came first; the other account's never shows.
    const list = await admin.get(I);
    expect(list.body.data).toMatchObject({ total: 4, page: 1, limit: 20 });
    expect(list.body.data.invitations.map((i: { email: string }) => i.email)).toEqual(
      [...emails].reverse().concat(agent.email),
    );
    const page2 = await admin.get(`${I}?page=2&limit=2`);
    expect(page2.body.data).toMatchObject({
      invitations: [{ id: ids[0] }, { email: agent.email }],
      total: 4,
      page: 2,
      limit: 2,
    });
    expect((await admin.get(`${I}?status=accepted`)).body.data).toMatchObject({
      invitations: [{ email: agent.email, status: 'accepted' }],
      total: 1,
    });
    expect((await admin.get(`${I}?status=pending&limit=1`)).body.data).toMatchObject({
      invitations: [{ id: ids[2] }],
      total: 3,
    });
    expect((await admin.get(`${I}?status=revoked`)).body.data.total).toBe(0);
  });
});
