import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** The process entry (`src/server.ts`) run as production runs it, for the tests that stop or kill it. */
export interface ServerProcess {
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
}

export const randomPort = () => 20000 + Math.floor(Math.random() * 30000);

export function startServer(env: Record<string, string>, args: string[] = [], nodeArgs: string[] = []): ServerProcess {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/server.ts', ...args], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** The first answer of `url` once something listens there (connection errors are retried until `timeoutMs`). */
export async function waitFor(url: string, timeoutMs = 20_000): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      return await fetch(url);
    } catch (err) {
      lastError = err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} never answered: ${String(lastError)}`);
}
