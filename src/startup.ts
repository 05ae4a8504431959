import type { Config } from './config.js';

/**
 * What a start can meet that is not a bug, said in one line that names the variable to change, as
 * the configuration errors are (server.ts prints it and exits non-zero, without a stack trace): a
 * port taken or shared, a database that cannot be reached, a host that is not this machine's.
 */
export class StartupError extends Error {
  constructor(
    message: string,
    /** The exit code: 2 for a configuration that cannot work, 1 for the world (a port taken, a database down). */
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'StartupError';
  }
}

type Which = 'all' | 'chat' | 'finance';

/** Two services, or metrics, cannot share a port (0 means "any free port", which never clashes). */
export function portClash(config: Config, which: Which): StartupError | null {
  const ports: [string, number][] = [];
  if (which !== 'finance') ports.push(['CHAT_PORT', config.chat.port]);
  if (which !== 'chat') ports.push(['FINANCE_PORT', config.finance.port]);
  if (config.metrics.port !== null) ports.push(['METRICS_PORT', config.metrics.port]);
  for (let i = 0; i < ports.length; i++) {
    for (let j = i + 1; j < ports.length; j++) {
      if (ports[i][1] !== 0 && ports[i][1] === ports[j][1]) {
        return new StartupError(
          `${ports[i][0]} and ${ports[j][0]} are both ${ports[i][1]}: give each its own port ` +
            `(defaults: CHAT_PORT 3000, FINANCE_PORT 3001)`,
          2,
        );
      }
    }
  }
  return null;
}

const codeOf = (err: unknown): string | undefined => {
  // A connection error may come wrapped (a failed migration's cause, an AggregateError of addresses).
  type Wrapped = { code?: unknown; cause?: unknown; errors?: unknown; message?: unknown } | null | undefined;
  for (let e = err as Wrapped, depth = 0; e && depth < 5; e = e.cause as Wrapped, depth++) {
    if (typeof e.code === 'string') return e.code;
    const first = Array.isArray(e.errors) ? (e.errors[0] as Wrapped) : undefined;
    if (typeof first?.code === 'string') return first.code;
    if (typeof e.message === 'string' && /timeout exceeded when trying to connect/i.test(e.message)) return 'ETIMEDOUT';
  }
  return undefined;
};

/** A port the service could not listen on, as one line naming the variable; other errors unchanged. */
export function listenError(err: unknown, variable: string, port: number, host: string): unknown {
  switch (codeOf(err)) {
    case 'EADDRINUSE':
      return new StartupError(
        `${variable}: port ${port} is already in use on ${host} (another program, or Ponte already running): ` +
          `stop it, or set ${variable} to a free port`,
      );
    case 'EACCES':
      return new StartupError(
        `${variable}: port ${port} needs privileges this user does not have: use a port above 1023 ` +
          `(a reverse proxy serves 80 and 443, docs/operations.md)`,
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new StartupError(`HOST: ${host} is not an address of this machine: use 0.0.0.0 (all) or one of its own`);
    default:
      return err;
  }
}

/** Where a database URL points, for a message: never its password. */
function describeTarget(url: string): { host: string; user: string; database: string } {
  try {
    const u = new URL(url);
    return {
      host: `${u.hostname || 'localhost'}:${u.port || '5432'}`,
      user: decodeURIComponent(u.username),
      database: decodeURIComponent(u.pathname.replace(/^\//, '')),
    };
  } catch {
    return { host: 'the configured host', user: '', database: '' };
  }
}

/** A database that could not be opened, as one line naming the variable; other errors unchanged. */
export function databaseError(err: unknown, service: 'CHAT' | 'FINANCE', url: string): unknown {
  const variable = `${service}_DATABASE_URL`;
  const { host, user, database } = describeTarget(url);
  const unreachable = (why: string) =>
    new StartupError(
      `${variable}: cannot reach PostgreSQL at ${host} (${why}): start it, or correct the host and port in ${variable}`,
    );
  switch (codeOf(err)) {
    case 'ECONNREFUSED':
      return unreachable('connection refused');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return unreachable('host name not found');
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return unreachable('no answer');
    case '28P01':
      return new StartupError(
        `${variable}: PostgreSQL at ${host} refused the password of user ${user}: correct ${service}_DATABASE_PASSWORD ` +
          `(or the password in ${variable})`,
      );
    case '28000':
      return new StartupError(
        `${variable}: PostgreSQL at ${host} refused user ${user} (no such role, or pg_hba.conf does not allow it): ` +
          `create the role (createuser ${user} --pwprompt) or correct the user in ${variable}`,
      );
    case '3D000':
      return new StartupError(
        `${variable}: the database ${database} does not exist at ${host}: create it (createdb -O ${user || 'ponte'} ${database}) ` +
          `or correct its name in ${variable}`,
      );
    default:
      return err;
  }
}

/**
 * Warnings a start gives about settings a newcomer should know: e-mails that will not leave, and
 * a finance service that anyone who reaches it may register with.
 */
export function startWarnings(config: Config, which: Which): string[] {
  const warnings: string[] = [];
  if (which !== 'finance' && config.mail.smtpUrl === null)
    warnings.push(
      'SMTP_URL is not set: agent invitations and password resets are not e-mailed ' +
        '(node dist/cli.js chat:reset-password sets a password)',
    );
  if (which !== 'chat' && config.finance.signup === 'open')
    warnings.push(
      'FINANCE_SIGNUP is open: anyone who reaches the finance port can register an account; ' +
        'set FINANCE_SIGNUP=closed for a private installation (members then join by invitation)',
    );
  return warnings;
}

/**
 * What a start says about the platform app token: the new token, printed once and only once the
 * service listens; otherwise, unless PLATFORM_TOKEN sets it, how to get a new one.
 */
export function platformTokenNote(token: string | undefined, config: Config): { print?: string; hint?: string } {
  if (token)
    return {
      print:
        `\nPlatform app token (shown only now; keep it safe):\n  ${token}\n` +
        `Use it as the api_access_token header on /platform/api/v1.\n\n`,
    };
  if (config.chat.platformToken) return {};
  return {
    hint:
      'The platform app token was shown at the first start only. Lost it? ' +
      '`node dist/cli.js chat:rotate-platform-token` prints a new one (the old one stops working)',
  };
}
