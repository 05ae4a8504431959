import { createChatServices } from '../chat/modules.js';
import {
  idOption,
  localeOption,
  optional,
  passwordOption,
  planOption,
  required,
  table,
  UsageError,
  withChat,
  type Command,
} from './cli.shared.js';

/**
 * The conversation service's commands. They act as the installation's first platform app
 * (decisions/0030): what they create, that app's token manages through /platform/api/v1.
 */

/** When a command made the installation's first platform app, its token, shown once. */
const newAppLines = (token: string | undefined) =>
  token
    ? ['The installation had no platform app: made one. Its token (shown only now; keep it safe):', `  ${token}`, '']
    : [];

export const chatCommands: Record<string, Command> = {
  async 'chat:create-account'(config, _args, options) {
    const name = required(options, 'name');
    const locale = localeOption(options) ?? 'en';
    const plan = planOption(options);
    return withChat(config, async (deps) => {
      const services = createChatServices(deps);
      const app = await services.platform.installationApp();
      const account = await services.platform.createAccount(app.id, { name, locale, plan });
      return [
        ...newAppLines(app.token),
        `Account ${account.id} created: ${account.name} (locale ${account.locale}, plan ${account.plan})`,
      ].join('\n');
    });
  },

  async 'chat:list-accounts'(config) {
    return withChat(config, async (deps) => {
      const rows = await createChatServices(deps).accounts.listAll(deps.db);
      if (rows.length === 0) return 'No accounts yet (chat:create-account makes one).';
      return table(
        ['id', 'name', 'locale', 'plan', 'status', 'members'],
        rows.map((a) => [a.id, a.name, a.locale, a.plan ?? '-', a.status, a.members]),
      );
    });
  },

  async 'chat:set-account'(config, _args, options) {
    const id = idOption(options, 'account');
    const plan = planOption(options);
    const locale = localeOption(options);
    const name = optional(options, 'name');
    if (plan === undefined && locale === undefined && name === undefined)
      throw new UsageError('give --plan, --locale or --name');
    return withChat(config, async (deps) => {
      const services = createChatServices(deps);
      const account = await deps.db.transaction().execute(async (trx) => {
        if (!(await services.accounts.find(trx, id))) throw new UsageError(`there is no account ${id}`);
        return services.accounts.update(trx, id, {
          ...(plan !== undefined ? { plan } : {}),
          ...(locale !== undefined ? { locale } : {}),
          ...(name !== undefined ? { name } : {}),
          updated_at: Date.now(),
        });
      });
      return `Account ${id} (${account!.name}): locale ${account!.locale}, plan ${account!.plan ?? '-'}`;
    });
  },

  async 'chat:list-users'(config, _args, options) {
    const accountId = options.account === undefined ? undefined : idOption(options, 'account');
    return withChat(config, async (deps) => {
      const rows = await createChatServices(deps).users.listWithMemberships(deps.db, accountId);
      if (rows.length === 0) return accountId ? `Account ${accountId} has no members.` : 'No users yet.';
      return table(
        ['id', 'email', 'name', 'accounts (role)'],
        rows.map((u) => [u.id, u.email, u.name, u.memberships.map((m) => `${m.account_id} (${m.role})`).join(', ')]),
      );
    });
  },

  async 'chat:create-user'(config, _args, options) {
    const name = required(options, 'name');
    const email = required(options, 'email');
    const { password, given } = passwordOption(options);
    const accountId = optional(options, 'account');
    const role = optional(options, 'role') ?? 'agent';
    if (role !== 'administrator' && role !== 'agent') throw new UsageError('--role is administrator or agent');
    return withChat(config, async (deps) => {
      const services = createChatServices(deps);
      const app = await services.platform.installationApp();
      const created = await deps.db.transaction().execute(async (trx) => {
        if (await services.users.findByEmail(trx, email))
          throw new UsageError(`a user with the e-mail ${email} exists already`);
        const { user } = await services.users.findOrCreate(trx, { name, email, password });
        await services.platform.adopt(trx, app.id, 'User', user.id);
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
      return [...newAppLines(app.token), created].join('\n');
    });
  },

  async 'chat:reset-password'(config, _args, options) {
    const email = required(options, 'email');
    const { password, given } = passwordOption(options);
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
      const token = await createChatServices(deps).platform.rotateInstallationToken();
      const note = config.chat.platformToken
        ? '\nPLATFORM_TOKEN is set in the environment: remove it, or the next start registers it again beside this one.'
        : '';
      return `New platform app token (the old one no longer works):\n  ${token}${note}`;
    });
  },
};
