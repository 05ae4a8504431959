import pino, { type DestinationStream, type Logger } from 'pino';
import { prettyDestination } from './pretty.js';

/** Headers and fields that carry credentials: never written to the log. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.api_access_token',
  'req.headers["api-access-token"]',
  'req.headers["access-token"]',
  'req.headers["x-setup-token"]',
  'req.headers.cookie',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.token',
  '*.accessToken',
  '*.refreshToken',
  '*.access_token',
  '*.secret',
  '*.api_key',
];

/**
 * Query parameters whose values are credentials: the links in e-mails carry them
 * (`/reset-password?token=`, `/auth/password/edit?reset_password_token=`). Their values are
 * masked in the request lines, which otherwise log the whole URL.
 */
const SECRET_QUERY =
  /([?&](?:token|reset_password_token|invitation_token|access_token|api_access_token|setup_token)=)[^&#]*/gi;

export const redactUrl = (url: string | undefined) => url?.replace(SECRET_QUERY, '$1[redacted]');

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** The request as Fastify's own serializer writes it, with secret query values masked. */
function serializeRequest(req: LoggedRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** The process's logger: both services log through it, credentials redacted. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACT, censor: '[redacted]' }, serializers: { req: serializeRequest } };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * Where the process logs: readable lines (`pretty.ts`) when LOG_FORMAT is `pretty`, or `auto` and
 * stdout is a terminal; otherwise pino's JSON lines on stdout (undefined: pino's own destination).
 */
export function logDestination(
  format: 'auto' | 'json' | 'pretty',
  out: NodeJS.WriteStream = process.stdout,
): DestinationStream | undefined {
  const pretty = format === 'pretty' || (format === 'auto' && out.isTTY === true);
  return pretty ? prettyDestination(out) : undefined;
}
