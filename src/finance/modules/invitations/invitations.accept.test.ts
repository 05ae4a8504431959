import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSmtpServer } from '../../../../test/helpers/smtp.js';
import { buildFinanceTestApp, type FinanceTestApp } from '../../../../test/helpers/test-app.js';
import {
  TEST_PASSWORD,
  countFinanceRows,
  financeClient,
  financeSnapshot,
  invitationTokenOf,
  newFinanceAccount,
  nextFinanceEmailTo,
  plantFinanceInvitation,
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
const fresh = (label: string) => `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;
const accept = (body: Record<string, unknown>, accessToken?: string, ip?: string) =>
  financeClient(t.app, accessToken, ip).post('/api/auth/invitations/accept', body);
const login = (email: string, password: string) => financeClient(t.app).post('/api/auth/login', { email, password });
const accountIdsOf = async (accessToken: string) =>
  (await financeClient(t.app, accessToken).get('/api/auth/accounts')).body.data.map((a: { id: string }) => a.id);

async function accountWithSmtp(): Promise<FinanceTestAccount> {
  const account = await newFinanceAccount(t);
  await saveFinanceSmtp(t, account, smtp);
  return account;
}

/** Invites through the real endpoint and reads the token from the e-mail. */
async function inviteByMail(account: FinanceTestAccount, email: string, role = 'agent'): Promise<string> {
  const seen = smtp.received.length;
  const res = await financeClient(t.app, account.admin.accessToken).post(M, { email, role });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return invitationTokenOf(await nextFinanceEmailTo(smtp, email, seen));
}

describe('the pre-hijacking attack (regression)', () => {
  it('an attacker who "adds" the victim with a chosen password gets nothing; the victim later joins their employer with their own password', async () => {
    const attacker = await accountWithSmtp(); // self-registered, admin of their own account, SMTP of their choosing
    const victim = fresh('victim');
    const before = await financeSnapshot(t.db);

    // The old attack: a password in the body is refused outright.
    const old = await financeClient(t.app, attacker.admin.accessToken).post(M, {
      email: victim,
      role: 'admin',
      fullName: 'Victim',
      password: 'attacker chosen',
    });
    expect(old.status).toBe(422);
    expect(old.body.error.code).toBe('password_not_allowed');
    expect(await financeSnapshot(t.db)).toEqual(before);
    expect((await login(victim, 'attacker chosen')).status).toBe(401);

    // Without one, the attacker only gets a pending invitation: no user, no membership.
    const attackerToken = await inviteByMail(attacker, victim, 'admin');
    expect(await countFinanceRows(t.db, 'users')).toBe(before.users);
    expect(await countFinanceRows(t.db, 'memberships')).toBe(before.memberships);
    expect((await login(victim, 'attacker chosen')).status).toBe(401);

    // The employer invites the same address; the victim accepts with their own password.
    const employer = await accountWithSmtp();
    const employerToken = await inviteByMail(employer, victim, 'agent');
    const joined = await accept({ token: employerToken, password: 'victim own password', fullName: 'Vera Victim' });
    expect(joined.status).toBe(200);
    expect(joined.body.data.account.id).toBe(employer.accountId);

    // The attacker's link (even read off their own SMTP server) now needs the victim signed in.
    const noSession = await accept({ token: attackerToken, password: 'attacker chosen', fullName: 'Hijack' });
    expect(noSession.status).toBe(401);
    expect(noSession.body.error.code).toBe('sign_in_required');
    const asAttacker = await accept({ token: attackerToken }, attacker.admin.accessToken);
    expect(asAttacker.status).toBe(403);
    expect(asAttacker.body.error.code).toBe('wrong_user');

    expect((await login(victim, 'attacker chosen')).status).toBe(401);
    const victimLogin = await login(victim, 'victim own password');
    expect(victimLogin.status).toBe(200);
    expect(await accountIdsOf(victimLogin.body.data.accessToken)).toEqual([employer.accountId]);
    // The attacker sees no member and learns nothing about the victim.
    const members = await financeClient(t.app, attacker.admin.accessToken).get(M);
    expect(members.body.data.members.map((m: { email: string }) => m.email)).toEqual([attacker.admin.email]);
    const invitations = await financeClient(t.app, attacker.admin.accessToken).get('/api/accounts/invitations');
    expect(invitations.body.data.invitations).toEqual([
      expect.objectContaining({ email: victim, status: 'pending', acceptedAt: null }),
    ]);
    expect(JSON.stringify(invitations.body)).not.toContain('Vera Victim');
  });

  it('an attacker who accepts their own invitation first only squats the address: the employer’s link still needs that user signed in', async () => {
    const attacker = await accountWithSmtp();
    const victim = fresh('squatted');
    // The attacker reads their own link off their own SMTP server and creates the user.
    const attackerToken = await inviteByMail(attacker, victim);
    expect((await accept({ token: attackerToken, password: 'attacker chosen', fullName: 'Squatter' })).status).toBe(
      200,
    );

    const employer = await accountWithSmtp();
    const employerToken = await inviteByMail(employer, victim);
    // The employer's link alone neither signs anyone in nor sets the password.
    const res = await accept({ token: employerToken, password: 'victim own password', fullName: 'Vera' });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('sign_in_required');
    expect((await login(victim, 'victim own password')).status).toBe(401);
    const squatter = await login(victim, 'attacker chosen');
    expect(await accountIdsOf(squatter.body.data.accessToken)).toEqual([attacker.accountId]);
  });
});

describe('accepting as a user who already exists', () => {
  it('needs that user signed in: 401 without a token, 403 as someone else; then joins without touching the password', async () => {
    const home = await newFinanceAccount(t, { name: 'Home' });
    const inviting = await accountWithSmtp();
    const stranger = await newFinanceAccount(t);
    const token = await inviteByMail(inviting, home.admin.email, 'admin');

    const shown = await financeClient(t.app).get(`/api/auth/invitations/${token}`);
    expect(shown.body.data).toMatchObject({ email: home.admin.email, role: 'admin', passwordRequired: false });

    const before = await financeSnapshot(t.db);
    const anonymous = await accept({ token, password: 'a new password', fullName: 'Renamed' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({
      success: false,
      message: expect.stringContaining('sign in'),
      error: { code: 'sign_in_required' },
    });
    const other = await accept({ token }, stranger.admin.accessToken);
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({
      success: false,
      message: expect.stringContaining('another user'),
      error: { code: 'wrong_user' },
    });
    const withPassword = await accept({ token, password: 'a new password' }, home.admin.accessToken);
    expect(withPassword.status).toBe(422);
    expect(withPassword.body.error).toMatchObject({ code: 'password_not_allowed', details: [{ field: 'password' }] });
    expect((await accept({ token }, 'not-a-token')).status).toBe(401);
    expect(await financeSnapshot(t.db)).toEqual(before);

    const joined = await accept({ token, fullName: 'Renamed' }, home.admin.accessToken);
    expect(joined.status).toBe(200);
    expect(joined.body.data).toMatchObject({
      user: { id: home.admin.id, fullName: 'Ada Admin', role: 'admin' },
      account: { id: inviting.accountId },
    });
    expect(await accountIdsOf(home.admin.accessToken)).toEqual([home.accountId, inviting.accountId]);
    expect((await login(home.admin.email, TEST_PASSWORD)).status).toBe(200);
    expect((await login(home.admin.email, 'a new password')).status).toBe(401);
    // The earlier session still works (no password change happened).
    expect((await financeClient(t.app, home.admin.accessToken).get('/api/auth/me')).status).toBe(200);
    expect((await accept({ token }, home.admin.accessToken)).status).toBe(422);
  });
});

describe('accepting as a new user', () => {
  it('needs a password (8+) and a name; a refused accept leaves the invitation usable', async () => {
    const account = await newFinanceAccount(t);
    const email = fresh('new');
    const token = await plantFinanceInvitation(t, account, email, 'agent');
    const before = await financeSnapshot(t.db);
    const cases: [Record<string, unknown>, string][] = [
      [{ token }, 'password'],
      [{ token, password: 'long enough 1' }, 'fullName'],
      [{ token, password: 'long enough 1', fullName: '   ' }, 'fullName'],
      [{ token, password: 'short', fullName: 'N' }, 'password'],
      [{ token, password: 'long enough 1', fullName: 'f'.repeat(201) }, 'fullName'],
      [{ password: 'long enough 1', fullName: 'N' }, 'token'],
      [{ token: '', password: 'long enough 1', fullName: 'N' }, 'token'],
    ];
    for (const [body, field] of cases) {
      const res = await accept(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify(res.body.error.details), JSON.stringify(body)).toContain(field);
    }
    expect(await financeSnapshot(t.db)).toEqual(before);
    expect((await accept({ token, password: 'long enough 1', fullName: 'Nora' })).status).toBe(200);
  });

  it('is single use even when two accepts race', async () => {
    const account = await newFinanceAccount(t);
    const email = fresh('race');
    const token = await plantFinanceInvitation(t, account, email, 'agent');
    const answers = await Promise.all([
      accept({ token, password: 'first password', fullName: 'One' }),
      accept({ token, password: 'second password', fullName: 'Two' }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422]);
    expect(answers.find((a) => a.status === 422)!.body.error.code).toBe('invalid_invitation');
    const users = await t.db.selectFrom('users').select('full_name').where('email', '=', email).execute();
    expect(users).toHaveLength(1);
    const memberships = await t.db
      .selectFrom('memberships')
      .select('id')
      .where('account_id', '=', Number(account.accountId))
      .execute();
    expect(memberships).toHaveLength(2);
  });
});

describe('rate limits of the public invitation routes', () => {
  it('accept: 10 a minute per client address; look-up: 30 a minute', async () => {
    const ip = '192.0.2.77';
    for (let i = 0; i < 10; i++)
      expect(
        (await accept({ token: `guess-${i}`, password: 'long enough 1', fullName: 'G' }, undefined, ip)).status,
      ).toBe(422);
    const limited = await accept({ token: 'guess-x', password: 'long enough 1', fullName: 'G' }, undefined, ip);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    const lookupIp = '192.0.2.78';
    for (let i = 0; i < 30; i++)
      expect((await financeClient(t.app, undefined, lookupIp).get(`/api/auth/invitations/guess-${i}`)).status).toBe(
        422,
      );
    expect((await financeClient(t.app, undefined, lookupIp).get('/api/auth/invitations/guess-x')).status).toBe(429);
  });
});
