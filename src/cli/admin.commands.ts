import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { dialectOf, sqlitePath } from '../core/db/database.js';
import { loadVapidKeys, VAPID_KEY_FILE } from '../core/push/vapid.js';
import { hashPassword } from '../core/security/passwords.js';
import { createFinanceServices } from '../finance/modules.js';
import { passwordOption, required, optional, UsageError, withChat, withFinance, type Command } from './cli.shared.js';

/** Migrations, the finance service's users, and backups. */
export const adminCommands: Record<string, Command> = {
  async migrate(config, args) {
    const which = args[0] ?? 'all';
    if (!['all', 'chat', 'finance'].includes(which)) throw new UsageError('migrate takes chat, finance or nothing');
    if (which !== 'finance') await withChat(config, async () => undefined);
    if (which !== 'chat') await withFinance(config, async () => undefined);
    return `Migrations applied (${which === 'all' ? 'chat and finance' : which}).`;
  },

  async 'finance:create-user'(config, _args, options) {
    const email = required(options, 'email');
    const fullName = required(options, 'name');
    const { password, given } = passwordOption(options);
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
    const { password, given } = passwordOption(options);
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
