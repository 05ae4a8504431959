import fs from 'node:fs';
import http from 'node:http';
import type { ChatDatabase } from './chat/db/schema.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { dialectOf, openDatabase, sqlitePath, type Database } from './core/db/database.js';
import { InstanceLockError, lockSqliteFile, type InstanceLock } from './core/db/instance-lock.js';
import { ForeignDatabaseError, migrateToLatest, prepareDatabase } from './core/db/migrator.js';
import type { App } from './core/http/app.types.js';
import { closeWithin } from './core/http/shutdown.js';
import type { Metrics } from './core/http/metrics.js';
import type { Logger } from 'pino';
import { createLogger, logDestination } from './core/logging/logger.js';
import type { FinanceDatabase } from './finance/db/schema.js';
import { databaseError, listenError, platformTokenNote, portClash, startWarnings, StartupError } from './startup.js';

type Which = 'all' | 'chat' | 'finance';

interface Running {
  name: string;
  app: App;
  database: Database<unknown>;
  lock: InstanceLock | null;
}

/** DATA_DIR must exist (it is created) and be writable: SQLite files, keys and uploads live there. */
function checkDataDir(dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.accessSync(dir, fs.constants.W_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied for this user' : String(code ?? err);
    throw new ConfigError(
      `DATA_DIR ${dir} cannot be written (${why}): create it and give the user running Ponte ` +
        `(uid ${process.getuid?.() ?? '?'}) write access, or set DATA_DIR to a writable directory`,
    );
  }
}

/** One process per SQLite database (several instances need PostgreSQL). */
function lockIfSqlite(url: string, service: string): InstanceLock | null {
  if (dialectOf(url) !== 'sqlite' || sqlitePath(url) === ':memory:') return null;
  return lockSqliteFile(sqlitePath(url), service);
}

// Each service's code is loaded only when it runs: `server.js chat` does not pay for the finance
// service's modules at start (nor `finance` for the conversation service's), nor for metrics when off.

async function startChat(config: Config, logger: Logger, metrics?: Metrics): Promise<Running> {
  const [{ buildChatApp }, { chatMigrations }, { ensurePlatformApp }] = await Promise.all([
    import('./chat/app.js'),
    import('./chat/modules.js'),
    import('./chat/platform/platform.bootstrap.js'),
  ]);
  const lock = lockIfSqlite(config.chat.databaseUrl, 'conversation');
  const database = await openDatabase<ChatDatabase>(config.chat.databaseUrl, {
    preparedStatements: config.preparedStatements,
  });
  // Instances starting together on one database migrate and bootstrap one after the other.
  const platform = await prepareDatabase(
    database.db,
    database.dialect,
    chatMigrations,
    (db) => ensurePlatformApp(db, config.chat.platformToken),
    { service: 'conversation' },
  ).catch((err: unknown) => {
    throw databaseError(err, 'CHAT', config.chat.databaseUrl);
  });
  metrics?.addSource('chat', database.db);
  const app = await buildChatApp({
    db: database.db,
    dialect: database.dialect,
    config,
    logger: logger.child({ service: 'chat' }),
    metrics,
    background: {},
  });
  await app.listen({ port: config.chat.port, host: config.host }).catch((err: unknown) => {
    throw listenError(err, 'CHAT_PORT', config.chat.port, config.host);
  });
  logger.info(
    `Conversation service on http://${displayHost(config.host)}:${config.chat.port} (API docs: ${config.chat.publicUrl}/docs)`,
  );
  // The new token is printed (once) only now that the service answers; a later start says how to get another.
  const note = platformTokenNote(platform.token, config);
  if (note.print) process.stdout.write(note.print);
  if (note.hint) logger.info(note.hint);
  return { name: 'chat', app, database: database as Database<unknown>, lock };
}

async function startFinance(config: Config, logger: Logger, metrics?: Metrics): Promise<Running> {
  const [{ buildFinanceApp }, { financeMigrations }] = await Promise.all([
    import('./finance/app.js'),
    import('./finance/modules.js'),
  ]);
  const lock = lockIfSqlite(config.finance.databaseUrl, 'finance');
  const database = await openDatabase<FinanceDatabase>(config.finance.databaseUrl, {
    preparedStatements: config.preparedStatements,
  });
  await migrateToLatest(database.db, database.dialect, financeMigrations, { service: 'finance' }).catch(
    (err: unknown) => {
      throw databaseError(err, 'FINANCE', config.finance.databaseUrl);
    },
  );
  metrics?.addSource('finance', database.db);
  const app = await buildFinanceApp({
    db: database.db,
    dialect: database.dialect,
    config,
    logger: logger.child({ service: 'finance' }),
    metrics,
    background: {},
  });
  await app.listen({ port: config.finance.port, host: config.host }).catch((err: unknown) => {
    throw listenError(err, 'FINANCE_PORT', config.finance.port, config.host);
  });
  logger.info(
    `Finance service on http://${displayHost(config.host)}:${config.finance.port} (API docs: ${config.finance.publicUrl}/docs)`,
  );
  const users = await database.db.selectFrom('users').select('id').limit(1).execute();
  if (users.length === 0) {
    logger.info(
      'The finance service needs setup: create its first user with POST /api/auth/setup' +
        (config.finance.setupToken ? ' (FINANCE_SETUP_TOKEN is required)' : ''),
    );
  }
  return { name: 'finance', app, database: database as Database<unknown>, lock };
}

const displayHost = (host: string) => (host === '0.0.0.0' || host === '::' ? 'localhost' : host);

/** METRICS_PORT: /metrics of the whole process on its own port, away from the public API. */
function startMetricsServer(config: Config, metrics: Metrics, logger: Logger): http.Server {
  const server = http.createServer((req, res) => {
    if (req.url !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    metrics.render().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
      (err: unknown) => {
        logger.error({ err }, 'metrics failed');
        res.writeHead(500).end();
      },
    );
  });
  server.on('error', (err) => {
    const problem = listenError(err, 'METRICS_PORT', config.metrics.port!, config.host);
    process.stderr.write(`${problem instanceof Error ? problem.message : String(problem)}\n`);
    process.exit(1);
  });
  server.listen(config.metrics.port!, config.host);
  logger.info(`Metrics on http://${displayHost(config.host)}:${config.metrics.port}/metrics`);
  return server;
}

async function main() {
  const arg = (process.argv[2] ?? 'all') as Which;
  if (!['all', 'chat', 'finance'].includes(arg)) {
    process.stderr.write(`usage: server.js [all|chat|finance]\n`);
    process.exit(2);
  }
  let config: Config;
  try {
    config = loadConfig();
    checkDataDir(config.dataDir);
    const clash = portClash(config, arg);
    if (clash) throw clash;
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  }
  const logger = createLogger(config.logLevel, logDestination(config.logFormat));
  const metrics = config.metrics.enabled ? new (await import('./core/http/metrics.js')).Metrics() : undefined;
  const metricsServer = metrics && config.metrics.port !== null ? startMetricsServer(config, metrics, logger) : null;
  const running: Running[] = [];
  let closing = false;

  // Bounded (core/http/shutdown.ts): requests and background work in flight get until the
  // deadline, then their connections are closed and leased work is left to its lease.
  const closeAll = async () => {
    const deadline = Date.now() + config.shutdownTimeoutMs;
    // Should closing hang past the bound (a database that does not answer), the process still ends:
    // everything acknowledged is committed.
    setTimeout(() => {
      logger.warn('shutdown bound passed with work still closing: exiting');
      process.exit(0);
    }, config.shutdownTimeoutMs + 1000).unref();
    await Promise.allSettled(running.map((r) => closeWithin(r.app, deadline)));
    await Promise.allSettled(running.map((r) => r.database.close()));
    for (const r of running) r.lock?.release();
    metricsServer?.closeAllConnections();
    metricsServer?.close();
  };
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const started = Date.now();
    logger.info({ signal, boundSeconds: config.shutdownTimeoutMs / 1000 }, 'shutting down');
    await closeAll();
    logger.info({ ms: Date.now() - started }, 'stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    if (arg === 'all' || arg === 'chat') running.push(await startChat(config, logger, metrics));
    if (arg === 'all' || arg === 'finance') running.push(await startFinance(config, logger, metrics));
  } catch (err) {
    // Known causes are one line naming what to change; anything else is a bug, logged with its stack.
    const refused =
      err instanceof InstanceLockError || err instanceof ForeignDatabaseError || err instanceof StartupError;
    if (refused) process.stderr.write(`${err.message}\n`);
    else logger.fatal({ err }, 'failed to start');
    await closeAll();
    process.exit(
      err instanceof StartupError
        ? err.exitCode
        : err instanceof InstanceLockError || err instanceof ForeignDatabaseError
          ? 2
          : 1,
    );
  }
  // Said once both services answer, so that a failed start shows its one line alone.
  for (const warning of startWarnings(config, arg)) logger.warn(warning);
}

void main();
