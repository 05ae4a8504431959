import http from 'node:http';
import { loadConfig } from './config.js';

/**
 * The container's health check (Dockerfile HEALTHCHECK): `node dist/healthcheck.js [all|chat|finance]`
 * asks `/health` of each service the server runs, on the ports and host the same environment gives
 * it (CHAT_PORT, FINANCE_PORT, HOST), and exits 0 only when every one answers 200 within 4 seconds.
 * Each failure is one line naming the service and its port.
 */

const TIMEOUT_MS = 4_000;

/** Where to reach a service bound to `host` from the same machine. */
const reachable = (host: string) => (host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '::1' : host);

function health(host: string, port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const req = http.get({ host, port, path: '/health', timeout: TIMEOUT_MS }, (res) => {
      res.resume();
      resolve(res.statusCode === 200 ? null : `answered ${res.statusCode}`);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

async function main(): Promise<number> {
  const which = process.argv[2] ?? 'all';
  if (!['all', 'chat', 'finance'].includes(which)) {
    process.stderr.write('usage: healthcheck.js [all|chat|finance]\n');
    return 2;
  }
  const config = loadConfig();
  const host = reachable(config.host);
  const services: [string, string, number][] = [];
  if (which !== 'finance') services.push(['conversation service', 'CHAT_PORT', config.chat.port]);
  if (which !== 'chat') services.push(['finance service', 'FINANCE_PORT', config.finance.port]);
  const problems = (
    await Promise.all(
      services.map(async ([name, variable, port]) => {
        const problem = await health(host, port);
        return problem && `${name} (${variable} ${port}) unhealthy: ${problem}`;
      }),
    )
  ).filter((p): p is string => !!p);
  for (const p of problems) process.stderr.write(`${p}\n`);
  return problems.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
