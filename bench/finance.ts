/**
 * The finance service on its own SQLite database (see measureFinance).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { inBatches, measure, request, ROOT, waitForHealth, type Result } from './harness.js';

const TRANSACTIONS = Number(process.env.BENCH_TRANSACTIONS ?? 10_000);

/** The finance service (Bearer token, when there is one); returns `data` of the envelope. */
const financeApi = async (base: string, token: string | null, method: string, url: string, body?: unknown) =>
  (await request(base, token ? { authorization: `Bearer ${token}` } : {}, method, url, body)).data;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The finance service: setup, then TRANSACTIONS transactions spread over the last year and 2,000
 * open bills due around today (so the daily job has alerts to create), then the scenarios.
 */
export async function measureFinance(dataDir: string, children: ChildProcess[]) {
  const port = String(20000 + Math.floor(Math.random() * 20000));
  const child = spawn(process.execPath, ['dist/server.js', 'finance'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, FINANCE_PORT: port, HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  await waitForHealth(`${base}/health`);
  const session = await financeApi(base, null, 'POST', '/api/auth/setup', {
    email: 'bench@example.test',
    password: 'bench-password',
    fullName: 'Bench Owner',
    companyName: 'Bench Co',
  });
  const token: string = session.accessToken;
  process.stdout.write(`seeding ${TRANSACTIONS} finance transactions and 2,000 bills...\n`);
  const started = Date.now();
  const today = Date.now();
  await inBatches(TRANSACTIONS, 16, async (i) => {
    await financeApi(base, token, 'POST', '/api/transactions', {
      kind: i % 3 === 0 ? 'expense' : 'income',
      amount: 10 + (i % 500) + 0.25,
      date: isoDay(today - (i % 365) * 86_400_000),
      category: ['sales', 'rent', 'fees', 'services'][i % 4],
      description: `Bench transaction ${i}`,
    });
  });
  await inBatches(2000, 16, async (i) => {
    await financeApi(base, token, 'POST', '/api/bills', {
      supplier: `Supplier ${i % 50}`,
      amount: 100 + (i % 90),
      dueDate: isoDay(today + ((i % 20) - 10) * 86_400_000),
    });
  });
  process.stdout.write(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const results: Result[] = [];
  results.push(
    await measure(
      'finance GET transactions (20/page)',
      { url: `${base}/api/transactions`, headers },
      { ceiling: 'page' },
    ),
  );
  const from = isoDay(today - 90 * 86_400_000);
  results.push(
    await measure(
      'finance GET transactions, 90 days, expenses',
      {
        url: `${base}/api/transactions?from=${from}&kind=expense`,
        headers,
      },
      { ceiling: 'page' },
    ),
  );
  results.push(
    await measure(
      'finance POST transaction',
      {
        url: `${base}/api/transactions`,
        method: 'POST',
        headers,
        body: JSON.stringify({ kind: 'income', amount: 99.9, date: isoDay(today), category: 'sales' }),
      },
      { ceiling: 'insert' },
    ),
  );
  const jobStarted = performance.now();
  const job = await financeApi(base, token, 'POST', '/api/notifications/run-daily-job');
  const jobMs = performance.now() - jobStarted;
  results.push(
    await measure(
      'finance GET notifications (20/page)',
      { url: `${base}/api/notifications`, headers },
      { ceiling: 'page' },
    ),
  );
  return { results, job: { ...job, ms: jobMs } };
}
