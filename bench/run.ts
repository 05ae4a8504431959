/**
 * npm run bench: measures the conversation service as production runs it (the built dist/server.js)
 * against ceilings measured in the same run on the same machine, and checks the performance targets.
 *
 *  1. Cold start (core.ts): `node dist/server.js chat` on a fresh DATA_DIR, then on the migrated one,
 *     from spawn to the first 200 of GET /health.
 *  2. Ceilings (ceiling-server.ts): a bare Fastify GET, one durable better-sqlite3 INSERT per request
 *     (WAL, synchronous=FULL), one indexed page of 25 of 100,000 rows.
 *  3. The service on SQLite in a temporary DATA_DIR: two accounts created through the API, then,
 *     with the service stopped, seeded straight into its database (seed.ts): a small account of
 *     BENCH_SMALL_CONVERSATIONS (1,000) and a large one of BENCH_LARGE_CONVERSATIONS (100,000)
 *     conversations, each with a contact, a contact inbox and BENCH_MESSAGES_PER_CONVERSATION (10)
 *     messages, plus the large account's reporting events and SLAs (reports.ts). The service
 *     starts again on the seeded database and is measured with autocannon (core.ts): GET /api,
 *     GET /api/v1/profile, GET conversations, conversations/meta, conversations/filter, contacts and
 *     contacts/search on each account (the ratio of their p99s is the flatness), GET messages and
 *     POST message on the large account. Its peak resident memory (VmHWM) is read after them.
 *  4. Then, on the same service: the sales pipeline's cards at 1,000 and 100,000 and lead scoring's
 *     bulk recalculation (pipelines.ts), SLA and reports over the large account (reports.ts),
 *     webhook throughput and commit-to-receipt latency (webhooks.ts); then the finance service on
 *     its own database (finance.ts).
 *  5. With BENCH_DATABASE_URL=postgres://..., step 3's scenarios again on a service whose
 *     CHAT_DATABASE_URL points at a fresh schema of that database (dropped at the end).
 * Every figure prints with its ratio to its own ceiling: writes to the durable insert, reads to the
 * page read, GET /api to the bare route, GET /api/v1/profile to GET /api. Then one line per target,
 * met or NOT met (targets.ts).
 * BENCH_DURATION (seconds per scenario, 10) and BENCH_CONNECTIONS (10) set the load; the sizes
 * above, BENCH_LEAD_CARDS, BENCH_WEBHOOK_EVENTS, BENCH_WEBHOOK_PACED and BENCH_TRANSACTIONS scale it down.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChatDatabase } from '../src/chat/db/schema.js';
import { dropPostgresSchema, openDatabase, type OpenOptions } from '../src/core/db/database.js';
import { flatness, measureCeilings, measureColdStart, measurePonte } from './core.js';
import { measureFinance } from './finance.js';
import {
  CONNECTIONS,
  DURATION,
  memoryOf,
  resultTable,
  ROOT,
  startChat,
  startProcess,
  stopProcess,
  table,
  type Ceiling,
  type ChatServer,
  type Result,
} from './harness.js';
import { measureLeadScoring, measurePipelineCards } from './pipelines.js';
import { measureSlaReports, prepareSlaReports, seedSlaReports } from './reports.js';
import { checkSeed, createAccount, seedConversations, type BenchAccount } from './seed.js';
import { checkTargets, formatTargets, type Figures } from './targets.js';
import { measureWebhooks } from './webhooks.js';

const SMALL = Number(process.env.BENCH_SMALL_CONVERSATIONS ?? 1_000);
const LARGE = Number(process.env.BENCH_LARGE_CONVERSATIONS ?? 100_000);
const MESSAGES_PER = Number(process.env.BENCH_MESSAGES_PER_CONVERSATION ?? 10);
const PG_URL = process.env.BENCH_DATABASE_URL ?? '';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const log = (line: string) => process.stdout.write(`${line}\n`);

interface Seeded {
  server: ChatServer;
  small: BenchAccount;
  large: BenchAccount;
}

/**
 * Starts the service on `env`, creates the two accounts through the API, stops it, seeds both
 * straight into `databaseUrl` (no second writer: SQLite's file is the service's own) and starts it
 * again, so it plans its queries, as after any restart, with the seeded rows in place.
 */
async function seededChat(
  env: Record<string, string>,
  databaseUrl: string,
  openOptions: OpenOptions,
  children: ChildProcess[],
  sqliteDataDir: string | null,
): Promise<Seeded> {
  let server = await startChat(env);
  children.push(server.child);
  const small = await createAccount(server.base, env.PLATFORM_TOKEN, 'Bench small');
  const large = await createAccount(server.base, env.PLATFORM_TOKEN, 'Bench large');
  const policyId = sqliteDataDir ? await prepareSlaReports(server.base, env.PLATFORM_TOKEN, large) : null;
  await stopProcess(server.child);

  log(
    `seeding ${SMALL} and ${LARGE} conversations with ${MESSAGES_PER} messages each` +
      `${sqliteDataDir ? ' (and the large account reporting events and SLAs)' : ''}...`,
  );
  const started = performance.now();
  const database = await openDatabase<ChatDatabase>(databaseUrl, openOptions);
  try {
    await seedConversations(database, small, SMALL, MESSAGES_PER);
    await seedConversations(database, large, LARGE, MESSAGES_PER);
  } finally {
    await database.close();
  }
  if (sqliteDataDir && policyId !== null) seedSlaReports(sqliteDataDir, large, policyId);
  log(`seeded in ${seconds(performance.now() - started)}`);

  server = await startChat(env);
  children.push(server.child);
  log(`restarted on the seeded database in ${server.startMs.toFixed(0)} ms`);
  for (const account of [small, large]) await checkSeed(server.base, account, MESSAGES_PER);
  return { server, small, large };
}

function ceilingsOf(ceilingResults: Result[], ponte: Result[]): Record<Ceiling, number> {
  const rps = (results: Result[], key: string) => results.find((r) => r.key === key)!.rps;
  return {
    bare: rps(ceilingResults, 'bare'),
    insert: rps(ceilingResults, 'insert'),
    page: rps(ceilingResults, 'page'),
    api: rps(ponte, 'api'),
  };
}

function flatnessTable(results: Result[]) {
  const rows = flatness(results).map((f) => [
    f.kind,
    `${f.small.toFixed(1)} ms`,
    `${f.large.toFixed(1)} ms`,
    `${f.ratio.toFixed(2)}x`,
  ]);
  return table(
    ['flatness', `p99 ${SMALL.toLocaleString('en-US')}`, `p99 ${LARGE.toLocaleString('en-US')}`, 'ratio'],
    rows,
  );
}

/** Step 5: the core scenarios on PostgreSQL, in a schema of their own. */
async function runPostgres(platformToken: string, children: ChildProcess[]) {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-bench-pg-'));
  const serverUrl = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  // Creates the schema, so that the service's migrations have somewhere to go.
  await (await openDatabase(PG_URL, { schema })).close();
  try {
    log(`\nPostgreSQL (${PG_URL.replace(/\/\/[^@/]*@/, '//')}, schema ${schema}):`);
    const env = { DATA_DIR: dataDir, CHAT_DATABASE_URL: serverUrl, PLATFORM_TOKEN: platformToken };
    const { server, small, large } = await seededChat(env, PG_URL, { schema }, children, null);
    try {
      const results = await measurePonte(server.base, small, large);
      return { results, peakRssMb: memoryOf(server.child.pid)?.peakMb };
    } finally {
      await stopProcess(server.child);
    }
  } finally {
    await dropPostgresSchema(PG_URL, schema);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function build() {
  log('building...');
  await new Promise<void>((resolve, reject) => {
    const b = spawn('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
    b.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`build failed (${code})`))));
  });
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-bench-'));
  const platformToken = randomBytes(24).toString('base64url');
  const children: ChildProcess[] = [];
  const runStarted = performance.now();
  try {
    await build();
    log('cold start...');
    const coldStart = await measureColdStart();
    const ceilingServer = await startProcess(
      process.execPath,
      ['--import', 'tsx', 'bench/ceiling-server.ts'],
      {},
      /LISTENING (\S+)/,
    );
    children.push(ceilingServer.child);

    const env = { DATA_DIR: dataDir, PLATFORM_TOKEN: platformToken, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' };
    const { server, small, large } = await seededChat(
      env,
      `sqlite://${path.join(dataDir, 'chat.sqlite')}`,
      {},
      children,
      dataDir,
    );
    const { base } = server;
    log('measuring the ceilings and the core scenarios...');
    const ceilingResults = await measureCeilings(ceilingServer.match[1]);
    const ponte = await measurePonte(base, small, large);
    const peakRssMb = memoryOf(server.child.pid)?.peakMb;

    log('the sales pipeline, lead scoring, SLA and reports...');
    const extras: Result[] = [];
    extras.push(...(await measurePipelineCards(base, small.token, small.id, dataDir, small.userId)));
    const scoring = await measureLeadScoring(base, platformToken, dataDir);
    extras.push(...(await measureSlaReports(base, large)));
    const displayIds = Array.from({ length: small.conversations }, (_, i) => i + 1);
    const webhook = await measureWebhooks(base, small.token, small.A, displayIds, dataDir);
    const peakRssAllMb = memoryOf(server.child.pid)?.peakMb;
    await stopProcess(server.child);
    const finance = await measureFinance(dataDir, children);
    extras.push(...finance.results);
    const postgres = PG_URL ? await runPostgres(platformToken, children) : null;

    const ceilings = ceilingsOf(ceilingResults, ponte);
    log(
      `\n${CONNECTIONS} connections, ${DURATION} s per scenario, ${SMALL} and ${LARGE} conversations ` +
        `(${MESSAGES_PER} messages each), node ${process.version}, ${os.cpus().length} CPUs, ` +
        `whole run ${seconds(performance.now() - runStarted)}`,
    );
    log(`\nSQLite\n${resultTable([...ceilingResults, ...ponte, ...extras], ceilings)}`);
    log(flatnessTable(ponte));
    const mb = (value: number | undefined) => (value === undefined ? '?' : `${value.toFixed(0)} MB`);
    log(
      `chat server resident memory: peak ${mb(peakRssMb)} over the core scenarios, ` +
        `${mb(peakRssAllMb)} by the end of the webhooks (VmHWM)`,
    );
    log(
      `cold start to the first 200 of GET /health: ${coldStart.freshMs.toFixed(0)} ms on a fresh DATA_DIR, ` +
        `${coldStart.existingMs.toFixed(0)} ms on a migrated one`,
    );
    const { burst, paced } = webhook;
    log(
      `\nwebhooks (message_created to a local receiver):\n` +
        `  throughput: a backlog of ${burst.events} deliveries drained at ${burst.perSecond.toFixed(0)}/s ` +
        `(from its release to the last receipt)\n` +
        `  latency: ${paced.events} events at a steady pace, median commit-to-receipt ${paced.medianMs.toFixed(1)} ms, p99 ${paced.p99Ms.toFixed(1)} ms`,
    );
    log(
      `\nlead scoring bulk_recalculate: ${scoring.cards} cards (3 stored events each, default rules) ` +
        `${scoring.status} in ${seconds(scoring.ms)}`,
    );
    const { job } = finance;
    log(
      `\nfinance daily job over 2,000 open bills: ${job.ms.toFixed(0)} ms ` +
        `(${job.billDueSoon} due-soon and ${job.billOverdue} overdue notifications created)`,
    );
    const sqliteFigures: Figures = {
      results: ponte,
      ceilings,
      webhooks: { burstPerSecond: burst.perSecond, pacedMedianMs: paced.medianMs },
      coldStart,
      peakRssMb,
    };
    let targets = formatTargets(checkTargets(sqliteFigures), postgres ? '[sqlite] ' : '');
    if (postgres) {
      const pgCeilings = ceilingsOf(ceilingResults, postgres.results);
      log(
        `\nPostgreSQL (ratios to the same SQLite ceilings; GET /api/v1/profile to this service's GET /api)\n` +
          resultTable(postgres.results, pgCeilings),
      );
      log(flatnessTable(postgres.results));
      log(`chat server resident memory on PostgreSQL: peak ${mb(postgres.peakRssMb)} (VmHWM)`);
      const figures = { results: postgres.results, ceilings: pgCeilings, peakRssMb: postgres.peakRssMb };
      targets += formatTargets(checkTargets(figures), '[postgresql] ');
    }
    log(`\n${targets}`);
  } finally {
    for (const c of children) c.kill('SIGTERM');
    if (process.env.BENCH_KEEP_DATA) log(`kept ${dataDir} (BENCH_KEEP_DATA)`);
    else fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
