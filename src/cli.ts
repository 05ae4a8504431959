import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import pino from 'pino';
import { issueAccessToken } from './chat/auth/access-tokens.js';
import type { ChatDeps } from './chat/context.js';
import type { ChatDatabase } from './chat/db/schema.js';
import { chatMigrations, createChatServices } from './chat/modules.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { dialectOf, openDatabase, sqlitePath, type Database } from './core/db/database.js';
import { migrateToLatest } from './core/db/migrator.js';
import { loadVapidKeys, VAPID_KEY_FILE } from './core/push/vapid.js';
import { hashPassword } from './core/security/passwords.js';
import { randomToken } from './core/security/tokens.js';
import { createLocalFileStore } from './core/storage/file-store.js';
import { loadFinanceSecrets } from './finance/app.js';
import type { FinanceDeps } from './finance/context.js';
import type { FinanceDatabase } from './finance/db/schema.js';
import { createFinanceServices, financeMigrations } from './finance/modules.js';

/**
 * The administrator's command line: `node dist/cli.js <command> [options]`. It reads the same
 * environment as the server (DATA_DIR, database URLs, keys) and works on the databases directly,
 * through the services, so what it does follows the same rules as the API.
 */

const HELP = `Usage: node dist/cli.js <command> [options]

Commands:
  migrate [chat|finance]              apply pending database migrations (both services by default) and exit
  chat:create-account --name <name> [--locale en]
                                      create an account of the conversation service; prints its id
  chat:create-user --name <name> --email <email> [--password <pw>] [--account <id> --role administrator|agent]
                                      create a user (and make them a member); prints the id and access token
  chat:reset-password --email <email> [--password <pw>]
                                      set a user's password (a random one is printed when none is given)
  chat:rotate-platform-token          replace the platform app token (or make the first); prints the new one
  finance:create-user --email <email> --name <full name> [--password <pw>] [--account-name <name>]
                                      create a user administering a new finance account (setup by hand)
  finance:reset-password --email <email> [--password <pw>]
                                      set a user's password and end all their sessions
  push:vapid-keys                     print the VAPID key pair of Web Push (generated into DATA_DIR at first use),
                                      to give other instances as VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY
  backup <directory>                  online backup of the SQLite databases, the key files and the uploads

Settings come from the environment, as for the server (see the README). Options may also be
written --option=value.`;

type Options = Record<string, string | boolean | undefined>;

class UsageError extends Error {}

const required = (options: Options, name: string): string => {
  const value = options[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
};
const optional = (options: Options, name: string): string | undefined => {
  const value = options[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

const quiet = pino({ level: 'silent' });

async function withChat<T>(
  config: Config,
  fn: (deps: ChatDeps, database: Database<ChatDatabase>) => Promise<T>,
): Promise<T> {
  const database = await openDatabase<ChatDatabase>(config.chat.databaseUrl, {
    preparedStatements: config.preparedStatements,
  });
  try {
    await migrateToLatest(database.db, database.dialect, chatMigrations, { service: 'conversation' });
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

async function withFinance<T>(config: Config, fn: (deps: FinanceDeps) => Promise<T>): Promise<T> {
  const database = await openDatabase<FinanceDatabase>(config.finance.databaseUrl, {
    preparedStatements: config.preparedStatements,
  });
  try {
    await migrateToLatest(database.db, database.dialect, financeMigrations, { service: 'finance' });
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

const commands: Record<string, (config: Config, args: string[], options: Options) => Promise<string>> = {
  async migrate(config, args) {
    const which = args[0] ?? 'all';
    if (!['all', 'chat', 'finance'].includes(which)) throw new UsageError('migrate takes chat, finance or nothing');
    if (which !== 'finance') await withChat(config, async () => undefined);
    if (which !== 'chat') await withFinance(config, async () => undefined);
    return `Migrations applied (${which === 'all' ? 'chat and finance' : which}).`;
  },

  async 'chat:create-account'(config, _args, options) {
    const name = required(options, 'name');
    const locale = optional(options, 'locale') ?? 'en';
    return withChat(config, async (deps) => {
      const services = createChatServices(deps);
      const now = Date.now();
      const account = await deps.db.transaction().execute((trx) =>
        services.accounts.create(trx, {
          name,
          locale,
          domain: null,
          support_email: null,
          status: 'active',
          auto_resolve_duration: null,
          custom_attributes: '{}',
          plan: null,
          features: '{}',
          created_at: now,
          updated_at: now,
        }),
      );
      return `Account ${account.id} created: ${account.name}`;
    });
  },

  async 'chat:create-user'(config, _args, options) {
    const name = required(options, 'name');
    const email = required(options, 'email');
    const given = optional(options, 'password');
    const password = given ?? randomToken(12);
    if (password.length < 8) throw new UsageError('--password must be at least 8 characters long');
    const accountId = optional(options, 'account');
    const role = optional(options, 'role') ?? 'agent';
    if (role !== 'administrator' && role !== 'agent') throw new UsageError('--role is administrator or agent');
    return withChat(config, async (deps) => {
      const services = createChatServices(deps);
      return deps.db.transaction().execute(async (trx) => {
        if (await services.users.findByEmail(trx, email))
          throw new UsageError(`a user with the e-mail ${email} exists already`);
        const { user } = await services.users.findOrCreate(trx, { name, email, password });
        if (accountId !== undefined) {
          const account = await services.accounts.find(trx, Number(accountId));
          if (!account) throw new UsageError(`there is no account ${accountId}`);
          await services.accounts.addMember(trx, account.id, user.id, role);
        }
        const token = await services.users.accessToken(trx, user.id);
        return [
          `User ${user.id} created: ${user.email}`,
          `Access token: ${token}`,
          ...(given ? [] : [`Password: ${password}`]),
          ...(accountId !== undefined ? [`Member of account ${accountId} as ${role}`] : []),
        ].join('\n');
      });
    });
  },

  async 'chat:reset-password'(config, _args, options) {
    const email = required(options, 'email');
    const given = optional(options, 'password');
    const password = given ?? randomToken(12);
    if (password.length < 8) throw new UsageError('--password must be at least 8 characters long');
    return withChat(config, async (deps) => {
      const services = createChatServices(deps);
      await deps.db.transaction().execute(async (trx) => {
        const user = await services.users.findByEmail(trx, email);
        if (!user) throw new UsageError(`there is no user with the e-mail ${email}`);
        await services.users.update(trx, user, { password });
      });
      return given ? `Password of ${email} changed.` : `Password of ${email} changed to: ${password}`;
    });
  },

  async 'chat:rotate-platform-token'(config) {
    return withChat(config, async (deps) => {
      const token = randomToken(32);
      await deps.db.transaction().execute(async (trx) => {
        const app =
          (await trx.selectFrom('platform_apps').select('id').orderBy('id').limit(1).executeTakeFirst()) ??
          (await trx
            .insertInto('platform_apps')
            .values({ name: 'Default platform app', created_at: Date.now() })
            .returning('id')
            .executeTakeFirstOrThrow());
        await trx
          .deleteFrom('access_tokens')
          .where('owner_type', '=', 'PlatformApp')
          .where('owner_id', '=', app.id)
          .execute();
        await issueAccessToken(trx, 'PlatformApp', app.id, token);
      });
      const note = config.chat.platformToken
        ? '\nPLATFORM_TOKEN is set in the environment: remove it, or the next start registers it again beside this one.'
        : '';
      return `New platform app token (the old one no longer works):\n  ${token}${note}`;
    });
  },

  async 'finance:create-user'(config, _args, options) {
    const email = required(options, 'email');
    const fullName = required(options, 'name');
    const given = optional(options, 'password');
    const password = given ?? randomToken(12);
    if (password.length < 8) throw new UsageError('--password must be at least 8 characters long');
    const accountName = optional(options, 'account-name') ?? fullName;
    return withFinance(config, async (deps) => {
      const services = createFinanceServices(deps);
      if (await services.users.findByEmail(email))
        throw new UsageError(`a user with the e-mail ${email} exists already`);
      const passwordHash = await hashPassword(password);
      const first = !(await services.users.anyExists());
      const { user, account } = await deps.db.transaction().execute(async (trx) => {
        const user = await services.users.create(trx, {
          email,
          fullName,
          passwordHash,
          isSuperAdmin: first,
          emailVerified: true,
        });
        const account = await services.accounts.create(trx, accountName);
        await services.accounts.addMember(trx, account.id, user.id, 'admin');
        return { user, account };
      });
      return [
        `User ${user.id} created: ${user.email}${first ? ' (SuperAdmin: the service is now set up)' : ''}`,
        `Administrator of account ${account.id}: ${account.name}`,
        ...(given ? [] : [`Password: ${password}`]),
      ].join('\n');
    });
  },

  async 'finance:reset-password'(config, _args, options) {
    const email = required(options, 'email');
    const given = optional(options, 'password');
    const password = given ?? randomToken(12);
    if (password.length < 8) throw new UsageError('--password must be at least 8 characters long');
    return withFinance(config, async (deps) => {
      const services = createFinanceServices(deps);
      const user = await services.users.findByEmail(email);
      if (!user) throw new UsageError(`there is no user with the e-mail ${email}`);
      const passwordHash = await hashPassword(password);
      await deps.db.transaction().execute(async (trx) => {
        await services.users.replacePassword(trx, user.id, passwordHash);
        await services.sessions.revokeAll(trx, user.id);
      });
      return given
        ? `Password of ${email} changed; their sessions ended.`
        : `Password of ${email} changed to: ${password}`;
    });
  },

  async 'push:vapid-keys'(config) {
    const keys = loadVapidKeys(config.dataDir, config.push.vapid);
    return `VAPID_PUBLIC_KEY=${keys.publicKey}\nVAPID_PRIVATE_KEY=${keys.privateKey}`;
  },

  async backup(config, args) {
    const target = args[0];
    if (!target) throw new UsageError('backup needs a directory');
    const dir = path.resolve(target);
    fs.mkdirSync(dir, { recursive: true });
    if (fs.readdirSync(dir).length > 0) throw new UsageError(`${dir} is not empty: back up into a new directory`);
    const done: string[] = [];
    for (const [name, url] of [
      ['chat', config.chat.databaseUrl],
      ['finance', config.finance.databaseUrl],
    ] as const) {
      if (dialectOf(url) !== 'sqlite') {
        done.push(`${name}: PostgreSQL, back it up with pg_dump (not copied)`);
        continue;
      }
      const file = sqlitePath(url);
      if (!fs.existsSync(file)) continue;
      // SQLite's online backup: a consistent copy while the server keeps running.
      const source = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
      try {
        await source.backup(path.join(dir, path.basename(file)));
      } finally {
        source.close();
      }
      done.push(`${name}: ${path.basename(file)}`);
    }
    for (const key of ['finance-jwt.key', 'finance-encryption.key', 'chat-encryption.key', VAPID_KEY_FILE]) {
      const file = path.join(config.dataDir, key);
      if (fs.existsSync(file)) {
        fs.copyFileSync(file, path.join(dir, key));
        fs.chmodSync(path.join(dir, key), 0o600);
        done.push(key);
      }
    }
    const uploads = path.join(config.dataDir, 'uploads');
    if (fs.existsSync(uploads)) {
      fs.cpSync(uploads, path.join(dir, 'uploads'), { recursive: true });
      done.push('uploads/');
    }
    return `Backed up to ${dir}:\n  ${done.join('\n  ')}`;
  },
};

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: {
      help: { type: 'boolean', short: 'h' },
      name: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      account: { type: 'string' },
      role: { type: 'string' },
      locale: { type: 'string' },
      'account-name': { type: 'string' },
    },
  });
  const [command, ...args] = positionals;
  if (values.help || !command || command === 'help') {
    process.stdout.write(`${HELP}\n`);
    return command || values.help ? 0 : 2;
  }
  const run = commands[command];
  if (!run) {
    process.stderr.write(`Unknown command ${command}.\n\n${HELP}\n`);
    return 2;
  }
  try {
    const config = loadConfig();
    process.stdout.write(`${await run(config, args, values as Options)}\n`);
    return 0;
  } catch (err) {
    if (err instanceof UsageError || err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    throw err;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
