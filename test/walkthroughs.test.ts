import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../src/config.js';
import { FakeOpenAi } from './helpers/fake-openai.js';
import { TestSmtpServer } from './helpers/smtp.js';
import { testDialect } from './helpers/test-app.js';
import { MARKER, printed, ShellSession, shellBlocks, stepsOf, type Step } from './helpers/walkthrough.js';

/**
 * The README's and docs' walk-throughs run as written, in order, against a started server (a real
 * process, a fresh DATA_DIR, a local SMTP sink, a local OpenAI-compatible stub, WEBHOOK_ALLOWED_HOSTS
 * 127.0.0.1), with curl and jq as a reader runs them. Every documented answer (`# -> ...`) must be
 * a subset of what the commands print: a changed answer fails the build. curl runs with
 * `--fail-with-body` (a .curlrc), so a command that answers an HTTP error fails its step unless the
 * document shows that error (`# -> error {...}`). Shell blocks that cannot run here are listed in
 * UNRUNNABLE with the reason; a new shell block must be marked `<!-- walkthrough -->` or listed.
 */

const root = path.resolve(import.meta.dirname, '..');
/** The walk-throughs, in the order a newcomer follows them: each continues the one before. */
const WALKTHROUGHS = ['README.md', 'docs/api-guide.md', 'docs/webhooks.md', 'docs/finance.md'];

/** Shell blocks that do not run here, by file and first line, with the reason. */
const UNRUNNABLE: Record<string, string> = {
  'README.md: npm install          # installs and builds dist/ once (the server and the web app)':
    'installs and starts the server: the test starts the same server itself (test/server.test.ts covers npm start)',
  'README.md: npm test                                   # the whole suite on SQLite':
    'runs the test suite itself (.ci/run runs it)',
  'docs/OPERATIONS.md: npm ci                 # installs, then builds dist/ (the `prepare` script)':
    'installs and starts a production server (test/server.test.ts starts the same entry point)',
  'docs/OPERATIONS.md: createuser ponte --pwprompt':
    'creates PostgreSQL roles and databases: needs a PostgreSQL superuser (.ci/postgres.sh does it for CI)',
  'docs/OPERATIONS.md: cp .env.example .env        # then fill in POSTGRES_PASSWORD, the two keys, PLATFORM_TOKEN, ...':
    'Docker compose: no Docker engine runs here (test/deployment-files.test.ts checks the files)',
  'docs/api-guide.md: node dist/cli.js chat:set-account --account "$ACCOUNT" --plan enterprise':
    'needs dist/ built and the operator on the server machine: test/cli.test.ts runs chat:set-account; the walk-through sets the plan through the platform API',
  'docs/finance.md: node dist/cli.js finance:create-user --email owner@acme.test --name "Olivia Owner"':
    'the alternative to setup from the server machine: test/cli.test.ts runs finance:create-user',
};

const port = () => 20000 + Math.floor(Math.random() * 30000);
const docs = () =>
  ['README.md', ...fs.readdirSync(path.join(root, 'docs')).map((f) => `docs/${f}`)].filter((f) => f.endsWith('.md'));
const blocksOf = (file: string) => shellBlocks(file, fs.readFileSync(path.join(root, file), 'utf8'));
const keyOf = (file: string, code: string) => `${file}: ${code.split('\n')[0].trim()}`;

describe('the documents', () => {
  it('link to each other: every relative link points at a file, and the README reaches every page', () => {
    const broken: string[] = [];
    for (const file of docs()) {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue;
        const resolved = path.resolve(path.dirname(path.join(root, file)), target);
        // docs/compatibility.md comes with the Chatwoot compatibility work, merged separately.
        if (!fs.existsSync(resolved) && !resolved.endsWith('docs/compatibility.md')) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    for (const page of ['configuration', 'api-guide', 'webhooks', 'realtime', 'finance', 'compatibility', 'OPERATIONS'])
      expect(readme, page).toContain(`](docs/${page}.md)`);
  });

  it('document every setting in docs/configuration.md', () => {
    const text = fs.readFileSync(path.join(root, 'docs/configuration.md'), 'utf8');
    for (const name of CONFIG_VARIABLES) expect(text, name).toMatch(new RegExp(`^\\| \`${name}\` +\\|`, 'm'));
  });

  it('mark every shell block runnable or list it here with the reason it cannot run', () => {
    const unlisted: string[] = [];
    const listed = new Set<string>();
    for (const file of docs()) {
      for (const block of blocksOf(file)) {
        if (block.runnable) {
          expect(WALKTHROUGHS, `${file}:${block.line} is marked ${MARKER} but is not run`).toContain(file);
          continue;
        }
        const key = keyOf(file, block.code);
        if (UNRUNNABLE[key]) listed.add(key);
        else unlisted.push(`${file}:${block.line} ${key}`);
      }
    }
    expect(unlisted, 'shell blocks neither marked runnable nor listed in UNRUNNABLE').toEqual([]);
    expect(Object.keys(UNRUNNABLE).filter((k) => !listed.has(k))).toEqual([]);
  });
});

describe.skipIf(testDialect !== 'sqlite')('the walk-throughs, run as written', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-walkthrough-'));
  const dataDir = path.join(work, 'data');
  const home = path.join(work, 'home');
  const cwd = path.join(work, 'cwd');
  const smtp = new TestSmtpServer();
  const openai = new FakeOpenAi();
  const chatPort = port();
  let server: ReturnType<typeof spawn>;
  let output = '';
  let shell: ShellSession;

  beforeAll(async () => {
    for (const dir of [dataDir, home, cwd]) fs.mkdirSync(dir);
    // Every curl of the documents fails on an HTTP error, printing the body.
    fs.writeFileSync(path.join(home, '.curlrc'), 'fail-with-body\n');
    await smtp.start();
    await openai.start();
    // The answer docs/api-guide.md shows for a reply suggestion.
    openai.reply = 'Hi Carla, I checked your order: it ships today.';
    server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: root,
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        CHAT_PORT: String(chatPort),
        FINANCE_PORT: String(chatPort + 1),
        SMTP_URL: smtp.url,
        WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    server.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    const deadline = Date.now() + 30_000;
    let token: string | undefined;
    while (!token && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      token = /Platform app token[^\n]*\n\s+(\S+)/.exec(output)?.[1];
    }
    if (!token) throw new Error(`the server printed no platform token:\n${output}`);
    // The finance service starts after the conversation service (which printed the token).
    while ((await fetch(`http://127.0.0.1:${chatPort + 1}/health`).catch(() => null))?.status !== 200) {
      if (Date.now() > deadline) throw new Error(`the finance service never answered:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    shell = new ShellSession(cwd, {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      LANG: 'C.UTF-8',
      TZ: 'UTC',
      // Where the documents' variables point when a reader sets nothing: here, the test's server.
      BASE: `http://127.0.0.1:${chatPort}`,
      F: `http://127.0.0.1:${chatPort + 1}`,
      PLATFORM: token,
      OPENAI_BASE_URL: openai.baseUrl,
      OPENAI_API_KEY: 'sk-walkthrough',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
    });
  }, 90_000);

  afterAll(async () => {
    shell?.close();
    server?.kill('SIGTERM');
    await new Promise((r) => server?.once('exit', r));
    await smtp.stop();
    await openai.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  /** Whether `actual` shows the documented answer: an object or array as a subset, a value as itself. */
  const mismatch = (actual: unknown, expected: unknown): Error | null => {
    try {
      if (typeof expected === 'object' && expected !== null) expect(actual).toMatchObject(expected);
      else expect(actual).toEqual(expected);
      return null;
    } catch (err) {
      return err as Error;
    }
  };

  /** Runs a step; a step that only reads (no -X) is read again while its answer is not there yet. */
  async function runStep(step: Step): Promise<void> {
    const where = `${step.block.file}:${step.line}`;
    const readOnly = !/-X\s|--request\s|-d\s|-F\s/.test(step.code);
    for (let attempt = 0; ; attempt++) {
      const { status, output: out } = await shell.run(step.code);
      const expected = step.expected;
      const statusOk = expected?.fails ? status !== 0 : status === 0;
      const problem = !statusOk
        ? new Error(`exit status ${status}`)
        : expected
          ? mismatch(printed(out), expected.value)
          : null;
      if (!problem) return;
      if (!readOnly || attempt >= 40) {
        throw new Error(`${where}: ${problem.message}\n--- the step:\n${step.code}\n--- printed:\n${out}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  it('every runnable block, in order, answers as documented', async () => {
    let steps = 0;
    for (const file of WALKTHROUGHS) {
      for (const block of blocksOf(file).filter((b) => b.runnable)) {
        for (const step of stepsOf(block)) {
          await runStep(step);
          steps++;
        }
      }
    }
    expect(steps).toBeGreaterThan(40);
    // The documents' e-mails left through the local SMTP server (the invitation of step 3, ...).
    expect(smtp.received.length).toBeGreaterThan(0);
  }, 240_000);
});
