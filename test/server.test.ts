import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { randomPort, startServer, waitFor } from './helpers/server-process.js';
import { testDialect } from './helpers/test-app.js';

/**
 * The process entry as `npm start` runs it: both services from one process on SQLite files under
 * DATA_DIR, the platform token printed on the first start only, clean exit on SIGTERM.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-server-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const port = randomPort;

/** The server on this test's DATA_DIR unless `env` names another. */
const start = (env: Record<string, string>, args: string[] = [], nodeArgs: string[] = []) =>
  startServer({ DATA_DIR: dataDir, ...env }, args, nodeArgs);

describe.skipIf(testDialect !== 'sqlite')('server process', () => {
  it('serves both services, prints the platform token once, and stops cleanly on SIGTERM', async () => {
    const chatPort = port();
    const financePort = chatPort + 1;
    const env = { CHAT_PORT: String(chatPort), FINANCE_PORT: String(financePort) };

    const first = start(env);
    try {
      expect((await waitFor(`http://127.0.0.1:${chatPort}/health`)).status).toBe(200);
      expect((await waitFor(`http://127.0.0.1:${financePort}/health`)).status).toBe(200);
      const token = /Platform app token[^\n]*\n\s+(\S+)/.exec(first.output())?.[1];
      expect(token).toBeDefined();
      const res = await fetch(`http://127.0.0.1:${chatPort}/platform/api/v1/accounts`, {
        method: 'POST',
        headers: { api_access_token: token!, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'From the printed token' }),
      });
      expect(res.status).toBe(200);
      expect(fs.existsSync(path.join(dataDir, 'chat.sqlite'))).toBe(true);
      expect(fs.existsSync(path.join(dataDir, 'finance.sqlite'))).toBe(true);
    } finally {
      first.child.kill('SIGTERM');
    }
    expect(await first.exited).toBe(0);

    // Second start on the same data: the token is stored, not printed again.
    const second = start(env);
    try {
      expect((await waitFor(`http://127.0.0.1:${chatPort}/health`)).status).toBe(200);
      expect(second.output()).not.toContain('Platform app token');
    } finally {
      second.child.kill('SIGTERM');
    }
    expect(await second.exited).toBe(0);
  });

  it('loads only what the started service needs: no PostgreSQL client, mailer, HTTP client, Markdown, metrics or argon2', async () => {
    // Each is loaded on first use (a PostgreSQL URL, an e-mail, a webhook, a help center page,
    // METRICS=on); loading them all at start cost a fifth of the start time and 20 MB.
    const loadedFile = path.join(dataDir, 'loaded-packages.json');
    const chatPort = port();
    const chat = start(
      { CHAT_PORT: String(chatPort), LOADED_PACKAGES_FILE: loadedFile },
      ['chat'],
      ['--import', path.resolve(import.meta.dirname, 'fixtures/record-loaded-packages.mjs')],
    );
    try {
      expect((await waitFor(`http://127.0.0.1:${chatPort}/health`)).status).toBe(200);
    } finally {
      chat.child.kill('SIGTERM');
    }
    expect(await chat.exited).toBe(0);
    const loaded: string[] = JSON.parse(fs.readFileSync(loadedFile, 'utf8'));
    const packages = new Set(loaded.map((file) => /node_modules\/((@[^/]+\/)?[^/]+)\//.exec(file)?.[1]));
    expect(packages.has('fastify')).toBe(true); // the record works
    for (const lazy of ['pg', 'nodemailer', 'undici', 'markdown-it', 'sanitize-html', 'prom-client', '@node-rs/argon2'])
      expect(packages.has(lazy), lazy).toBe(false);
    // The finance service's code stays out of `server.js chat`.
    expect(loaded.some((file) => file.includes('/src/finance/'))).toBe(false);
  });

  it('refuses an invalid configuration with a clear message', async () => {
    const bad = start({ CHAT_PORT: 'not-a-port' });
    expect(await bad.exited).toBe(2);
    expect(bad.output()).toContain('CHAT_PORT: must be a port number from 0 to 65535 (got "not-a-port")');
    const scheme = start({ CHAT_DATABASE_URL: 'mysql://db/ponte' });
    expect(await scheme.exited).toBe(2);
    expect(scheme.output()).toMatch(/CHAT_DATABASE_URL: the scheme mysql:\/\/ is not supported/);
  });

  it("stops before touching the other service's database, saying each service needs its own", async () => {
    const own = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-foreign-'));
    try {
      const chatPort = port();
      const chat = start({ DATA_DIR: own, CHAT_PORT: String(chatPort) }, ['chat']);
      expect((await waitFor(`http://127.0.0.1:${chatPort}/health`)).status).toBe(200);
      chat.child.kill('SIGTERM');
      expect(await chat.exited).toBe(0);
      const chatFile = path.join(own, 'chat.sqlite');
      const finance = start(
        { DATA_DIR: own, FINANCE_PORT: String(chatPort + 1), FINANCE_DATABASE_URL: `sqlite://${chatFile}` },
        ['finance'],
      );
      expect(await finance.exited).toBe(2);
      expect(finance.output()).toContain(
        "The finance service's database holds another service's data (its migrations 0002_contacts, 0003_webhooks",
      );
      expect(finance.output()).toContain('Each service needs its own database (or PostgreSQL schema)');
    } finally {
      fs.rmSync(own, { recursive: true, force: true });
    }
  });

  it('refuses a DATA_DIR it cannot write, naming the path', async () => {
    const file = path.join(dataDir, 'not-a-directory');
    fs.writeFileSync(file, 'x');
    const bad = start({ DATA_DIR: path.join(file, 'data') });
    expect(await bad.exited).toBe(2);
    expect(bad.output()).toContain(`DATA_DIR ${path.join(file, 'data')} cannot be written`);
  });

  it('logs where it listens and that finance needs setup; a second instance on the same SQLite files is refused', async () => {
    const own = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-lock-'));
    try {
      const chatPort = port();
      const first = start({
        DATA_DIR: own,
        LOG_LEVEL: 'info',
        CHAT_PORT: String(chatPort),
        FINANCE_PORT: String(chatPort + 1),
      });
      try {
        expect((await waitFor(`http://127.0.0.1:${chatPort + 1}/health`)).status).toBe(200);
        await expect.poll(() => first.output(), { timeout: 10_000 }).toContain('The finance service needs setup');
        expect(first.output()).toContain(`Conversation service on http://127.0.0.1:${chatPort}`);
        const home = await fetch(`http://127.0.0.1:${chatPort}/`);
        expect(await home.text()).toContain('Ponte conversation service');
        const second = start({ DATA_DIR: own, CHAT_PORT: String(chatPort + 2), FINANCE_PORT: String(chatPort + 3) });
        expect(await second.exited).toBe(2);
        expect(second.output()).toMatch(/in use by another Ponte process .* point the database URLs at PostgreSQL/s);
        // The first instance is unaffected.
        expect((await fetch(`http://127.0.0.1:${chatPort}/health`)).status).toBe(200);
      } finally {
        first.child.kill('SIGTERM');
      }
      expect(await first.exited).toBe(0);
      // The lock ended with its process (its file stays): a new start takes the files, and so does
      // a start right after a kill -9, before the killed process is reaped (the lock trusts no pid).
      const env = { DATA_DIR: own, CHAT_PORT: String(chatPort), FINANCE_PORT: String(chatPort + 1) };
      const third = start(env);
      expect((await waitFor(`http://127.0.0.1:${chatPort}/health`)).status).toBe(200);
      third.child.kill('SIGKILL');
      const fourth = start(env);
      try {
        await third.exited;
        expect((await waitFor(`http://127.0.0.1:${chatPort + 1}/health`)).status).toBe(200);
        expect(fourth.output()).not.toContain('in use by another Ponte process');
      } finally {
        fourth.child.kill('SIGTERM');
      }
      expect(await fourth.exited).toBe(0);
    } finally {
      fs.rmSync(own, { recursive: true, force: true });
    }
  });

  it('the container health check (dist/healthcheck.js) passes only when both services answer on their configured ports', async () => {
    const own = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-health-'));
    const chatPort = port();
    const env = { DATA_DIR: own, CHAT_PORT: String(chatPort), FINANCE_PORT: String(chatPort + 1) };
    const check = (extra: Record<string, string>, args: string[] = []) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'src/healthcheck.ts', ...args], {
        cwd: path.resolve(import.meta.dirname, '..'),
        env: { ...process.env, HOST: '127.0.0.1', ...env, ...extra },
        encoding: 'utf8',
      });
    const server = start(env, ['chat']);
    try {
      expect((await waitFor(`http://127.0.0.1:${chatPort}/health`)).status).toBe(200);
      // Only the conversation service runs: the check of both fails, naming the finance service.
      const both = check({});
      expect(both.status).toBe(1);
      expect(both.stderr).toBe(`finance service (FINANCE_PORT ${chatPort + 1}) unhealthy: ECONNREFUSED\n`);
      expect(check({}, ['chat']).status).toBe(0);
      // Another port than the server's: the check follows the environment, so it fails.
      expect(check({ CHAT_PORT: String(chatPort + 2) }, ['chat']).status).toBe(1);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).toBe(0);
    const full = start(env);
    try {
      await waitFor(`http://127.0.0.1:${chatPort + 1}/health`);
      const ok = check({});
      expect(ok.status, ok.stderr).toBe(0);
    } finally {
      full.child.kill('SIGTERM');
      await full.exited;
      fs.rmSync(own, { recursive: true, force: true });
    }
  });

  describe('traps at first start: one line naming the variable, a non-zero exit, never a stack trace', () => {
    const oneLine = (output: string) =>
      output
        .trim()
        .split('\n')
        .filter((l) => !/^\s*$/.test(l));

    it('a port in use: no token is printed before the service listens, and the next start says how to get one', async () => {
      const own = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-trap-'));
      const taken = net.createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      try {
        const busy = (taken.address() as net.AddressInfo).port;
        const first = start({ DATA_DIR: own, CHAT_PORT: String(busy), FINANCE_PORT: String(busy + 1) });
        expect(await first.exited).toBe(1);
        expect(oneLine(first.output())).toEqual([
          `CHAT_PORT: port ${busy} is already in use on 127.0.0.1 (another program, or Ponte already running): stop it, or set CHAT_PORT to a free port`,
        ]);
        const chatPort = port();
        const second = start({
          DATA_DIR: own,
          LOG_LEVEL: 'info',
          LOG_FORMAT: 'json',
          CHAT_PORT: String(chatPort),
          FINANCE_PORT: String(chatPort + 1),
        });
        try {
          expect((await waitFor(`http://127.0.0.1:${chatPort}/health`)).status).toBe(200);
          await expect.poll(() => second.output(), { timeout: 10_000 }).toContain('chat:rotate-platform-token');
          expect(second.output()).not.toContain('Platform app token');
          // What a newcomer should know is said once, as a warning.
          await expect
            .poll(() => second.output(), { timeout: 10_000 })
            .toContain('SMTP_URL is not set: agent invitations and password resets are not e-mailed');
          expect(second.output()).toContain('set FINANCE_SIGNUP=closed for a private installation');
        } finally {
          second.child.kill('SIGTERM');
        }
        expect(await second.exited).toBe(0);
      } finally {
        taken.close();
        fs.rmSync(own, { recursive: true, force: true });
      }
    });

    it('CHAT_PORT equal to FINANCE_PORT, an unreachable PostgreSQL, a URL that names no database', async () => {
      const same = start({ CHAT_PORT: '3456', FINANCE_PORT: '3456' });
      expect(await same.exited).toBe(2);
      expect(oneLine(same.output())).toEqual([
        'CHAT_PORT and FINANCE_PORT are both 3456: give each its own port (defaults: CHAT_PORT 3000, FINANCE_PORT 3001)',
      ]);
      const down = start(
        { CHAT_DATABASE_URL: 'postgres://ponte:secret@127.0.0.1:1/ponte_chat', CHAT_PORT: String(port()) },
        ['chat'],
      );
      expect(await down.exited).toBe(1);
      expect(oneLine(down.output())).toEqual([
        'CHAT_DATABASE_URL: cannot reach PostgreSQL at 127.0.0.1:1 (connection refused): start it, or correct the host and port in CHAT_DATABASE_URL',
      ]);
      const garbage = start({ CHAT_DATABASE_URL: 'garbage' });
      expect(await garbage.exited).toBe(2);
      expect(garbage.output()).toContain('CHAT_DATABASE_URL: "garbage" names no database');
      expect(fs.existsSync(path.resolve(import.meta.dirname, '..', 'garbage'))).toBe(false);
    });
  });
});
