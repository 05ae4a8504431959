import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildChatApp } from '../src/chat/app.js';
import type { ChatDatabase } from '../src/chat/db/schema.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/core/db/database.js';
import { sha256Hex } from '../src/core/security/tokens.js';
import { client } from './helpers/http.js';
import { testDialect } from './helpers/test-app.js';

/** The administrator's command line, run as an operator would, on SQLite files under DATA_DIR. */
// Each command is a new Node process compiling the app with tsx: seconds each on a busy machine.
vi.setConfig({ testTimeout: 180_000 });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-cli-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function cli(...args: string[]) {
  const res = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  return { code: res.status, out: `${res.stdout}${res.stderr}` };
}

const query = (file: string, sql: string, ...params: unknown[]) => {
  const db = new SqliteDatabase(path.join(dataDir, file), { readonly: true });
  try {
    return db.prepare(sql).all(...params) as Record<string, unknown>[];
  } finally {
    db.close();
  }
};

/** The conversation service on the command line's database, as the server would open it. */
async function openChat() {
  const url = `sqlite://${path.join(dataDir, 'chat.sqlite')}`;
  const database = await openDatabase<ChatDatabase>(url);
  const config = loadConfig({ DATA_DIR: dataDir, CHAT_DATABASE_URL: url, LOG_LEVEL: 'silent' });
  const chat = await buildChatApp({
    db: database.db,
    dialect: database.dialect,
    config,
    logger: false,
    background: false,
  });
  return {
    chat,
    close: async () => {
      await chat.close();
      await database.close();
    },
  };
}

describe.skipIf(testDialect !== 'sqlite')('the admin command line', () => {
  it('explains itself and refuses what it does not know', () => {
    const help = cli('--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: node dist/cli.js <command>');
    expect(help.out).toContain('backup <directory>');
    const unknown = cli('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.out).toContain('Unknown command frobnicate');
    expect(cli('chat:create-account').out).toContain('--name is required');
  });

  it('migrates, creates a chat account and user, resets the password and rotates the platform token', () => {
    expect(cli('migrate').out).toContain('Migrations applied (chat and finance)');
    const account = cli('chat:create-account', '--name', 'Acme');
    expect(account.code).toBe(0);
    // Before any start there is no platform app: the command line makes the first and shows its token once.
    expect(account.out).toMatch(
      /The installation had no platform app: made one\. Its token \(shown only now; keep it safe\):\n\s+\S{40,}\n/,
    );
    expect(cli('chat:create-account', '--name', 'Initech').out).not.toContain('platform app');
    const accountId = /Account (\d+) created/.exec(account.out)![1];
    const user = cli(
      'chat:create-user',
      '--name',
      'Ana',
      '--email',
      'ana@acme.test',
      '--account',
      accountId,
      '--role',
      'administrator',
    );
    expect(user.code, user.out).toBe(0);
    expect(user.out).toMatch(/Access token: \S{20,}/);
    expect(user.out).toMatch(/Password: \S{12,}/);
    expect(query('chat.sqlite', 'select role from account_users where account_id = ?', Number(accountId))).toEqual([
      { role: 'administrator' },
    ]);
    const before = query('chat.sqlite', "select password_hash from users where email = 'ana@acme.test'")[0]
      .password_hash;
    expect(cli('chat:reset-password', '--email', 'ana@acme.test', '--password', 'a brand new secret').code).toBe(0);
    expect(
      query('chat.sqlite', "select password_hash from users where email = 'ana@acme.test'")[0].password_hash,
    ).not.toBe(before);
    expect(cli('chat:reset-password', '--email', 'nobody@acme.test').out).toContain(
      'there is no user with the e-mail nobody@acme.test',
    );
    const tokens = [1, 2].map(
      () => /token \(the old one no longer works\):\n\s+(\S+)/.exec(cli('chat:rotate-platform-token').out)![1],
    );
    expect(tokens[0]).not.toBe(tokens[1]);
    const stored = query('chat.sqlite', "select token from access_tokens where owner_type = 'PlatformApp'").map(
      (r) => r.token,
    );
    expect(stored).toEqual([sha256Hex(tokens[1])]);
  });

  it('acts as the first platform app: lists accounts and users, sets plan and locale; the platform token manages what it made', async () => {
    const made = cli('chat:create-account', '--name', 'Globex', '--locale', 'pt_BR', '--plan', 'enterprise');
    expect(made.code, made.out).toBe(0);
    expect(made.out).toMatch(/Account \d+ created: Globex \(locale pt_BR, plan enterprise\)/);
    const globex = Number(/Account (\d+) created/.exec(made.out)![1]);
    const listed = cli('chat:list-accounts');
    expect(listed.out.split('\n')[0]).toMatch(/^id\s+name\s+locale\s+plan\s+status\s+members$/);
    expect(listed.out).toMatch(new RegExp(`\\n${globex}\\s+Globex\\s+pt_BR\\s+enterprise\\s+active\\s+0`));
    expect(listed.out).toMatch(/\n1\s+Acme\s+en\s+community\s+active\s+1/);
    const set = cli('chat:set-account', '--account', '1', '--plan', 'enterprise', '--locale', 'es');
    expect(set.code, set.out).toBe(0);
    expect(set.out).toBe('Account 1 (Acme): locale es, plan enterprise\n');
    expect(cli('chat:set-account', '--account', '1', '--plan', 'gold').out).toContain(
      '--plan is one of: community, enterprise',
    );
    expect(cli('chat:set-account', '--account', '999', '--locale', 'en').out).toContain('there is no account 999');
    expect(cli('chat:list-users', '--account', '1').out).toMatch(/\n\d+\s+ana@acme\.test\s+Ana\s+1 \(administrator\)/);
    expect(cli('chat:list-users', '--account', String(globex)).out).toBe(`Account ${globex} has no members.\n`);

    // The platform token (the last one rotated) manages the accounts and users the command line made.
    const token = /token \(the old one no longer works\):\n\s+(\S+)/.exec(cli('chat:rotate-platform-token').out)![1];
    const { chat, close } = await openChat();
    try {
      const api = client(chat, token);
      const acme = await api.get('/platform/api/v1/accounts/1');
      expect(acme.body).toMatchObject({ name: 'Acme', plan: 'enterprise', locale: 'es' });
      expect((await api.patch(`/platform/api/v1/accounts/${globex}`, { plan: 'community' })).body.plan).toBe(
        'community',
      );
      const ana = query('chat.sqlite', "select id from users where email = 'ana@acme.test'")[0].id as number;
      expect((await api.get(`/platform/api/v1/users/${ana}`)).body.email).toBe('ana@acme.test');
    } finally {
      await close();
    }
  });

  it('creates a finance user (the SuperAdmin when first) and resets a password, ending sessions', () => {
    const first = cli(
      'finance:create-user',
      '--email',
      'owner@acme.test',
      '--name',
      'Owner',
      '--password',
      'correct horse battery',
    );
    expect(first.code, first.out).toBe(0);
    expect(first.out).toContain('(SuperAdmin: the service is now set up)');
    expect(
      query('finance.sqlite', "select is_super_admin, email_verified from users where email = 'owner@acme.test'"),
    ).toEqual([{ is_super_admin: 1, email_verified: 1 }]);
    const version = query('finance.sqlite', "select token_version from users where email = 'owner@acme.test'")[0]
      .token_version as number;
    expect(cli('finance:reset-password', '--email', 'owner@acme.test').out).toMatch(/changed to: \S{12,}/);
    expect(
      query('finance.sqlite', "select token_version from users where email = 'owner@acme.test'")[0].token_version,
    ).toBe(version + 1);
  });

  it('prints the VAPID pair of Web Push, generated into DATA_DIR at first use and the same afterwards', () => {
    const first = cli('push:vapid-keys');
    expect(first.code, first.out).toBe(0);
    const pair = /^VAPID_PUBLIC_KEY=([\w-]{87})\nVAPID_PRIVATE_KEY=([\w-]{43})\n$/.exec(first.out);
    expect(pair, first.out).not.toBeNull();
    expect(fs.readFileSync(path.join(dataDir, 'vapid-private.key'), 'utf8').trim()).toBe(pair![2]);
    expect(cli('push:vapid-keys').out).toBe(first.out);
  });

  it('backs up the SQLite databases, the keys and the uploads into a new directory', () => {
    fs.mkdirSync(path.join(dataDir, 'uploads', 'ab'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'uploads', 'ab', 'file'), 'attachment bytes');
    fs.writeFileSync(path.join(dataDir, 'finance-jwt.key'), 'k'.repeat(64));
    const target = path.join(dataDir, '..', `${path.basename(dataDir)}-backup`);
    try {
      const res = cli('backup', target);
      expect(res.code, res.out).toBe(0);
      expect(fs.readdirSync(target).sort()).toEqual([
        'chat.sqlite',
        'finance-encryption.key',
        'finance-jwt.key',
        'finance.sqlite',
        'uploads',
        'vapid-private.key',
      ]);
      const copy = new SqliteDatabase(path.join(target, 'chat.sqlite'), { readonly: true });
      expect(copy.prepare("select email from users where email = 'ana@acme.test'").all()).toEqual([
        { email: 'ana@acme.test' },
      ]);
      copy.close();
      expect(fs.readFileSync(path.join(target, 'uploads', 'ab', 'file'), 'utf8')).toBe('attachment bytes');
      expect(cli('backup', target).out).toContain('is not empty');
    } finally {
      fs.rmSync(target, { recursive: true, force: true });
    }
  });
});
