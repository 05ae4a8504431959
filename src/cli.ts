import { parseArgs } from 'node:util';
import { adminCommands } from './cli/admin.commands.js';
import { chatCommands } from './cli/chat.commands.js';
import { UsageError, type Command, type Options } from './cli/cli.shared.js';
import { ConfigError, loadConfig } from './config.js';
/**
 * The administrator's command line: `node dist/cli.js <command> [options]`. It reads the same
 * environment as the server (DATA_DIR, database URLs, keys) and works on the databases directly,
 * through the services, so what it does follows the same rules as the API.
 */

const HELP = `Usage: node dist/cli.js <command> [options]

Commands:
  migrate [chat|finance]              apply pending database migrations (both services by default) and exit
  chat:create-account --name <name> [--locale en] [--plan community|enterprise]
                                      create an account of the conversation service; prints its id
  chat:list-accounts                  list the accounts: id, name, locale, plan, status, members
  chat:set-account --account <id> [--plan community|enterprise] [--locale pt_BR] [--name <name>]
                                      change an account's plan, locale or name
  chat:create-user --name <name> --email <email> [--password <pw>] [--account <id> --role administrator|agent]
                                      create a user (and make them a member); prints the id and access token
  chat:list-users [--account <id>]    list the users (of one account): id, e-mail, name, memberships
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

The chat commands act as the installation's first platform app: what they create, that app's
token manages through /platform/api/v1 (decisions/0030). Settings come from the environment, as for
the server (docs/configuration.md). Options may also be written --option=value.`;

const commands: Record<string, Command> = { ...adminCommands, ...chatCommands };

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
      plan: { type: 'string' },
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
