import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseConnection } from 'pg-connection-string';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { generateKeyPair, toBase64Url } from './core/push/web-push.crypto.js';

const refused = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
};

describe('configuration', () => {
  it('refuses database URLs of an unknown scheme instead of taking them for a SQLite file name', () => {
    expect(refused({ CHAT_DATABASE_URL: 'mysql://db/ponte' })).toMatch(
      /CHAT_DATABASE_URL: the scheme mysql:\/\/ is not supported; use postgres:\/\//,
    );
    expect(refused({ FINANCE_DATABASE_URL: 'postgress://db/ponte' })).toMatch(
      /FINANCE_DATABASE_URL: the scheme postgress:\/\//,
    );
    for (const url of [
      'postgres://u:p@db:5432/x',
      'postgresql://db/x',
      'sqlite:///var/lib/ponte/chat.sqlite',
      'file:chat.sqlite',
      'sqlite://data/chat.sqlite',
      '/var/lib/ponte/chat.sqlite',
    ]) {
      expect(loadConfig({ CHAT_DATABASE_URL: url }).chat.databaseUrl).toBe(url);
    }
  });

  it('refuses one database for both services, saying each needs its own', () => {
    const url = 'postgres://u:p@db:5432/ponte';
    expect(refused({ CHAT_DATABASE_URL: url, FINANCE_DATABASE_URL: url })).toContain(
      'CHAT_DATABASE_URL and FINANCE_DATABASE_URL name the same database: each service needs its own database (or PostgreSQL schema)',
    );
    expect(loadConfig({ CHAT_DATABASE_URL: url, FINANCE_DATABASE_URL: `${url}_finance` }).finance.databaseUrl).toBe(
      `${url}_finance`,
    );
  });

  it('reads the request, connection and shutdown timeouts, with defaults that let a legal upload through', () => {
    const defaults = loadConfig({});
    expect(defaults.http.requestTimeoutMs).toBe(3_600_000);
    expect(defaults.http.connectionTimeoutMs).toBe(120_000);
    expect(defaults.shutdownTimeoutMs).toBe(8_000);
    // 15 files of 40 MB and the form (604 MB) at 1.5 Mbit/s fit in the request timeout.
    const seconds = (604 * 1024 * 1024 * 8) / 1.5e6;
    expect(seconds * 1000).toBeLessThan(defaults.http.requestTimeoutMs);
    const set = loadConfig({
      REQUEST_TIMEOUT_SECONDS: '7200',
      CONNECTION_TIMEOUT_SECONDS: '30',
      SHUTDOWN_TIMEOUT_SECONDS: '2.5',
    });
    expect([set.http.requestTimeoutMs, set.http.connectionTimeoutMs, set.shutdownTimeoutMs]).toEqual([
      7_200_000, 30_000, 2_500,
    ]);
    expect(refused({ SHUTDOWN_TIMEOUT_SECONDS: '0' })).toContain(
      'SHUTDOWN_TIMEOUT_SECONDS: must be a number of seconds from 0.5 to 3600 (got 0)',
    );
    expect(refused({ REQUEST_TIMEOUT_SECONDS: 'soon' })).toContain(
      'REQUEST_TIMEOUT_SECONDS: must be a number of seconds from 10 to 86400',
    );
    expect(refused({ CONNECTION_TIMEOUT_SECONDS: '1' })).toContain(
      'CONNECTION_TIMEOUT_SECONDS: must be a number of seconds from 5 to 86400',
    );
  });

  it('refuses a value without a scheme unless it is an absolute path, naming an old file it would leave behind', () => {
    for (const url of ['garbage', './data/chat.sqlite', 'chat.sqlite', 'db/ponte'])
      expect(refused({ CHAT_DATABASE_URL: url })).toContain(
        `CHAT_DATABASE_URL: ${JSON.stringify(url)} names no database; use postgres://user@host:5432/db, sqlite://path/to/file.sqlite (relative to the working directory)`,
      );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-config-'));
    const cwd = process.cwd();
    try {
      process.chdir(dir);
      fs.writeFileSync('old-chat.sqlite', '');
      expect(refused({ CHAT_DATABASE_URL: 'old-chat.sqlite' })).toContain(
        `(the file ${path.join(fs.realpathSync(dir), 'old-chat.sqlite')} exists: sqlite://old-chat.sqlite keeps using it)`,
      );
    } finally {
      process.chdir(cwd);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes a PostgreSQL password apart from the URL, so @, /, : and % need no encoding', () => {
    const password = 'p@ss/w:rd%40 é';
    const config = loadConfig({
      CHAT_DATABASE_URL: 'postgres://ponte@db:5432/ponte_chat',
      CHAT_DATABASE_PASSWORD: password,
      FINANCE_DATABASE_URL: 'postgresql://ponte@db/ponte_finance?sslmode=disable',
      FINANCE_DATABASE_PASSWORD: password,
    });
    // The PostgreSQL client reads the URL back into the same parts.
    expect(parseConnection(config.chat.databaseUrl)).toMatchObject({
      user: 'ponte',
      password,
      host: 'db',
      port: '5432',
      database: 'ponte_chat',
    });
    expect(parseConnection(config.finance.databaseUrl)).toMatchObject({
      user: 'ponte',
      password,
      database: 'ponte_finance',
    });
    expect(refused({ CHAT_DATABASE_URL: 'postgres://ponte:inline@db/x', CHAT_DATABASE_PASSWORD: 'other' })).toContain(
      'CHAT_DATABASE_URL: carries a password and CHAT_DATABASE_PASSWORD is set too',
    );
    expect(refused({ CHAT_DATABASE_PASSWORD: 'x' })).toContain('CHAT_DATABASE_PASSWORD is for a PostgreSQL URL');
    expect(refused({ FINANCE_DATABASE_URL: 'postgres://db/x', FINANCE_DATABASE_PASSWORD: 'x' })).toContain(
      'FINANCE_DATABASE_PASSWORD needs a user name in the URL',
    );
  });

  it('reads PG_PREPARED_STATEMENTS: on unless set to off', () => {
    expect(loadConfig({}).preparedStatements).toBe(true);
    expect(loadConfig({ PG_PREPARED_STATEMENTS: 'off' }).preparedStatements).toBe(false);
    expect(refused({ PG_PREPARED_STATEMENTS: 'no' })).toContain('PG_PREPARED_STATEMENTS: must be one of: on, off');
  });

  it('refuses a PUBLIC_URL without a scheme, and says what is expected', () => {
    expect(refused({ PUBLIC_URL: 'chat.example.com' })).toBe(
      'Invalid configuration: PUBLIC_URL: must be an http:// or https:// URL, e.g. https://chat.example.com (got "chat.example.com")',
    );
    expect(loadConfig({ PUBLIC_URL: 'https://chat.example.com/' }).chat.publicUrl).toBe('https://chat.example.com');
  });

  it('lists the allowed values instead of a schema error, one line per variable', () => {
    const message = refused({ LOG_LEVEL: 'loud', CHAT_PORT: 'http', FINANCE_SIGNUP: 'maybe' });
    expect(message).toContain('LOG_LEVEL: must be one of: fatal, error, warn, info, debug, trace, silent (got "loud")');
    expect(message).toContain('CHAT_PORT: must be a port number from 0 to 65535 (got "http")');
    expect(message).toContain('FINANCE_SIGNUP: must be one of: open, closed');
    expect(message).not.toMatch(/Expected union|must match pattern/);
  });

  it('reads TRUST_PROXY, CORS_ORIGINS and the metrics settings', () => {
    expect(loadConfig({}).http).toMatchObject({ corsOrigins: [], trustProxy: false });
    expect(loadConfig({ TRUST_PROXY: 'true' }).http.trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).http.trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }).http.trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8']);
    expect(refused({ TRUST_PROXY: 'nginx' })).toMatch(/TRUST_PROXY: nginx is not valid/);
    expect(loadConfig({ CORS_ORIGINS: 'https://a.test, https://b.test' }).http.corsOrigins).toEqual([
      'https://a.test',
      'https://b.test',
    ]);
    expect(loadConfig({}).metrics).toEqual({ enabled: false, port: null });
    expect(loadConfig({ METRICS: 'on' }).metrics).toEqual({ enabled: true, port: null });
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ enabled: true, port: 9464 });
  });

  it('reads the VAPID pair (both or neither, matching) and its contact', () => {
    const { privateKey, publicKey } = generateKeyPair();
    const pair = { VAPID_PUBLIC_KEY: toBase64Url(publicKey), VAPID_PRIVATE_KEY: toBase64Url(privateKey) };
    expect(loadConfig({}).push).toMatchObject({
      vapid: null,
      vapidSubject: 'mailto:no-reply@localhost',
      firebase: null,
    });
    expect(loadConfig(pair).push.vapid).toEqual({
      publicKey: pair.VAPID_PUBLIC_KEY,
      privateKey: pair.VAPID_PRIVATE_KEY,
    });
    expect(refused({ VAPID_PUBLIC_KEY: pair.VAPID_PUBLIC_KEY })).toContain(
      'VAPID_PRIVATE_KEY: set both VAPID keys or neither',
    );
    expect(refused({ ...pair, VAPID_PUBLIC_KEY: toBase64Url(generateKeyPair().publicKey) })).toContain(
      'VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY',
    );
    expect(refused({ ...pair, VAPID_PRIVATE_KEY: 'c2hvcnQ' })).toContain(
      'VAPID_PRIVATE_KEY must be a P-256 private key',
    );
    expect(refused({ ...pair, VAPID_PRIVATE_KEY: 'not base64!' })).toContain('VAPID_PRIVATE_KEY: must be a P-256');

    expect(loadConfig({ PUBLIC_URL: 'https://chat.example.com' }).push.vapidSubject).toBe('https://chat.example.com');
    expect(loadConfig({ MAIL_FROM: 'Support <help@example.com>' }).push.vapidSubject).toBe('mailto:help@example.com');
    expect(loadConfig({ VAPID_SUBJECT: 'mailto:ops@example.com' }).push.vapidSubject).toBe('mailto:ops@example.com');
    expect(refused({ VAPID_SUBJECT: 'ops@example.com' })).toContain(
      'VAPID_SUBJECT: must be a mailto: or https: contact',
    );
  });

  it('reads the Firebase service account from FIREBASE_CREDENTIALS or a file, and says what is wrong with it', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const account = {
      type: 'service_account',
      project_id: 'ponte-push',
      private_key_id: 'k1',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: 'push@ponte-push.iam.gserviceaccount.com',
    };
    const json = JSON.stringify(account);
    expect(loadConfig({ FIREBASE_CREDENTIALS: json }).push.firebase).toEqual({
      projectId: 'ponte-push',
      clientEmail: account.client_email,
      privateKey: account.private_key,
      privateKeyId: 'k1',
      tokenUri: 'https://oauth2.googleapis.com/token',
    });
    expect(
      loadConfig({ FIREBASE_CREDENTIALS: json, FIREBASE_PROJECT_ID: 'other-project' }).push.firebase?.projectId,
    ).toBe('other-project');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-config-'));
    try {
      const file = path.join(dir, 'firebase.json');
      fs.writeFileSync(file, json);
      expect(loadConfig({ FIREBASE_CREDENTIALS_FILE: file }).push.firebase?.clientEmail).toBe(account.client_email);
      expect(refused({ FIREBASE_CREDENTIALS_FILE: path.join(dir, 'missing.json') })).toContain(
        `FIREBASE_CREDENTIALS_FILE: cannot read ${path.join(dir, 'missing.json')} (ENOENT)`,
      );
      expect(refused({ FIREBASE_CREDENTIALS_FILE: file, FIREBASE_CREDENTIALS: json })).toContain('not both');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(refused({ FIREBASE_CREDENTIALS: '{"type":' })).toContain('FIREBASE_CREDENTIALS: is not JSON');
    expect(refused({ FIREBASE_CREDENTIALS: JSON.stringify({ ...account, client_email: undefined }) })).toContain(
      'FIREBASE_CREDENTIALS: lacks client_email',
    );
    expect(refused({ FIREBASE_CREDENTIALS: JSON.stringify({ ...account, private_key: 'nope' }) })).toContain(
      'not a PEM private key',
    );
    expect(loadConfig({}).push.fcmBaseUrl).toBe('https://fcm.googleapis.com');
    expect(loadConfig({ FCM_BASE_URL: 'http://127.0.0.1:9099/' }).push.fcmBaseUrl).toBe('http://127.0.0.1:9099');
  });
});
