/**
 * npm run bench: starts the conversation service (built output, as production runs it) on a fresh
 * SQLite database in a temporary DATA_DIR, seeds 10,000 conversations with messages through the
 * API, then measures with autocannon, one scenario after another:
 *   bare Fastify route (ceiling), GET conversations (25 per page), GET messages, POST message.
 * Prints requests/second and p99 latency of each, and each as a ratio to the bare route.
 * Set BENCH_CONVERSATIONS, BENCH_DURATION (seconds) and BENCH_CONNECTIONS to change the run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 10_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROOT = path.resolve(import.meta.dirname, '..');

function startProcess(cmd: string, args: string[], env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = out.match(ready);
      if (match) {
        child.stdout?.off('data', onData);
        resolve({ child, match });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (c: Buffer) => process.stderr.write(c));
    child.on('exit', (code) => reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}: ${out}`)));
  });
}

async function waitForHealth(url: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not become healthy`);
}

async function api(base: string, token: string, method: string, url: string, body?: unknown) {
  const res = await fetch(base + url, {
    method,
    headers: { api_access_token: token, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} -> ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

async function inBatches(total: number, concurrency: number, task: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        await task(i);
      }
    }),
  );
}

interface Result {
  name: string;
  rps: number;
  p99: number;
  errors: number;
}

async function measure(name: string, options: autocannon.Options): Promise<Result> {
  const result = await autocannon({ duration: DURATION, connections: CONNECTIONS, ...options });
  const errors = result.errors + result.timeouts + result.non2xx;
  return { name, rps: result.requests.average, p99: result.latency.p99, errors };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-bench-'));
  const platformToken = randomBytes(24).toString('base64url');
  const children: ChildProcess[] = [];
  try {
    process.stdout.write('building...\n');
    await new Promise<void>((resolve, reject) => {
      const b = spawn('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
      b.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`build failed (${code})`))));
    });
    const chatPort = String(20000 + Math.floor(Math.random() * 20000));
    const chat = spawn(process.execPath, ['dist/server.js', 'chat'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, CHAT_PORT: chatPort, HOST: '127.0.0.1', PLATFORM_TOKEN: platformToken, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(chat);
    await waitForHealth(`http://127.0.0.1:${chatPort}/health`);
    const bare = await startProcess(process.execPath, ['--import', 'tsx', 'bench/bare-server.ts'], {}, /LISTENING (\S+)/);
    children.push(bare.child);
    const base = `http://127.0.0.1:${chatPort}`;

    // Seed: an account, an administrator, an API inbox, contacts, conversations with a message each.
    process.stdout.write(`seeding ${CONVERSATIONS} conversations...\n`);
    const account = await api(base, platformToken, 'POST', '/platform/api/v1/accounts', { name: 'Bench' });
    const user = await api(base, platformToken, 'POST', '/platform/api/v1/users', {
      name: 'Bench Admin',
      email: `bench-${randomBytes(4).toString('hex')}@example.test`,
      password: 'bench-password',
    });
    await api(base, platformToken, 'POST', `/platform/api/v1/accounts/${account.id}/account_users`, { user_id: user.id, role: 'administrator' });
    const token: string = user.access_token;
    const A = `/api/v1/accounts/${account.id}`;
    const inbox = await api(base, token, 'POST', `${A}/inboxes`, { name: 'Bench inbox', channel: { type: 'api' } });
    const started = Date.now();
    const displayIds: number[] = [];
    await inBatches(CONVERSATIONS, 16, async (i) => {
      const { payload } = await api(base, token, 'POST', `${A}/contacts`, { name: `Contact ${i}`, inbox_id: inbox.id });
      const conversation = await api(base, token, 'POST', `${A}/conversations`, {
        source_id: payload.contact_inbox.source_id,
        inbox_id: inbox.id,
        message: { content: `Hello from contact ${i}` },
      });
      displayIds.push(conversation.id);
      await api(base, token, 'POST', `${A}/conversations/${conversation.id}/messages`, { content: 'Thanks, looking into it', message_type: 'outgoing' });
    });
    process.stdout.write(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

    const pick = () => displayIds[Math.floor(Math.random() * displayIds.length)];
    const headers = { api_access_token: token, 'content-type': 'application/json' };
    const results: Result[] = [];
    results.push(await measure('bare Fastify route', { url: bare.match[1] }));
    results.push(await measure('GET conversations (25/page)', { url: `${base}${A}/conversations?status=all`, headers }));
    results.push(
      await measure('GET messages', {
        url: base,
        headers,
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `${A}/conversations/${pick()}/messages` }) }],
      }),
    );
    results.push(
      await measure('POST message', {
        url: base,
        headers,
        requests: [
          {
            method: 'POST',
            setupRequest: (req) => ({
              ...req,
              path: `${A}/conversations/${pick()}/messages`,
              body: JSON.stringify({ content: 'benchmark reply', message_type: 'outgoing' }),
            }),
          },
        ],
      }),
    );

    const ceiling = results[0].rps;
    const rows = results.map((r) => [
      r.name,
      r.rps.toFixed(0),
      `${r.p99.toFixed(1)} ms`,
      (r.rps / ceiling).toFixed(3),
      String(r.errors),
    ]);
    const header = ['scenario', 'req/s', 'p99', 'ratio to bare', 'errors'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
    const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
    process.stdout.write(`\n${CONNECTIONS} connections, ${DURATION} s per scenario, ${displayIds.length} conversations, node ${process.version}\n`);
    process.stdout.write(`${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${rows.map(line).join('\n')}\n`);
  } finally {
    for (const c of children) c.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
