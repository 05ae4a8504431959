import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';

/**
 * A bounded shutdown (decisions/0034). `closeWithin(app, deadline)` closes a service so that it is
 * over by the deadline, whatever its clients do:
 *
 * - the listening socket closes at once; idle keep-alive connections are closed at once and as
 *   they become idle (Node's `server.close()` closes those idle at that moment only, and Fastify
 *   closes none without a `serverFactory`), and every answer from then on says `Connection: close`;
 * - a request that arrives on an open connection is answered 503 `shutting_down`, with
 *   `Retry-After`, in the service's error body;
 * - requests in flight get until the deadline; then their sockets are closed, a body still
 *   arriving (a client sending 1 byte a second) included;
 * - the background stops claiming at once and gets until the deadline for what it holds; what is
 *   still running then is left to its leases (`shutdownDeadlineOf`).
 *
 * `app.close()` alone still waits for everything, as tests expect.
 */

/** How long a client refused during a shutdown is asked to wait (a restart, or another instance). */
export const SHUTDOWN_RETRY_AFTER_SECONDS = 5;

const deadlines = new WeakMap<FastifyInstance, number>();
const closing = new WeakSet<FastifyInstance>();

/** When the app's shutdown must be over (epoch ms); undefined when it is closed without a bound. */
export const shutdownDeadlineOf = (app: FastifyInstance): number | undefined => deadlines.get(app);

export const shuttingDown = () =>
  new HttpError(503, 'shutting_down', 'The server is shutting down; send the request again in a moment', undefined, {
    'retry-after': String(SHUTDOWN_RETRY_AFTER_SECONDS),
    connection: 'close',
  });

/**
 * Installs what a shutdown needs on a service (app-base.ts): the refusal of new requests, the
 * `Connection: close` of answers in flight, and the reaping of connections that become idle.
 * Register it after the CORS hook, so that browsers can read the refusal.
 */
export function installShutdownHooks(app: FastifyInstance): void {
  let reaper: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    closing.add(app);
    reaper = setInterval(() => app.server.closeIdleConnections(), 100);
    reaper.unref();
  });
  app.addHook('onClose', async () => clearInterval(reaper));
  app.addHook('onRequest', async () => {
    if (closing.has(app)) throw shuttingDown();
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing.has(app)) reply.header('connection', 'close');
  });
}

/**
 * Closes the app so that it is over by `deadline` (epoch ms): at the deadline every connection
 * still open is closed, and the background (`shutdownDeadlineOf`) stops waiting for its work.
 */
export async function closeWithin(app: FastifyInstance, deadline: number): Promise<void> {
  deadlines.set(app, deadline);
  const cut = setTimeout(() => app.server.closeAllConnections(), Math.max(0, deadline - Date.now()));
  cut.unref();
  try {
    await app.close();
  } finally {
    clearTimeout(cut);
  }
}
