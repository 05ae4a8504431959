/**
 * What every scenario of the bench uses: child processes, JSON requests, autocannon runs, the
 * memory of a process, and the result table.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const DURATION = Number(process.env.BENCH_DURATION ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

export const randomPort = () => String(20000 + Math.floor(Math.random() * 20000));
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Spawns a process and resolves once its standard output matches `ready`. */
export function startProcess(
  cmd: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
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

/** Polls `url` every `everyMs` until it answers 200; resolves with the milliseconds waited. */
export async function waitForHealth(url: string, timeoutMs = 30_000, everyMs = 200) {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    try {
      if ((await fetch(url)).ok) return performance.now() - started;
    } catch {
      /* not listening yet */
    }
    await sleep(everyMs);
  }
  throw new Error(`${url} did not become healthy`);
}

/** Sends SIGTERM and waits for the process to be gone (the next start takes its instance lock). */
export function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** The conversation service on `env` (DATA_DIR, and CHAT_DATABASE_URL for PostgreSQL). */
export interface ChatServer {
  child: ChildProcess;
  base: string;
  /** Milliseconds from spawn to the first 200 of GET /health. */
  startMs: number;
}

export async function startChat(env: Record<string, string>, pollMs = 200): Promise<ChatServer> {
  const port = randomPort();
  const started = performance.now();
  const child = spawn(process.execPath, ['dist/server.js', 'chat'], {
    cwd: ROOT,
    env: { ...process.env, CHAT_PORT: port, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForHealth(`${base}/health`, 60_000, pollMs);
  return { child, base, startMs: performance.now() - started };
}

/** A JSON request that must succeed; returns the parsed answer. */
export async function request(
  base: string,
  headers: Record<string, string>,
  method: string,
  url: string,
  body?: unknown,
) {
  const res = await fetch(base + url, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} -> ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** The conversation service (token in api_access_token). */
export const api = (base: string, token: string, method: string, url: string, body?: unknown) =>
  request(base, { api_access_token: token }, method, url, body);

export async function inBatches(total: number, concurrency: number, task: (i: number) => Promise<void>) {
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

/** The ceilings a figure is compared with (see ceiling-server.ts). */
export type Ceiling = 'bare' | 'api' | 'insert' | 'page';

export interface Result {
  name: string;
  rps: number;
  p99: number;
  errors: number;
  /** The ceiling this figure is a ratio to; none for the ceilings that have none. */
  ceiling?: Ceiling;
  /** A stable key for targets and flatness (e.g. `conversations@large`). */
  key?: string;
}

/**
 * Runs one scenario for DURATION seconds on CONNECTIONS connections. A few hundred requests go
 * first and are not counted, so that no figure pays for compiling its route's code and preparing
 * its statements (the first of two figures compared with each other would, the second not).
 */
export async function measure(
  name: string,
  options: autocannon.Options,
  extra: Pick<Result, 'ceiling' | 'key'> = {},
): Promise<Result> {
  await autocannon({ connections: 2, amount: 300, ...options });
  const result = await autocannon({ duration: DURATION, connections: CONNECTIONS, ...options });
  const errors = result.errors + result.timeouts + result.non2xx;
  return { name, rps: result.requests.average, p99: result.latency.p99, errors, ...extra };
}

/** Resident set size now and its peak (VmRSS, VmHWM) of a process, in MB; null once it is gone. */
export function memoryOf(pid: number | undefined): { rssMb: number; peakMb: number } | null {
  if (pid === undefined) return null;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** A plain text table, columns padded to their widest cell. */
export function table(header: string[], rows: string[][]) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
  return `${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${rows.map(line).join('\n')}\n`;
}

/** The results with each figure's ratio to its own ceiling (`ceilings` holds their req/s). */
export function resultTable(results: Result[], ceilings: Partial<Record<Ceiling, number>>) {
  const rows = results.map((r) => {
    const ceiling = r.ceiling ? ceilings[r.ceiling] : undefined;
    return [
      r.name,
      r.rps.toFixed(0),
      `${r.p99.toFixed(1)} ms`,
      r.ceiling ?? '',
      ceiling ? (r.rps / ceiling).toFixed(3) : '',
      String(r.errors),
    ];
  });
  return table(['scenario', 'req/s', 'p99', 'ceiling', 'ratio', 'errors'], rows);
}
