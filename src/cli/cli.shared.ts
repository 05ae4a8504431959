import pino from 'pino';
import type { ChatDeps } from '../chat/context.js';
import type { ChatDatabase } from '../chat/db/schema.js';
import { chatMigrations } from '../chat/modules.js';
import { ACCOUNT_PLANS, type Config } from '../config.js';
import { openDatabase, type Database } from '../core/db/database.js';
import { migrateToLatest } from '../core/db/migrator.js';
import { randomToken } from '../core/security/tokens.js';
import { createLocalFileStore } from '../core/storage/file-store.js';
import { loadFinanceSecrets } from '../finance/app.js';
import type { FinanceDeps } from '../finance/context.js';
import type { FinanceDatabase } from '../finance/db/schema.js';
import { financeMigrations } from '../finance/modules.js';

/** What the command line shares between its commands: options, output, and opening the databases. */

export type Options = Record<string, string | boolean | undefined>;

/** A command: reads the configuration, its arguments and options; returns what it prints. */
export type Command = (config: Config, args: string[], options: Options) => Promise<string>;

/** A mistake in the command line itself (exit code 2, the message alone). */
export class UsageError extends Error {}

export const required = (options: Options, name: string): string => {
  const value = options[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
};
export const optional = (options: Options, name: string): string | undefined => {
  const value = options[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/** `--password`, or a random one to print (`given` false). */
export const passwordOption = (options: Options): { password: string; given: boolean } => {
  const given = optional(options, 'password');
  const password = given ?? randomToken(12);
  if (password.length < 8) throw new UsageError('--password must be at least 8 characters long');
  return { password, given: given !== undefined };
};
export const idOption = (options: Options, name: string): number => {
  const value = required(options, name);
  if (!/^[1-9]\d{0,9}$/.test(value)) throw new UsageError(`--${name} must be an id (a positive whole number)`);
  return Number(value);
};
export const planOption = (options: Options): (typeof ACCOUNT_PLANS)[number] | undefined => {
  const plan = optional(options, 'plan');
  if (plan === undefined) return undefined;
  if (!(ACCOUNT_PLANS as readonly string[]).includes(plan))
    throw new UsageError(`--plan is one of: ${ACCOUNT_PLANS.join(', ')}`);
  return plan as (typeof ACCOUNT_PLANS)[number];
};
export const localeOption = (options: Options): string | undefined => {
  const locale = optional(options, 'locale');
  if (locale !== undefined && !/^[a-z]{2}(_[A-Z]{2})?$/.test(locale))
    throw new UsageError('--locale is a language code such as en, pt_BR or es');
  return locale;
};

/** Rows as aligned columns, for a person to read. */
export function table(head: string[], rows: (string | number)[][]): string {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  return cells
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const quiet = pino({ level: 'silent' });

export async function withChat<T>(
  config: Config,
  fn: (deps: ChatDeps, database: Database<ChatDatabase>) => Promise<T>,
): Promise<T> {
  const database = await openDatabase<ChatDatabase>(config.chat.databaseUrl, {
    preparedStatements: config.preparedStatements,
  });
  try {
    await migrateToLatest(database.db, database.dialect, chatMigrations);
    const deps: ChatDeps = {
      db: database.db,
      dialect: database.dialect,
      config,
      fileStore: createLocalFileStore(config.dataDir),
    };
    return await fn(deps, database);
  } finally {
    await database.close();
  }
}

export async function withFinance<T>(config: Config, fn: (deps: FinanceDeps) => Promise<T>): Promise<T> {
  const database = await openDatabase<FinanceDatabase>(config.finance.databaseUrl, {
    preparedStatements: config.preparedStatements,
  });
  try {
    await migrateToLatest(database.db, database.dialect, financeMigrations);
    return await fn({
      db: database.db,
      dialect: database.dialect,
      config,
      secrets: loadFinanceSecrets(config),
      logger: quiet,
    });
  } finally {
    await database.close();
  }
}
