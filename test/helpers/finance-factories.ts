import { randomBytes, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import type { App } from '../../src/core/http/app.types.js';
import { randomToken, sha256Hex } from '../../src/core/security/tokens.js';
import type { FinanceDatabase } from '../../src/finance/db/schema.js';
import type { Reply } from './http.js';
import type { ReceivedEmail, TestSmtpServer } from './smtp.js';
import type { FinanceTestApp } from './test-app.js';

/**
 * The finance service's test client and factories. Requests carry `Authorization: Bearer`, and each
 * comes from its own random client address unless `ip` names one (the public identity endpoints
 * are rate limited per address; tests of the limits pass a fixed `ip`). Factories seed through the
 * real endpoints and assert their own calls.
 */

export interface FinanceCall {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  ip?: string;
}

export const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

export async function financeCall<T = any>(app: App, c: FinanceCall): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...(c.headers ?? {}) };
  if (c.token) headers.authorization = `Bearer ${c.token}`;
  const res = await app.inject({
    method: c.method ?? 'GET',
    url: c.url,
    headers,
    remoteAddress: c.ip ?? randomIp(),
    ...(c.body !== undefined ? { payload: c.body as object } : {}),
  });
  let body: any = res.body;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    /* not JSON: keep the text */
  }
  return { status: res.statusCode, body, headers: res.headers as Record<string, unknown>, text: res.body };
}

/** Shorthands bound to an app, a token and optionally a client address. */
export function financeClient(app: App, token?: string, ip?: string) {
  const send = <T = any>(method: FinanceCall['method'], url: string, body?: unknown) =>
    financeCall<T>(app, { method, url, token, body, ip });
  return {
    get: <T = any>(url: string) => send<T>('GET', url),
    post: <T = any>(url: string, body: unknown = {}) => send<T>('POST', url, body),
    put: <T = any>(url: string, body: unknown = {}) => send<T>('PUT', url, body),
    delete: <T = any>(url: string) => send<T>('DELETE', url),
  };
}

const unique = () => randomBytes(5).toString('hex');
export const TEST_PASSWORD = 'correct horse battery';

export type FinanceRole = 'admin' | 'agent';

export interface FinanceTestUser {
  id: string;
  email: string;
  password: string;
  fullName: string;
  role: FinanceRole;
  /** The account the tokens are for. */
  accountId: string;
  accessToken: string;
  refreshToken: string;
}

export interface FinanceTestAccount {
  accountId: string;
  name: string;
  admin: FinanceTestUser;
}

const setups = new WeakMap<FinanceTestApp, Promise<FinanceTestAccount>>();

/** Runs the first-user setup once per app (register is refused before it); returns the SuperAdmin's account. */
export function ensureFinanceSetup(t: FinanceTestApp): Promise<FinanceTestAccount> {
  let done = setups.get(t);
  if (!done) {
    done = (async () => {
      const email = `super-${unique()}@example.test`;
      const res = await financeClient(t.app).post('/api/auth/setup', {
        email,
        password: TEST_PASSWORD,
        fullName: 'Super Admin',
        companyName: 'Operator',
        ...(t.config.finance.setupToken ? { setupToken: t.config.finance.setupToken } : {}),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const d = res.body.data;
      return {
        accountId: d.account.id,
        name: d.account.name,
        admin: {
          ...d.user,
          password: TEST_PASSWORD,
          accountId: d.account.id,
          accessToken: d.accessToken,
          refreshToken: d.refreshToken,
        },
      };
    })();
    setups.set(t, done);
  }
  return done;
}

/** A new account (through POST /api/auth/register) with its administrator. */
export async function newFinanceAccount(
  t: FinanceTestApp,
  options: { name?: string; fullName?: string; verified?: boolean } = {},
): Promise<FinanceTestAccount> {
  await ensureFinanceSetup(t);
  const email = `admin-${unique()}@example.test`;
  const res = await financeClient(t.app).post('/api/auth/register', {
    email,
    password: TEST_PASSWORD,
    fullName: options.fullName ?? 'Ada Admin',
    companyName: options.name ?? `Company ${unique()}`,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const d = res.body.data;
  // As if the administrator had followed the verification link (email-verification.test.ts follows
  // it for real): a self-registered user invites members only once verified.
  if (options.verified !== false)
    await t.db.updateTable('users').set({ email_verified: 1 }).where('id', '=', Number(d.user.id)).execute();
  return {
    accountId: d.account.id,
    name: d.account.name,
    admin: {
      ...d.user,
      password: TEST_PASSWORD,
      accountId: d.account.id,
      accessToken: d.accessToken,
      refreshToken: d.refreshToken,
    },
  };
}

/** Signs in (POST /api/auth/login) and returns the user with fresh tokens. */
export async function loginFinance(t: FinanceTestApp, email: string, password: string): Promise<FinanceTestUser> {
  const res = await financeClient(t.app).post('/api/auth/login', { email, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const d = res.body.data;
  return { ...d.user, password, accountId: d.account.id, accessToken: d.accessToken, refreshToken: d.refreshToken };
}

/**
 * A pending invitation of `email` to the account, written straight into the database, and the token
 * of its link. The real invite (POST /api/accounts/members) e-mails the link through the account's
 * SMTP server, which most tests do not have; invitations.test.ts covers that path end to end.
 */
export async function plantFinanceInvitation(
  t: FinanceTestApp,
  account: FinanceTestAccount,
  email: string,
  role: FinanceRole,
): Promise<string> {
  const token = randomToken(32);
  const now = Date.now();
  const [account_id, invited_by, token_hash] = [Number(account.accountId), Number(account.admin.id), sha256Hex(token)];
  const expires_at = now + 7 * 24 * 60 * 60 * 1000;
  const open = {
    status: 'pending' as const,
    accepted_by: null,
    accepted_at: null,
    revoked_at: null,
    created_at: now,
    updated_at: now,
  };
  await t.db
    .insertInto('invitations')
    .values({ account_id, email: email.trim().toLowerCase(), role, token_hash, invited_by, expires_at, ...open })
    .execute();
  return token;
}

/** Accepts an invitation through POST /api/auth/invitations/accept and returns the session's user. */
export async function acceptFinanceInvitation(
  t: FinanceTestApp,
  token: string,
  body: { password?: string; fullName?: string },
  as?: FinanceTestUser,
): Promise<FinanceTestUser> {
  const res = await financeClient(t.app, as?.accessToken).post('/api/auth/invitations/accept', { token, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const d = res.body.data;
  return {
    ...d.user,
    password: as?.password ?? body.password,
    accountId: d.account.id,
    accessToken: d.accessToken,
    refreshToken: d.refreshToken,
  };
}

/**
 * A new user who joined the account with the role by accepting an invitation (planted, see
 * plantFinanceInvitation) with TEST_PASSWORD; signed in to that account.
 */
export async function addFinanceMember(
  t: FinanceTestApp,
  account: FinanceTestAccount,
  role: FinanceRole,
  fields: { email?: string; fullName?: string } = {},
): Promise<FinanceTestUser> {
  const email = fields.email ?? `${role}-${unique()}@example.test`;
  const token = await plantFinanceInvitation(t, account, email, role);
  const fullName = fields.fullName ?? (role === 'admin' ? 'Second Admin' : 'Alan Agent');
  const user = await acceptFinanceInvitation(t, token, { password: TEST_PASSWORD, fullName });
  expect(user.accountId).toBe(account.accountId);
  return user;
}

/** An existing user joins another account with the role: invited, and accepting while signed in. Tokens for that account. */
export async function joinFinanceAccount(
  t: FinanceTestApp,
  account: FinanceTestAccount,
  user: FinanceTestUser,
  role: FinanceRole,
): Promise<FinanceTestUser> {
  const token = await plantFinanceInvitation(t, account, user.email, role);
  const joined = await acceptFinanceInvitation(t, token, {}, user);
  expect(joined).toMatchObject({ id: user.id, accountId: account.accountId, role });
  return joined;
}

/** Saves the account's SMTP configuration pointing at a test SMTP server (the app must allow 127.0.0.1). */
export async function saveFinanceSmtp(
  t: FinanceTestApp,
  account: FinanceTestAccount,
  smtp: TestSmtpServer,
  fromEmail = 'billing@acme.test',
) {
  const res = await financeClient(t.app, account.admin.accessToken).post('/api/email/smtp', {
    host: '127.0.0.1',
    port: smtp.port,
    secure: false,
    user: 'mailer',
    password: 'smtp-secret',
    fromName: 'Acme Billing',
    fromEmail,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/**
 * The first e-mail to `to` (with that subject, when given) among those received after the first
 * `seen`, waiting up to 10 s for it.
 */
export async function nextFinanceEmailTo(
  smtp: TestSmtpServer,
  to: string,
  seen: number,
  subject?: string,
): Promise<ReceivedEmail> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const found = smtp.received
      .slice(seen)
      .find((e) => e.to.includes(to) && (subject === undefined || e.subject === subject));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no e-mail to ${to}`);
}

/** The token of the invitation link in an e-mail (FINANCE_PUBLIC_URL is http://finance.test in tests). */
export function invitationTokenOf(email: ReceivedEmail): string {
  const match = /http:\/\/finance\.test\/accept-invitation\?token=([A-Za-z0-9_-]+)/.exec(email.text);
  if (!match) throw new Error(`no invitation link in: ${email.text}`);
  return match[1];
}

/** A user with the role in a new account: its registering admin, or an agent added to it. */
export async function newFinanceUser(
  t: FinanceTestApp,
  options: { role?: FinanceRole } = {},
): Promise<FinanceTestUser> {
  const account = await newFinanceAccount(t);
  return (options.role ?? 'admin') === 'admin' ? account.admin : addFinanceMember(t, account, 'agent');
}

/** Number of rows in a finance table (all accounts): tests assert that bad input changed nothing. */
export async function countFinanceRows(db: Kysely<FinanceDatabase>, table: keyof FinanceDatabase): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Row counts of every identity table, to compare before and after a refused request. */
export async function financeSnapshot(db: Kysely<FinanceDatabase>) {
  const tables = [
    'users',
    'accounts',
    'memberships',
    'invitations',
    'refresh_tokens',
    'password_resets',
    'smtp_settings',
  ] as const;
  const out: Record<string, number> = {};
  for (const table of tables) out[table] = await countFinanceRows(db, table);
  return out;
}

// ---- Finance data (transactions, bills, invoices, contracts) ----

/** PATCH through the finance app (financeClient has get/post/put/delete). */
export const financePatch = <T = any>(app: App, token: string | undefined, url: string, body: unknown) =>
  financeCall<T>(app, { method: 'PATCH', url, token, body });

async function createThrough(t: FinanceTestApp, token: string, path: string, body: Record<string, unknown>) {
  const res = await financeClient(t.app, token).post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** A transaction created through POST /api/transactions (fields override the defaults). */
export const newFinanceTransaction = (t: FinanceTestApp, token: string, fields: Record<string, unknown> = {}) =>
  createThrough(t, token, '/api/transactions', {
    kind: 'income',
    amount: 100,
    date: '2025-03-10',
    category: 'sales',
    description: 'Sale',
    ...fields,
  });

/** An open bill created through POST /api/bills. */
export const newFinanceBill = (t: FinanceTestApp, token: string, fields: Record<string, unknown> = {}) =>
  createThrough(t, token, '/api/bills', { supplier: 'Power Co', amount: 250.5, dueDate: '2025-03-15', ...fields });

/** An invoice (draft unless `status: 'issued'`) created through POST /api/invoices. */
export const newFinanceInvoice = (t: FinanceTestApp, token: string, fields: Record<string, unknown> = {}) =>
  createThrough(t, token, '/api/invoices', { customer: 'Globex', amount: 1200, dueDate: '2025-04-01', ...fields });

/** An active contract created through POST /api/contracts. */
export const newFinanceContract = (t: FinanceTestApp, token: string, fields: Record<string, unknown> = {}) =>
  createThrough(t, token, '/api/contracts', { party: 'Initech', value: 5000, startDate: '2025-01-01', ...fields });

/** Outbox events recorded with `name` (all accounts, or one account), oldest first, payloads parsed. */
export async function financeEvents(db: Kysely<FinanceDatabase>, name: string, accountId?: string) {
  let query = db.selectFrom('outbox_events').selectAll().where('name', '=', name);
  if (accountId !== undefined) query = query.where('account_id', '=', Number(accountId));
  const rows = await query.orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, accountId: r.account_id, payload: JSON.parse(r.payload) }));
}

/** Row counts of the finance data tables and the outbox, to compare before and after a refused request. */
export async function financeDataSnapshot(db: Kysely<FinanceDatabase>) {
  const tables = ['transactions', 'bills', 'invoices', 'contracts', 'webhooks', 'outbox_events'] as const;
  const out: Record<string, number> = {};
  for (const table of tables) out[table] = await countFinanceRows(db, table);
  return out;
}

// ---- Notifications and the accountant report ----

export interface NotificationSeed {
  type?: 'bill_due_soon' | 'bill_overdue' | 'payment_confirmed' | 'accountant_sent' | 'system';
  title?: string;
  message?: string;
  read?: boolean;
  data?: Record<string, unknown> | null;
  /** Epoch ms; default: now + the seed's position, so later seeds are newer. */
  createdAt?: number;
}

/**
 * Notifications of a user in their token's account, oldest first. No endpoint creates one (the
 * daily job, the payment listener and the accountant report do), so this writes the rows.
 */
export async function newFinanceNotifications(
  t: FinanceTestApp,
  user: FinanceTestUser,
  seeds: NotificationSeed[],
): Promise<string[]> {
  if (seeds.length === 0) return [];
  const base = Date.now() - seeds.length * 1000;
  const rows = await t.db
    .insertInto('notifications')
    .values(
      seeds.map((s, i) => ({
        account_id: Number(user.accountId),
        user_id: Number(user.id),
        type: s.type ?? 'system',
        title: s.title ?? `Notice ${i + 1}`,
        message: s.message ?? `Message ${i + 1}`,
        read: s.read ? 1 : 0,
        read_at: s.read ? base : null,
        data: s.data === undefined || s.data === null ? null : JSON.stringify(s.data),
        dedupe_key: null,
        created_at: s.createdAt ?? base + i * 1000,
      })),
    )
    .returning('id')
    .execute();
  return rows.map((r) => String(r.id));
}

/** The finance services on the test app's database (tests that drive jobs with their own clock). */
export async function financeServicesOf(t: FinanceTestApp) {
  const { createFinanceServices } = await import('../../src/finance/modules.js');
  const { loadFinanceSecrets } = await import('../../src/finance/app.js');
  const deps = {
    db: t.db,
    dialect: t.dialect,
    config: t.config,
    secrets: loadFinanceSecrets(t.config),
    logger: t.app.log,
  };
  return { deps, services: createFinanceServices(deps) };
}
