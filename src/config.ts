import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/** The values FINANCE_SIGNUP accepts (an invalid value is refused with this list). */
const SIGNUP_MODES = ['open', 'closed'] as const;

/**
 * Every setting the process reads from its environment, parsed once at start.
 * Anything not listed here is not configuration. The README lists the same
 * variables with their defaults.
 */
const EnvSchema = Type.Object({
  CHAT_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  FINANCE_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3001 }),
  HOST: Type.String({ default: '0.0.0.0' }),
  DATA_DIR: Type.String({ default: './data' }),
  CHAT_DATABASE_URL: Type.Optional(Type.String({ minLength: 1 })),
  FINANCE_DATABASE_URL: Type.Optional(Type.String({ minLength: 1 })),
  FINANCE_JWT_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  FINANCE_ENCRYPTION_KEY: Type.Optional(Type.String({ minLength: 32 })),
  FINANCE_SETUP_TOKEN: Type.Optional(Type.String({ minLength: 12 })),
  FINANCE_PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  FINANCE_SIGNUP: Type.Union(
    SIGNUP_MODES.map((m) => Type.Literal(m)),
    { default: 'open', errorMessage: `must be one of: ${SIGNUP_MODES.join(', ')}` },
  ),
  PLATFORM_TOKEN: Type.Optional(Type.String({ minLength: 16 })),
  PUBLIC_URL: Type.Optional(Type.String({ minLength: 1 })),
  WEBHOOK_ALLOWED_HOSTS: Type.String({ default: '' }),
  WEBHOOK_RETRY_DELAYS: Type.String({
    default: '10,60,300',
    pattern: '^\\s*\\d+(\\.\\d+)?(\\s*,\\s*\\d+(\\.\\d+)?)*\\s*$',
  }),
  WEBHOOK_LEASE_SECONDS: Type.Number({ minimum: 11, maximum: 3600, default: 30 }),
  HISTORY_RETENTION_DAYS: Type.Integer({ minimum: 0, maximum: 36500, default: 30 }),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  MAIL_FROM: Type.String({ minLength: 3, maxLength: 320, default: 'Ponte <no-reply@localhost>' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
});

type Env = Static<typeof EnvSchema>;

export interface Config {
  /** How long dispatched events, ended webhook deliveries and ended e-mails are kept (ms; 0: forever). */
  readonly historyRetentionMs: number;
  readonly chat: {
    readonly port: number;
    readonly databaseUrl: string;
    /** Base URL used in links the service hands out (attachment URLs, SSO links). */
    readonly publicUrl: string;
    readonly platformToken?: string;
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
  readonly host: string;
  readonly dataDir: string;
  readonly logLevel: Env['LOG_LEVEL'];
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
    const problems = [...Value.Errors(EnvSchema, withDefaults)].map(
      (e) => `${e.path.slice(1)}: ${(e.schema as { errorMessage?: string }).errorMessage ?? e.message}`,
    );
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const parsed = withDefaults as Env;
  const dataDir = path.resolve(parsed.DATA_DIR);
  const chatPort = parsed.CHAT_PORT;
  return Object.freeze({
    chat: Object.freeze({
      port: chatPort,
      databaseUrl: parsed.CHAT_DATABASE_URL ?? `sqlite://${path.join(dataDir, 'chat.sqlite')}`,
      publicUrl: (parsed.PUBLIC_URL ?? `http://localhost:${chatPort}`).replace(/\/+$/, ''),
      platformToken: parsed.PLATFORM_TOKEN,
    }),
    finance: Object.freeze({
      port: parsed.FINANCE_PORT,
      databaseUrl: parsed.FINANCE_DATABASE_URL ?? `sqlite://${path.join(dataDir, 'finance.sqlite')}`,
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
    historyRetentionMs: parsed.HISTORY_RETENTION_DAYS * 86_400_000,
    host: parsed.HOST,
    dataDir,
    logLevel: parsed.LOG_LEVEL,
  });
}
