import fs from 'node:fs';
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import {
  DEFAULT_FCM_BASE_URL,
  parseServiceAccount,
  vapidKeysProblem,
  type PushSettings,
  type ServiceAccount,
} from './core/push/push.config.js';

/** The values FINANCE_SIGNUP accepts (an invalid value is refused with this list). */
const SIGNUP_MODES = ['open', 'closed'] as const;
/** The plans of a conversation-service account: `enterprise` adds SLAs (the spec's gate). */
export const ACCOUNT_PLANS = ['community', 'enterprise'] as const;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * The longest a client may take to send a whole request, headers and body (REQUEST_TIMEOUT_SECONDS):
 * the largest legal upload, 15 files of 40 MB and the form (604 MB), passes in an hour over a link
 * of 1.5 Mbit/s. A request still arriving then is cut off.
 */
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 3600;
/**
 * How long a connection may stay silent both ways (CONNECTION_TIMEOUT_SECONDS): a stalled upload, a
 * client that stopped reading, a handler that wrote nothing for this long. A slow but moving upload
 * is not silent.
 */
export const DEFAULT_CONNECTION_TIMEOUT_SECONDS = 120;
/**
 * How long a SIGTERM or SIGINT lets work in flight finish before the process exits 0
 * (SHUTDOWN_TIMEOUT_SECONDS): below Docker's 10 s before its SIGKILL.
 */
export const DEFAULT_SHUTDOWN_TIMEOUT_SECONDS = 8;

const oneOf = <T extends string>(values: readonly T[], fallback: T) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { default: fallback, errorMessage: `must be one of: ${values.join(', ')}` },
  );
const port = (fallback: number) =>
  Type.Integer({
    minimum: 0,
    maximum: 65535,
    default: fallback,
    errorMessage: 'must be a port number from 0 to 65535',
  });
const httpUrl = () =>
  Type.String({
    pattern: '^https?://[^\\s/]+',
    errorMessage: 'must be an http:// or https:// URL, e.g. https://chat.example.com',
  });
const base64url = (what: string) =>
  Type.String({ pattern: '^[A-Za-z0-9_-]+=*$', errorMessage: `must be ${what}, base64url` });
const secret = (min: number) =>
  Type.String({ minLength: min, errorMessage: `must be at least ${min} characters long` });

/**
 * Every setting the process reads from its environment, parsed once at start.
 * Anything not listed here is not configuration. docs/configuration.md lists the same
 * variables with their defaults. Each says in its error message what it accepts.
 */
const EnvSchema = Type.Object({
  CHAT_PORT: port(3000),
  FINANCE_PORT: port(3001),
  HOST: Type.String({ default: '0.0.0.0' }),
  DATA_DIR: Type.String({ default: './data' }),
  CHAT_DATABASE_URL: Type.Optional(Type.String({ minLength: 1 })),
  FINANCE_DATABASE_URL: Type.Optional(Type.String({ minLength: 1 })),
  CHAT_DATABASE_PASSWORD: Type.Optional(Type.String({ minLength: 1 })),
  FINANCE_DATABASE_PASSWORD: Type.Optional(Type.String({ minLength: 1 })),
  PG_PREPARED_STATEMENTS: oneOf(['on', 'off'] as const, 'on'),
  FINANCE_JWT_SECRET: Type.Optional(secret(32)),
  FINANCE_ENCRYPTION_KEY: Type.Optional(secret(32)),
  FINANCE_SETUP_TOKEN: Type.Optional(secret(12)),
  FINANCE_PUBLIC_URL: Type.Optional(httpUrl()),
  FINANCE_SIGNUP: oneOf(SIGNUP_MODES, 'open'),
  DEFAULT_ACCOUNT_PLAN: oneOf(ACCOUNT_PLANS, 'community'),
  PLATFORM_TOKEN: Type.Optional(secret(16)),
  PUBLIC_URL: Type.Optional(httpUrl()),
  CHAT_ENCRYPTION_KEY: Type.Optional(secret(32)),
  INTEGRATIONS_TIMEOUT_SECONDS: Type.Number({
    minimum: 0.05,
    maximum: 600,
    default: 30,
    errorMessage: 'must be a number of seconds from 0.05 to 600',
  }),
  REQUEST_TIMEOUT_SECONDS: Type.Number({
    minimum: 10,
    maximum: 86400,
    default: DEFAULT_REQUEST_TIMEOUT_SECONDS,
    errorMessage: 'must be a number of seconds from 10 to 86400',
  }),
  CONNECTION_TIMEOUT_SECONDS: Type.Number({
    minimum: 5,
    maximum: 86400,
    default: DEFAULT_CONNECTION_TIMEOUT_SECONDS,
    errorMessage: 'must be a number of seconds from 5 to 86400',
  }),
  SHUTDOWN_TIMEOUT_SECONDS: Type.Number({
    minimum: 0.5,
    maximum: 3600,
    default: DEFAULT_SHUTDOWN_TIMEOUT_SECONDS,
    errorMessage: 'must be a number of seconds from 0.5 to 3600',
  }),
  WEBHOOK_ALLOWED_HOSTS: Type.String({ default: '' }),
  WEBHOOK_RETRY_DELAYS: Type.String({
    default: '10,60,300',
    pattern: '^\\s*\\d+(\\.\\d+)?(\\s*,\\s*\\d+(\\.\\d+)?)*\\s*$',
    errorMessage: 'must be seconds separated by commas, e.g. 10,60,300',
  }),
  WEBHOOK_LEASE_SECONDS: Type.Number({
    minimum: 11,
    maximum: 3600,
    default: 30,
    errorMessage: 'must be a number of seconds from 11 to 3600',
  }),
  HISTORY_RETENTION_DAYS: Type.Integer({
    minimum: 0,
    maximum: 36500,
    default: 30,
    errorMessage: 'must be a whole number of days from 0 (keep forever) to 36500',
  }),
  SMTP_URL: Type.Optional(
    Type.String({
      pattern: '^smtps?://',
      errorMessage: 'must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@mail.example.com:587',
    }),
  ),
  MAIL_FROM: Type.String({ minLength: 3, maxLength: 320, default: 'Ponte <no-reply@localhost>' }),
  VAPID_PUBLIC_KEY: Type.Optional(base64url('a P-256 public key (65 bytes)')),
  VAPID_PRIVATE_KEY: Type.Optional(base64url('a P-256 private key (32 bytes)')),
  VAPID_SUBJECT: Type.Optional(
    Type.String({
      pattern: '^(mailto:[^\\s@]+@[^\\s@]+|https://[^\\s/]+\\S*)$',
      errorMessage: 'must be a mailto: or https: contact, e.g. mailto:ops@example.com',
    }),
  ),
  FIREBASE_CREDENTIALS: Type.Optional(Type.String()),
  FIREBASE_CREDENTIALS_FILE: Type.Optional(Type.String()),
  FIREBASE_PROJECT_ID: Type.Optional(
    Type.String({ pattern: '^[a-z][a-z0-9-]{3,62}$', errorMessage: 'must be a Firebase project id' }),
  ),
  FCM_BASE_URL: Type.Optional(httpUrl()),
  LOG_LEVEL: oneOf(LOG_LEVELS, 'info'),
  LOG_FORMAT: oneOf(['auto', 'json', 'pretty'] as const, 'auto'),
  CORS_ORIGINS: Type.String({ default: '' }),
  TRUST_PROXY: Type.String({ default: 'false' }),
  METRICS: oneOf(['off', 'on'] as const, 'off'),
  METRICS_PORT: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 65535, errorMessage: 'must be a port number from 1 to 65535' }),
  ),
});

type Env = Static<typeof EnvSchema>;

/** The names of every setting (docs/configuration.md lists them; deployment files use only these). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(EnvSchema.properties);

export interface Config {
  /** How long dispatched events, ended webhook deliveries and ended e-mails are kept (ms; 0: forever). */
  readonly historyRetentionMs: number;
  /** PostgreSQL: run statements outside transactions as named (prepared) statements (core/db/pg-statements.ts). */
  readonly preparedStatements: boolean;
  readonly chat: {
    readonly port: number;
    readonly databaseUrl: string;
    /** Base URL used in links the service hands out (attachment URLs, SSO links). */
    readonly publicUrl: string;
    readonly platformToken?: string;
    /** The plan of a new account when its creator names none (DEFAULT_ACCOUNT_PLAN). */
    readonly defaultAccountPlan: Env['DEFAULT_ACCOUNT_PLAN'];
    /** Encrypts secrets at rest (integration API keys); null: generated once in DATA_DIR/chat-encryption.key. */
    readonly encryptionKey: string | null;
  };
  readonly integrations: {
    /** How long a call to an integration's endpoint (an OpenAI-compatible API) may take, in ms. */
    readonly timeoutMs: number;
  };
  readonly finance: {
    readonly port: number;
    readonly databaseUrl: string;
    /** Signs access tokens; null: generated once and kept in DATA_DIR/finance-jwt.key. */
    readonly jwtSecret: string | null;
    /** Encrypts secrets at rest (SMTP passwords); null: generated once in DATA_DIR/finance-encryption.key. */
    readonly encryptionKey: string | null;
    /** When set, the first-user setup must present it. */
    readonly setupToken: string | null;
    /** Base of links in e-mails (password reset, invitations). */
    readonly publicUrl: string;
    /** `closed`: POST /api/auth/register is refused (403 signup_closed); users join by invitation. */
    readonly signup: Env['FINANCE_SIGNUP'];
  };
  readonly webhooks: {
    /** Host names, addresses or CIDR ranges webhooks may reach although they are not public. */
    readonly allowedHosts: readonly string[];
    /** Delay before each retry (ms); its length is the number of retries. */
    readonly retryDelaysMs: readonly number[];
    /** How long a claimed delivery stays with its worker before another may take it over (ms). */
    readonly leaseMs: number;
  };
  readonly mail: {
    /** SMTP connection URL (`smtp://user:pass@host:587`, `smtps://...:465`); null: e-mails are not sent. */
    readonly smtpUrl: string | null;
    /** The From header of outgoing e-mails. */
    readonly from: string;
  };
  /** Web Push (VAPID) and FCM (a Firebase service account): core/push. */
  readonly push: Readonly<PushSettings>;
  readonly host: string;
  readonly dataDir: string;
  readonly logLevel: Env['LOG_LEVEL'];
  /** `auto`: readable lines on a terminal, JSON lines otherwise; `json` or `pretty` always. */
  readonly logFormat: Env['LOG_FORMAT'];
  readonly http: {
    /** Origins allowed to call the non-public routes from a browser ('*' for any); /public/api/* allows any. */
    readonly corsOrigins: readonly string[];
    /** Fastify's trustProxy: false, true, a number of hops, or addresses/CIDR ranges of the proxies. */
    readonly trustProxy: boolean | number | readonly string[];
    /** The longest a client may take to send a whole request (ms; DEFAULT_REQUEST_TIMEOUT_SECONDS). */
    readonly requestTimeoutMs: number;
    /** How long a connection may stay silent both ways before it is closed (ms). */
    readonly connectionTimeoutMs: number;
  };
  /** How long a SIGTERM lets work in flight finish before the process exits (ms). */
  readonly shutdownTimeoutMs: number;
  readonly metrics: {
    readonly enabled: boolean;
    /** When set, /metrics is served on this port (both services) instead of each service's port. */
    readonly port: number | null;
  };
}

export class ConfigError extends Error {}

/** Builds the frozen configuration from an environment object (process.env in production). */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const withDefaults = Value.Default(EnvSchema, Value.Convert(EnvSchema, raw));
  if (!Value.Check(EnvSchema, withDefaults)) {
    // A schema may state its own `errorMessage` (FINANCE_SIGNUP lists its allowed values).
    // Each variable's own `errorMessage` says what it accepts; one line per variable.
    const seen = new Set<string>();
    const problems: string[] = [];
    for (const e of Value.Errors(EnvSchema, withDefaults)) {
      const name = e.path.slice(1).split('/')[0];
      if (seen.has(name)) continue;
      seen.add(name);
      const schema = (EnvSchema.properties as Record<string, { errorMessage?: string }>)[name];
      problems.push(`${name}: ${schema?.errorMessage ?? e.message} (got ${JSON.stringify(raw[name] ?? '')})`);
    }
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const parsed = withDefaults as Env;
  const dataDir = path.resolve(parsed.DATA_DIR);
  const chatDb = databaseUrl('CHAT', parsed.CHAT_DATABASE_URL, parsed.CHAT_DATABASE_PASSWORD, dataDir, 'chat');
  const financeDb = databaseUrl(
    'FINANCE',
    parsed.FINANCE_DATABASE_URL,
    parsed.FINANCE_DATABASE_PASSWORD,
    dataDir,
    'finance',
  );
  const problems = [
    chatDb.problem,
    financeDb.problem,
    trustProxyProblem(parsed.TRUST_PROXY),
    sharedDatabaseProblem(parsed.CHAT_DATABASE_URL, parsed.FINANCE_DATABASE_URL),
    vapidProblem(parsed),
  ].filter((p): p is string => p !== null);
  const firebase = firebaseOf(parsed, problems);
  if (problems.length > 0) throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  const chatPort = parsed.CHAT_PORT;
  const publicUrl = (parsed.PUBLIC_URL ?? `http://localhost:${chatPort}`).replace(/\/+$/, '');
  return Object.freeze({
    chat: Object.freeze({
      port: chatPort,
      databaseUrl: chatDb.url,
      publicUrl,
      platformToken: parsed.PLATFORM_TOKEN,
      defaultAccountPlan: parsed.DEFAULT_ACCOUNT_PLAN,
      encryptionKey: parsed.CHAT_ENCRYPTION_KEY ?? null,
    }),
    integrations: Object.freeze({ timeoutMs: Math.round(parsed.INTEGRATIONS_TIMEOUT_SECONDS * 1000) }),
    finance: Object.freeze({
      port: parsed.FINANCE_PORT,
      databaseUrl: financeDb.url,
      jwtSecret: parsed.FINANCE_JWT_SECRET ?? null,
      encryptionKey: parsed.FINANCE_ENCRYPTION_KEY ?? null,
      setupToken: parsed.FINANCE_SETUP_TOKEN ?? null,
      publicUrl: (parsed.FINANCE_PUBLIC_URL ?? `http://localhost:${parsed.FINANCE_PORT}`).replace(/\/+$/, ''),
      signup: parsed.FINANCE_SIGNUP,
    }),
    webhooks: Object.freeze({
      allowedHosts: Object.freeze(
        parsed.WEBHOOK_ALLOWED_HOSTS.split(',')
          .map((h) => h.trim())
          .filter(Boolean),
      ),
      retryDelaysMs: Object.freeze(
        parsed.WEBHOOK_RETRY_DELAYS.split(',').map((d) => Math.round(Number(d.trim()) * 1000)),
      ),
      leaseMs: Math.round(parsed.WEBHOOK_LEASE_SECONDS * 1000),
    }),
    mail: Object.freeze({ smtpUrl: parsed.SMTP_URL ?? null, from: parsed.MAIL_FROM }),
    push: Object.freeze({
      vapid:
        parsed.VAPID_PUBLIC_KEY && parsed.VAPID_PRIVATE_KEY
          ? Object.freeze({ publicKey: parsed.VAPID_PUBLIC_KEY, privateKey: parsed.VAPID_PRIVATE_KEY })
          : null,
      vapidSubject: parsed.VAPID_SUBJECT ?? defaultVapidSubject(publicUrl, parsed.MAIL_FROM),
      firebase,
      fcmBaseUrl: (parsed.FCM_BASE_URL ?? DEFAULT_FCM_BASE_URL).replace(/\/+$/, ''),
    }),
    historyRetentionMs: parsed.HISTORY_RETENTION_DAYS * 86_400_000,
    preparedStatements: parsed.PG_PREPARED_STATEMENTS === 'on',
    host: parsed.HOST,
    dataDir,
    logLevel: parsed.LOG_LEVEL,
    logFormat: parsed.LOG_FORMAT,
    http: Object.freeze({
      corsOrigins: Object.freeze(list(parsed.CORS_ORIGINS)),
      trustProxy: trustProxyOf(parsed.TRUST_PROXY),
      requestTimeoutMs: Math.round(parsed.REQUEST_TIMEOUT_SECONDS * 1000),
      connectionTimeoutMs: Math.round(parsed.CONNECTION_TIMEOUT_SECONDS * 1000),
    }),
    shutdownTimeoutMs: Math.round(parsed.SHUTDOWN_TIMEOUT_SECONDS * 1000),
    metrics: Object.freeze({
      enabled: parsed.METRICS === 'on' || parsed.METRICS_PORT !== undefined,
      port: parsed.METRICS_PORT ?? null,
    }),
  });
}

const list = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/**
 * A service's database: its URL (default: a SQLite file in DATA_DIR) with the password variable
 * folded in, or the problem with them. A URL names its engine: `postgres://` or `postgresql://`
 * for PostgreSQL; `sqlite://path` or `file:path` for SQLite, a relative path there being relative
 * to the working directory; or an absolute file path. Anything else (`mysql://`, a typo such as
 * `postgress://`, a bare word) is refused rather than taken for a file name: a bare relative value
 * used to create a SQLite file in the working directory, and the refusal names that file when it
 * exists so that its data is not left behind. `<SERVICE>_DATABASE_PASSWORD` is the password of a
 * PostgreSQL URL given apart, so that `@`, `/`, `:` and `%` need no percent-encoding.
 */
function databaseUrl(
  service: 'CHAT' | 'FINANCE',
  given: string | undefined,
  password: string | undefined,
  dataDir: string,
  file: string,
): { url: string; problem: string | null } {
  const name = `${service}_DATABASE_URL`;
  const url = given ?? `sqlite://${path.join(dataDir, `${file}.sqlite`)}`;
  const refuse = (problem: string) => ({ url, problem: `${name}: ${problem}` });
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined || (scheme.length === 1 && /^[a-z]:[\\/]/i.test(url))) {
    if (!path.isAbsolute(url)) {
      const left = fs.existsSync(url) ? ` (the file ${path.resolve(url)} exists: sqlite://${url} keeps using it)` : '';
      return refuse(
        `${JSON.stringify(url)} names no database${left}; use postgres://user@host:5432/db, ` +
          `sqlite://path/to/file.sqlite (relative to the working directory), sqlite:///absolute/path.sqlite or an absolute file path`,
      );
    }
  } else if (!['postgres', 'postgresql', 'sqlite', 'file'].includes(scheme)) {
    return refuse(
      `the scheme ${scheme}:// is not supported; use postgres://user:pass@host:5432/db, sqlite://path/to/file.sqlite or an absolute file path`,
    );
  }
  if (password === undefined) return { url, problem: null };
  if (scheme !== 'postgres' && scheme !== 'postgresql')
    return refuse(`${service}_DATABASE_PASSWORD is for a PostgreSQL URL; SQLite has no password`);
  const parsed = new URL(url);
  if (parsed.password !== '')
    return refuse(`carries a password and ${service}_DATABASE_PASSWORD is set too: keep one of them`);
  // Written into the URL percent-encoded, so the PostgreSQL client reads it back as it was given.
  const at = url.indexOf('@', url.indexOf('//') + 2);
  if (at < 0) return refuse(`${service}_DATABASE_PASSWORD needs a user name in the URL (postgres://user@host/db)`);
  return { url: `${url.slice(0, at)}:${encodeURIComponent(password)}${url.slice(at)}`, problem: null };
}

/** The two services keep different tables under the same names: one database (or schema) each. */
function sharedDatabaseProblem(chat: string | undefined, finance: string | undefined): string | null {
  if (chat === undefined || chat !== finance) return null;
  return 'CHAT_DATABASE_URL and FINANCE_DATABASE_URL name the same database: each service needs its own database (or PostgreSQL schema), e.g. postgres://db/ponte_chat and postgres://db/ponte_finance';
}

function trustProxyProblem(value: string): string | null {
  const v = value.trim().toLowerCase();
  if (['true', 'false', ''].includes(v) || /^\d+$/.test(v)) return null;
  const bad = list(value).filter(
    (item) => !/^[0-9a-f:.]+(\/\d{1,3})?$/i.test(item) && !['loopback', 'linklocal', 'uniquelocal'].includes(item),
  );
  return bad.length === 0
    ? null
    : `TRUST_PROXY: ${bad.join(', ')} is not valid; use true, false, a number of proxy hops, or addresses/CIDR ranges of your proxies (e.g. 127.0.0.1,10.0.0.0/8)`;
}

/** Both VAPID keys or neither, and a matching pair. */
function vapidProblem(env: Env): string | null {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey } = env;
  if (!publicKey && !privateKey) return null;
  if (!publicKey || !privateKey)
    return `${publicKey ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY'}: set both VAPID keys or neither (then a pair is generated into DATA_DIR)`;
  return vapidKeysProblem({ publicKey, privateKey });
}

/**
 * The Firebase service account from FIREBASE_CREDENTIALS (the key file's JSON) or
 * FIREBASE_CREDENTIALS_FILE (its path), read and checked now; null when neither is set.
 */
function firebaseOf(env: Env, problems: string[]): ServiceAccount | null {
  const { FIREBASE_CREDENTIALS: json, FIREBASE_CREDENTIALS_FILE: file } = env;
  if (json && file) {
    problems.push('FIREBASE_CREDENTIALS_FILE: set FIREBASE_CREDENTIALS or FIREBASE_CREDENTIALS_FILE, not both');
    return null;
  }
  if (!json && !file) return null;
  const name = json ? 'FIREBASE_CREDENTIALS' : 'FIREBASE_CREDENTIALS_FILE';
  let text = json;
  if (file) {
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      problems.push(`${name}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
      return null;
    }
  }
  try {
    return Object.freeze(parseServiceAccount(text!, env.FIREBASE_PROJECT_ID));
  } catch (err) {
    problems.push(`${name}: ${file ? `${file} ` : ''}${(err as Error).message}`);
    return null;
  }
}

/** The VAPID contact when none is set: the public https address, else the sender of e-mails. */
function defaultVapidSubject(publicUrl: string, mailFrom: string): string {
  if (publicUrl.startsWith('https://')) return publicUrl;
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  return `mailto:${address}`;
}

function trustProxyOf(value: string): boolean | number | readonly string[] {
  const v = value.trim().toLowerCase();
  if (v === 'true') return true;
  if (v === 'false' || v === '') return false;
  if (/^\d+$/.test(v)) return Number(v);
  return Object.freeze(list(value));
}
