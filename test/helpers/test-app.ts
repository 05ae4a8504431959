import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Kysely, LogEvent } from 'kysely';
import { buildChatApp } from '../../src/chat/app.js';
import type { BackgroundOptions } from '../../src/chat/background.js';
import { chatMigrations } from '../../src/chat/modules.js';
import type { ChatDatabase } from '../../src/chat/db/schema.js';
import { ensurePlatformApp } from '../../src/chat/platform/platform.bootstrap.js';
import { loadConfig, type Config } from '../../src/config.js';
import {
  dialectOf,
  dropPostgresSchema,
  openDatabase,
  type Database,
  type DialectName,
} from '../../src/core/db/database.js';
import { migrateToLatest } from '../../src/core/db/migrator.js';
import type { App } from '../../src/core/http/app.types.js';
import type { Metrics } from '../../src/core/http/metrics.js';
import { buildFinanceApp } from '../../src/finance/app.js';
import type { FinanceBackgroundOptions } from '../../src/finance/background.js';
import { financeMigrations } from '../../src/finance/modules.js';
import type { FinanceDatabase } from '../../src/finance/db/schema.js';

/**
 * The database tests run on: SQLite by default, PostgreSQL when TEST_DATABASE_URL is a
 * postgres:// URL (each test app then gets its own schema, dropped at close).
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? '';
export const testDialect: DialectName = TEST_DATABASE_URL ? dialectOf(TEST_DATABASE_URL) : 'sqlite';

/** SQL_LOG=<ms> prints every query slower than that many milliseconds (a profiling aid). */
const sqlLogThreshold = process.env.SQL_LOG ? Number(process.env.SQL_LOG) : undefined;
const sqlLog =
  sqlLogThreshold === undefined
    ? undefined
    : (event: LogEvent) => {
        if (event.level === 'query' && event.queryDurationMillis >= sqlLogThreshold) {
          process.stderr.write(`[sql ${event.queryDurationMillis.toFixed(2)} ms] ${event.query.sql}\n`);
        }
      };

export interface TestDatabase<DB> {
  db: Kysely<DB>;
  dialect: DialectName;
  url: string;
  /** PostgreSQL only: the schema of this test database. */
  schema?: string;
  dataDir: string;
  /** SQLite only: calls `observer` after each group commit (database.ts). */
  observeCommits?: Database<DB>['observeCommits'];
  close(): Promise<void>;
}

/**
 * A fresh, empty database and data directory for one test app; or, with `shared`, a second
 * connection to an existing one (as a second server process would have), which leaves the data
 * in place when closed.
 */
export async function openTestDatabase<DB>(label: string, shared?: TestDatabase<unknown>): Promise<TestDatabase<DB>> {
  const dataDir = shared?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), `ponte-${label}-`));
  const owner = shared === undefined;
  if (testDialect === 'postgres') {
    const schema = shared?.schema ?? `t_${label}_${randomBytes(6).toString('hex')}`;
    const database = await openDatabase<DB>(TEST_DATABASE_URL, { schema, poolSize: 5, log: sqlLog });
    return {
      db: database.db,
      dialect: database.dialect,
      url: TEST_DATABASE_URL,
      schema,
      dataDir,
      async close() {
        await database.close();
        if (!owner) return;
        await dropPostgresSchema(TEST_DATABASE_URL, schema);
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const url = shared?.url ?? `sqlite://${path.join(dataDir, `${label}.sqlite`)}`;
  const database = await openDatabase<DB>(url, { log: sqlLog });
  return {
    db: database.db,
    dialect: database.dialect,
    url,
    dataDir,
    observeCommits: database.observeCommits,
    async close() {
      await database.close();
      if (owner) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ChatTestApp {
  app: App;
  database: TestDatabase<unknown>;
  db: Kysely<ChatDatabase>;
  dialect: DialectName;
  config: Config;
  platformToken: string;
  close(): Promise<void>;
}

/** Builds the conversation service exactly as production does, on a fresh database. */
export async function buildChatTestApp(
  env: Record<string, string> = {},
  options: {
    background?: BackgroundOptions;
    /** Another instance on the same database and DATA_DIR (a second server process). */
    sameDatabaseAs?: ChatTestApp;
    /** Process metrics to instrument the app with (served at /metrics when METRICS_PORT is unset). */
    metrics?: Metrics;
  } = {},
): Promise<ChatTestApp> {
  const first = options.sameDatabaseAs;
  const database = await openTestDatabase<ChatDatabase>('chat', first?.database);
  await migrateToLatest(database.db, database.dialect, chatMigrations);
  const platformToken = first?.platformToken ?? randomBytes(24).toString('base64url');
  await ensurePlatformApp(database.db, platformToken);
  const config = loadConfig({
    DATA_DIR: database.dataDir,
    CHAT_DATABASE_URL: database.url,
    PUBLIC_URL: 'http://chat.test',
    LOG_LEVEL: 'silent',
    ...env,
  });
  options.metrics?.addSource('chat', database.db);
  const app = await buildChatApp({
    db: database.db,
    dialect: database.dialect,
    config,
    metrics: options.metrics,
    logger: false,
    background: options.background ?? false,
  });
  await app.ready();
  return {
    app,
    database: database as TestDatabase<unknown>,
    db: database.db,
    dialect: database.dialect,
    config,
    platformToken,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

export interface FinanceTestApp {
  app: App;
  database: TestDatabase<unknown>;
  db: Kysely<FinanceDatabase>;
  dialect: DialectName;
  config: Config;
  close(): Promise<void>;
}

/**
 * Builds the finance service exactly as production does, on a fresh database. Secrets are generated
 * under the test's DATA_DIR unless `env` sets them.
 */
export async function buildFinanceTestApp(
  env: Record<string, string> = {},
  options: {
    background?: FinanceBackgroundOptions;
    /** Another instance on the same database and DATA_DIR (a second server process). */
    sameDatabaseAs?: FinanceTestApp;
  } = {},
): Promise<FinanceTestApp> {
  const database = await openTestDatabase<FinanceDatabase>('finance', options.sameDatabaseAs?.database);
  await migrateToLatest(database.db, database.dialect, financeMigrations);
  const config = loadConfig({
    DATA_DIR: database.dataDir,
    FINANCE_DATABASE_URL: database.url,
    FINANCE_PUBLIC_URL: 'http://finance.test',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const app = await buildFinanceApp({
    db: database.db,
    dialect: database.dialect,
    config,
    logger: false,
    background: options.background ?? false,
  });
  await app.ready();
  return {
    app,
    database: database as TestDatabase<unknown>,
    db: database.db,
    dialect: database.dialect,
    config,
    async close() {
      await app.close();
      await database.close();
    },
  };
}
