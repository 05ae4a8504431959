import pino from 'pino';
import { loadConfig, type Config } from './config.js';
import { buildChatApp } from './chat/app.js';
import { chatMigrations } from './chat/modules.js';
import type { ChatDatabase } from './chat/db/schema.js';
import { ensurePlatformApp } from './chat/platform/platform.bootstrap.js';
import { openDatabase, type Database } from './core/db/database.js';
import { migrateToLatest } from './core/db/migrator.js';
import type { App } from './core/http/app-base.js';
import { buildFinanceApp } from './finance/app.js';
import { financeMigrations } from './finance/modules.js';
import type { FinanceDatabase } from './finance/db/schema.js';

type Which = 'all' | 'chat' | 'finance';

interface Running {
  name: string;
  app: App;
  database: Database<unknown>;
}

async function startChat(config: Config, logger: pino.Logger): Promise<Running> {
  const database = await openDatabase<ChatDatabase>(config.chat.databaseUrl);
  await migrateToLatest(database.db, database.dialect, chatMigrations);
  const platform = await ensurePlatformApp(database.db, config.chat.platformToken);
  if (platform.token) {
    // Printed once, on the first start of an empty database; it is not logged again.
    process.stdout.write(
      `\nPlatform app token (shown only now; keep it safe):\n  ${platform.token}\n` +
        `Use it as the api_access_token header on /platform/api/v1.\n\n`,
    );
  }
  const app = await buildChatApp({
    db: database.db,
    dialect: database.dialect,
    config,
    logger: logger.child({ service: 'chat' }),
    background: {},
  });
  await app.listen({ port: config.chat.port, host: config.host });
  return { name: 'chat', app, database: database as Database<unknown> };
}

async function startFinance(config: Config, logger: pino.Logger): Promise<Running> {
  const database = await openDatabase<FinanceDatabase>(config.finance.databaseUrl);
  await migrateToLatest(database.db, database.dialect, financeMigrations);
  const app = await buildFinanceApp({
    db: database.db,
    dialect: database.dialect,
    config,
    logger: logger.child({ service: 'finance' }),
    background: {},
  });
  await app.listen({ port: config.finance.port, host: config.host });
  return { name: 'finance', app, database: database as Database<unknown> };
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
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  }
  const logger = pino({ level: config.logLevel });
  const running: Running[] = [];
  let closing = false;

  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    // app.close() stops accepting connections and waits for in-flight requests to finish.
    await Promise.allSettled(running.map((r) => r.app.close()));
    await Promise.allSettled(running.map((r) => r.database.close()));
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    if (arg === 'all' || arg === 'chat') running.push(await startChat(config, logger));
    if (arg === 'all' || arg === 'finance') running.push(await startFinance(config, logger));
  } catch (err) {
    logger.fatal({ err }, 'failed to start');
    await Promise.allSettled(running.map((r) => r.app.close()));
    await Promise.allSettled(running.map((r) => r.database.close()));
    process.exit(1);
  }
}

void main();
