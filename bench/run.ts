/**
 * npm run bench: starts the conversation service (built output, as production runs it) on a fresh
 * SQLite database in a temporary DATA_DIR, seeds 10,000 conversations with messages through the
 * API, then measures with autocannon, one scenario after another:
 *   bare Fastify route (ceiling), GET conversations (25 per page), GET messages, POST message,
 *   and the sales pipeline's card list at 1,000 and at 100,000 cards (see measurePipelineCards).
 * Prints requests/second and p99 latency of each, and each as a ratio to the bare route. Then
 * webhook throughput and latency (see measureWebhooks), with a webhook on
 * message_created pointing at a local receiver; events per second from the first commit to the
 * last receipt, and the median commit-to-receipt latency (receipt time minus the message's
 * created_at, which is stamped inside the committing transaction).
 * Then the finance service on its own SQLite database: 10,000 transactions and 2,000 bills seeded
 * through its API, GET transactions (20 per page, and filtered by period and kind), POST
 * transaction, GET notifications, and one run of the daily job over the bills.
 * Then SLA and reports over 100,000 conversations and 1,000,000 messages (see measureSlaReports).
 * Set BENCH_CONVERSATIONS, BENCH_TRANSACTIONS, BENCH_DURATION (seconds) and BENCH_CONNECTIONS to change the run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 10_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WEBHOOK_EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 2000);
const WEBHOOK_PACED = Number(process.env.BENCH_WEBHOOK_PACED ?? 200);
const TRANSACTIONS = Number(process.env.BENCH_TRANSACTIONS ?? 10_000);
const ROOT = path.resolve(import.meta.dirname, '..');

function startProcess(
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

/** A JSON request that must succeed; returns the parsed answer. */
async function request(base: string, headers: Record<string, string>, method: string, url: string, body?: unknown) {
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
const api = (base: string, token: string, method: string, url: string, body?: unknown) =>
  request(base, { api_access_token: token }, method, url, body);

/** The finance service (Bearer token, when there is one); returns `data` of the envelope. */
const financeApi = async (base: string, token: string | null, method: string, url: string, body?: unknown) =>
  (await request(base, token ? { authorization: `Bearer ${token}` } : {}, method, url, body)).data;

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

/**
 * Waits until the service has dispatched every recorded event (the seeding and the POST scenario
 * leave a backlog), reading its SQLite file directly, so the webhook phases measure only their own.
 */
async function waitForOutboxDrained(dataDir: string) {
  const db = new Database(path.join(dataDir, 'chat.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const pending = db.prepare('select count(*) as n from outbox_events where dispatched_at is null');
    for (let i = 0; i < 600; i++) {
      if ((pending.get() as { n: number }).n === 0) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('the outbox did not drain in 120 s');
  } finally {
    db.close();
  }
}

/**
 * Webhook throughput and latency, against a receiver in this process. Throughput: a burst of
 * messages posted as fast as the API takes them, deliveries per second from the first commit to
 * the last receipt. Latency: messages posted one every 20 ms (a steady load, no backlog), the
 * median and p99 of receipt time minus the message's created_at (stamped inside the committing
 * transaction).
 */
async function measureWebhooks(base: string, token: string, A: string, displayIds: number[], dataDir: string) {
  let arrivals: { at: number; createdAt: number }[] = [];
  let expected = 0;
  // Only this phase's messages count: events of earlier scenarios may still be in the queue.
  let tag = '';
  let done: () => void = () => undefined;
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const at = Date.now();
      const payload = JSON.parse(body) as { created_at: string; content: string };
      res.writeHead(200).end();
      if (!payload.content.startsWith(tag)) return;
      arrivals.push({ at, createdAt: Date.parse(payload.created_at) });
      if (arrivals.length >= expected) done();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as import('node:net').AddressInfo).port;
  const phase = async (name: string, count: number, concurrency: number, pauseMs: number) => {
    await waitForOutboxDrained(dataDir);
    arrivals = [];
    expected = count;
    tag = `webhook bench ${name} `;
    const all = new Promise<void>((resolve) => (done = resolve));
    await inBatches(count, concurrency, async (i) => {
      const id = displayIds[i % displayIds.length];
      await api(base, token, 'POST', `${A}/conversations/${id}/messages`, { content: `${tag}${i}` });
      if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
    });
    await Promise.race([
      all,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('webhook deliveries did not all arrive in 180 s')), 180_000),
      ),
    ]);
    const latencies = arrivals.map((a) => a.at - a.createdAt).sort((a, b) => a - b);
    const first = Math.min(...arrivals.map((a) => a.createdAt));
    const last = Math.max(...arrivals.map((a) => a.at));
    return {
      events: arrivals.length,
      perSecond: arrivals.length / ((last - first) / 1000),
      medianMs: latencies[Math.floor(latencies.length / 2)],
      p99Ms: latencies[Math.floor(latencies.length * 0.99)],
    };
  };
  try {
    await api(base, token, 'POST', `${A}/webhooks`, {
      url: `http://127.0.0.1:${port}/hook`,
      subscriptions: ['message_created'],
    });
    process.stdout.write(
      `webhooks: a burst of ${WEBHOOK_EVENTS} messages, then ${WEBHOOK_PACED} at a steady pace...\n`,
    );
    const burst = await phase('burst', WEBHOOK_EVENTS, 16, 0);
    const paced = await phase('paced', WEBHOOK_PACED, 1, 20);
    return { burst, paced };
  } finally {
    receiver.close();
  }
}

/**
 * The card list of the sales pipeline at 1,000 and at 100,000 cards: a pipeline of five stages is
 * created through the API, its cards are inserted straight into the service's SQLite file through
 * the module's repository (the API would take minutes for 100,000), then the same requests are
 * measured at both sizes: the pipeline's first page (25), and one stage's open cards.
 */
async function measurePipelineCards(base: string, token: string, accountId: number, dataDir: string, adminId: number) {
  const A = `/api/v1/accounts/${accountId}`;
  const { openDatabase } = await import('../src/core/db/database.js');
  const { insertCards } = await import('../src/chat/modules/pipelines/pipeline-cards.repository.js');
  const stages = Object.fromEntries(
    ['Lead', 'Qualified', 'Proposal', 'Negotiation', 'Closing'].map((name, i) => [`s${i}`, { name, position: i + 1 }]),
  );
  const pipeline = (await api(base, token, 'POST', `${A}/pipelines`, { name: 'Bench pipeline', stages })).data;
  const stageRows = new Map<string, number>();
  const database = await openDatabase<import('../src/chat/db/schema.js').ChatDatabase>(
    `sqlite://${path.join(dataDir, 'chat.sqlite')}`,
  );
  for (const row of await database.db
    .selectFrom('pipeline_stages')
    .select(['id', 'key'])
    .where('pipeline_id', '=', pipeline.id)
    .execute())
    stageRows.set(row.key, row.id);
  const stageIds = pipeline.stages.map((s: { id: string }) => stageRows.get(s.id)!);
  let seeded = 0;
  const seed = async (total: number) => {
    const now = Date.now();
    while (seeded < total) {
      await database.db.transaction().execute(async (trx) => {
        for (let batch = 0; batch < 10 && seeded < total; batch++) {
          const rows = [];
          for (let i = 0; i < 500 && seeded < total; i++, seeded++) {
            const stage = seeded % stageIds.length;
            rows.push({
              account_id: accountId,
              pipeline_id: pipeline.id,
              stage_id: stageIds[stage],
              title: `Bench deal ${seeded}`,
              item_title: null,
              value_minor: 10_000 + (seeded % 1000) * 100,
              currency: 'BRL',
              status: (seeded % 10 === 0 ? 'won' : seeded % 15 === 0 ? 'lost' : 'open') as 'open',
              position: Math.floor(seeded / stageIds.length),
              stage_version: 1,
              stage_entered_at: now,
              contact_id: null,
              conversation_id: null,
              owner_id: seeded % 4 === 0 ? adminId : null,
              expected_close_date: null,
              custom_attributes: '{}',
              qualification_checklist: '{}',
              lead_score: seeded % 101,
              lead_score_overridden: 0,
              won_note: null,
              lost_reason: null,
              closed_at: null,
              deleted_at: null,
              created_by: adminId,
              created_at: now,
              updated_at: now,
            });
          }
          await insertCards(trx, rows);
        }
      });
    }
  };
  const headers = { api_access_token: token, 'content-type': 'application/json' };
  const scenarios = (size: string) => [
    [`GET pipeline_cards, pipeline, 25/page (${size})`, `${base}${A}/pipeline_cards?pipeline_id=${pipeline.id}`],
    [
      `GET pipeline_cards, stage + open (${size})`,
      `${base}${A}/pipeline_cards?stage_id=${pipeline.stages[2].id}&status=open`,
    ],
  ];
  const results: Result[] = [];
  try {
    for (const [size, total] of [
      ['1,000 cards', 1_000],
      ['100,000 cards', 100_000],
    ] as const) {
      process.stdout.write(`seeding the pipeline to ${total} cards...\n`);
      await seed(total);
      for (const [name, url] of scenarios(size)) results.push(await measure(name, { url, headers }));
    }
  } finally {
    await database.close();
  }
  return results;
}

/**
 * Lead scoring's bulk recalculation over 10,000 cards (BENCH_LEAD_CARDS): an account of its own with
 * the default rules (through the API), cards and three stored events per card inserted straight
 * into the database, then `bulk_recalculate` through the API, timed from the request to the moment
 * its progress endpoint says completed (the server's job runner does the work, in batches).
 */
async function measureLeadScoring(base: string, platformToken: string, dataDir: string) {
  const total = Number(process.env.BENCH_LEAD_CARDS ?? 10_000);
  const { openDatabase } = await import('../src/core/db/database.js');
  const { insertCards } = await import('../src/chat/modules/pipelines/pipeline-cards.repository.js');
  const account = await api(base, platformToken, 'POST', '/platform/api/v1/accounts', { name: 'Bench scoring' });
  const user = await api(base, platformToken, 'POST', '/platform/api/v1/users', {
    name: 'Scoring Admin',
    email: `bench-scoring-${randomBytes(4).toString('hex')}@example.test`,
    password: 'bench-password',
  });
  await api(base, platformToken, 'POST', `/platform/api/v1/accounts/${account.id}/account_users`, {
    user_id: user.id,
    role: 'administrator',
  });
  const token: string = user.access_token;
  const A = `/api/v1/accounts/${account.id}`;
  await api(base, token, 'POST', `${A}/lead_score_rules/create_defaults`);
  const stages = { a: { name: 'Lead' }, b: { name: 'Proposal' } };
  const pipeline = (await api(base, token, 'POST', `${A}/pipelines`, { name: 'Scoring pipeline', stages })).data;
  const database = await openDatabase<import('../src/chat/db/schema.js').ChatDatabase>(
    `sqlite://${path.join(dataDir, 'chat.sqlite')}`,
  );
  try {
    const stage = await database.db
      .selectFrom('pipeline_stages')
      .select('id')
      .where('pipeline_id', '=', pipeline.id)
      .orderBy('position')
      .executeTakeFirstOrThrow();
    process.stdout.write(`seeding ${total} scored cards...\n`);
    const now = Date.now();
    for (let done = 0; done < total;) {
      await database.db.transaction().execute(async (trx) => {
        const rows = [];
        for (let i = 0; i < 500 && done < total; i++, done++) {
          rows.push({
            account_id: account.id,
            pipeline_id: pipeline.id,
            stage_id: stage.id,
            title: `Scored deal ${done}`,
            item_title: null,
            value_minor: (done % 3 === 0 ? 2_000_000 : 50_000) as number,
            currency: 'BRL',
            status: 'open' as const,
            position: done,
            stage_version: 1,
            stage_entered_at: now,
            contact_id: null,
            conversation_id: null,
            owner_id: null,
            expected_close_date: null,
            custom_attributes: '{}',
            qualification_checklist: '{}',
            lead_score: 0,
            lead_score_overridden: 0,
            won_note: null,
            lost_reason: null,
            closed_at: null,
            deleted_at: null,
            created_by: user.id,
            created_at: now,
            updated_at: now,
          });
        }
        await insertCards(trx, rows);
        const cards = await trx
          .selectFrom('pipeline_cards')
          .select('id')
          .where('account_id', '=', account.id)
          .orderBy('id', 'desc')
          .limit(rows.length)
          .execute();
        const events = cards.flatMap((card, i) =>
          (['card_created', 'message_received', 'stage_changed'] as const).map((type, k) => ({
            account_id: account.id,
            card_id: card.id,
            event_key: `bench:${card.id}:${k}`,
            event_type: type,
            event_subtype: null,
            attributes: JSON.stringify({ value: i % 3 === 0 ? 20_000 : 500, pipeline_id: pipeline.id }),
            contact_id: null,
            conversation_id: null,
            occurred_at: now + k * 1000,
            created_at: now,
          })),
        );
        await trx.insertInto('lead_score_events').values(events).execute();
      });
    }
  } finally {
    await database.close();
  }
  const started = Date.now();
  const job = (await api(base, token, 'POST', `${A}/lead_score/reports/bulk_recalculate`)).data;
  let progress = job;
  while (progress.status !== 'completed' && progress.status !== 'failed') {
    await new Promise((r) => setTimeout(r, 200));
    progress = (await api(base, token, 'GET', `${A}/lead_score/reports/bulk_recalculate/${job.job_id}`)).data;
  }
  return { cards: progress.processed as number, status: progress.status as string, ms: Date.now() - started };
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The finance service: setup, then TRANSACTIONS transactions spread over the last year and 2,000
 * open bills due around today (so the daily job has alerts to create), then the scenarios.
 */
async function measureFinance(dataDir: string, children: ChildProcess[]) {
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
  results.push(await measure('finance GET transactions (20/page)', { url: `${base}/api/transactions`, headers }));
  const from = isoDay(today - 90 * 86_400_000);
  results.push(
    await measure('finance GET transactions, 90 days, expenses', {
      url: `${base}/api/transactions?from=${from}&kind=expense`,
      headers,
    }),
  );
  results.push(
    await measure('finance POST transaction', {
      url: `${base}/api/transactions`,
      method: 'POST',
      headers,
      body: JSON.stringify({ kind: 'income', amount: 99.9, date: isoDay(today), category: 'sales' }),
    }),
  );
  const jobStarted = performance.now();
  const job = await financeApi(base, token, 'POST', '/api/notifications/run-daily-job');
  const jobMs = performance.now() - jobStarted;
  results.push(await measure('finance GET notifications (20/page)', { url: `${base}/api/notifications`, headers }));
  return { results, job: { ...job, ms: jobMs } };
}

/**
 * SLA and reports at scale (BENCH_REPORT_CONVERSATIONS, default 100,000, ten messages each): an
 * Enterprise account of its own, then conversations, 1,000,000 messages, their reporting events and
 * an applied SLA per conversation (a fifth of them breached) inserted straight into the database over
 * the last 90 days. Measures reports/summary over the last 30 days and applied_slas/metrics.
 */
async function measureSlaReports(base: string, platformToken: string, dataDir: string): Promise<Result[]> {
  const total = Number(process.env.BENCH_REPORT_CONVERSATIONS ?? 100_000);
  const account = await api(base, platformToken, 'POST', '/platform/api/v1/accounts', { name: 'Bench SLA' });
  await api(base, platformToken, 'PATCH', `/platform/api/v1/accounts/${account.id}`, { plan: 'enterprise' });
  const user = await api(base, platformToken, 'POST', '/platform/api/v1/users', {
    name: 'SLA Admin',
    email: `bench-sla-${randomBytes(4).toString('hex')}@example.test`,
    password: 'bench-password',
  });
  await api(base, platformToken, 'POST', `/platform/api/v1/accounts/${account.id}/account_users`, {
    user_id: user.id,
    role: 'administrator',
  });
  const token: string = user.access_token;
  const A = `/api/v1/accounts/${account.id}`;
  const inbox = await api(base, token, 'POST', `${A}/inboxes`, { name: 'SLA inbox', channel: { type: 'api' } });
  const contact = (await api(base, token, 'POST', `${A}/contacts`, { name: 'SLA contact', inbox_id: inbox.id })).payload
    .contact;
  const policy = await api(base, token, 'POST', `${A}/sla_policies`, {
    name: 'Bench SLA',
    first_response_time_threshold: 3600,
    resolution_time_threshold: 86400,
  });
  const now = Date.now();
  const span = 90 * 86_400_000;
  process.stdout.write(`seeding ${total} conversations, ${total * 10} messages, their reporting events and SLAs...\n`);
  const started = Date.now();
  // Rows generated by SQL itself (a recursive counter), so seeding costs what the inserts and indexes cost.
  const sqlite = new Database(path.join(dataDir, 'chat.sqlite'));
  sqlite.pragma('busy_timeout = 30000');
  const p = {
    account: account.id,
    inbox: inbox.id,
    contact: contact.id,
    user: user.id,
    policy: policy.id,
    total,
    now,
    span,
  };
  try {
    sqlite.transaction(() => {
      const { n } = sqlite
        .prepare('SELECT COALESCE(MAX(display_id), 0) AS n FROM conversations WHERE account_id = ?')
        .get(p.account) as { n: number };
      if (n !== 0) throw new Error('the bench account already has conversations');
      sqlite
        .prepare(
          `WITH RECURSIVE seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < @total - 1)
        INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, status, additional_attributes,
          custom_attributes, muted, last_activity_at, first_reply_created_at, created_at, updated_at)
        SELECT @account, i + 1, 'bench-' || i, @inbox, @contact, CASE WHEN i % 3 = 0 THEN 'open' ELSE 'resolved' END,
          '{}', '{}', 0, @now - @span + (i * @span) / @total, @now - @span + (i * @span) / @total + 600000,
          @now - @span + (i * @span) / @total, @now - @span + (i * @span) / @total FROM seq`,
        )
        .run(p);
      sqlite
        .prepare(
          `WITH RECURSIVE m(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM m WHERE k < 9)
        INSERT INTO messages (account_id, conversation_id, inbox_id, content, message_type, content_type, content_attributes,
          additional_attributes, private, status, sender_type, sender_id, created_at, updated_at)
        SELECT @account, c.id, @inbox, 'Message ' || m.k, m.k % 2, 'text', '{}', '{}', 0, 'sent',
          CASE WHEN m.k % 2 = 0 THEN 'Contact' ELSE 'User' END, CASE WHEN m.k % 2 = 0 THEN @contact ELSE @user END,
          c.created_at + m.k * 60000, c.created_at + m.k * 60000
        FROM conversations c, m WHERE c.account_id = @account`,
        )
        .run(p);
      const event = (name: string, value: string, start: string, end: string, from: string) =>
        sqlite
          .prepare(
            `INSERT INTO reporting_events (account_id, name, value, conversation_id, display_id, inbox_id,
            event_start, event_end, created_at)
          SELECT @account, '${name}', ${value}, c.id, c.display_id, @inbox, ${start}, ${end}, ${end} ${from}`,
          )
          .run(p);
      event(
        'conversation_created',
        'NULL',
        'c.created_at',
        'c.created_at',
        'FROM conversations c WHERE c.account_id = @account',
      );
      event(
        'first_response',
        '60',
        'c.created_at',
        'c.created_at + 60000',
        'FROM conversations c WHERE c.account_id = @account',
      );
      event(
        'conversation_resolved',
        '3600',
        'c.created_at',
        'c.created_at + 3600000',
        "FROM conversations c WHERE c.account_id = @account AND c.status = 'resolved'",
      );
      sqlite
        .prepare(
          `INSERT INTO reporting_events (account_id, name, value, conversation_id, display_id, inbox_id,
          event_start, event_end, created_at)
        SELECT @account, CASE WHEN g.message_type = 0 THEN 'incoming_message' ELSE 'outgoing_message' END, NULL,
          g.conversation_id, NULL, @inbox, g.created_at, g.created_at, g.created_at
        FROM messages g WHERE g.account_id = @account`,
        )
        .run(p);
      // The rollups the listener keeps, for the account and the inbox.
      for (const scope of ["'account'", "'inbox:' || inbox_id"])
        sqlite
          .prepare(
            `INSERT INTO reporting_rollups (account_id, scope, name, bucket, count, total)
            SELECT account_id, ${scope}, name, (event_end / 900000) * 900000, COUNT(*), COALESCE(SUM(value), 0)
            FROM reporting_events WHERE account_id = @account GROUP BY 2, name, 4`,
          )
          .run(p);
      sqlite
        .prepare(
          `INSERT INTO applied_slas (account_id, sla_policy_id, conversation_id, contact_id, display_id, inbox_id,
          status, conversation_created_at, first_response_due, first_response_at, resolution_due, resolved_at,
          created_at, updated_at)
        SELECT @account, @policy, c.id, @contact, c.display_id, @inbox,
          CASE WHEN c.display_id % 5 = 0 THEN 'missed' WHEN c.status = 'resolved' THEN 'hit' ELSE 'active' END,
          c.created_at, c.created_at + 3600000, c.created_at + 60000, c.created_at + 86400000,
          CASE WHEN c.status = 'resolved' THEN c.created_at + 3600000 ELSE NULL END, c.created_at, c.created_at
        FROM conversations c WHERE c.account_id = @account`,
        )
        .run(p);
      sqlite
        .prepare(
          `INSERT INTO sla_events (account_id, applied_sla_id, event_type, due_at, created_at)
        SELECT @account, a.id, 'first_response', a.first_response_due, a.first_response_due
        FROM applied_slas a WHERE a.account_id = @account AND a.display_id % 5 = 0`,
        )
        .run(p);
      sqlite.prepare('UPDATE accounts SET last_conversation_display_id = @total WHERE id = @account').run(p);
    })();
  } finally {
    sqlite.close();
  }
  process.stdout.write(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  const headers = { api_access_token: token };
  const since = Math.floor((now - 30 * 86_400_000) / 1000);
  const until = Math.floor(now / 1000);
  return [
    await measure(`GET reports/summary, 30 days (${total} conversations)`, {
      url: `${base}/api/v2/accounts/${account.id}/reports/summary?type=account&since=${since}&until=${until}`,
      headers,
    }),
    await measure(`GET applied_slas/metrics (${total} applied)`, { url: `${base}${A}/applied_slas/metrics`, headers }),
  ];
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
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        CHAT_PORT: chatPort,
        HOST: '127.0.0.1',
        PLATFORM_TOKEN: platformToken,
        LOG_LEVEL: 'warn',
        WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(chat);
    await waitForHealth(`http://127.0.0.1:${chatPort}/health`);
    const bare = await startProcess(
      process.execPath,
      ['--import', 'tsx', 'bench/bare-server.ts'],
      {},
      /LISTENING (\S+)/,
    );
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
    await api(base, platformToken, 'POST', `/platform/api/v1/accounts/${account.id}/account_users`, {
      user_id: user.id,
      role: 'administrator',
    });
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
      await api(base, token, 'POST', `${A}/conversations/${conversation.id}/messages`, {
        content: 'Thanks, looking into it',
        message_type: 'outgoing',
      });
    });
    process.stdout.write(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

    const pick = () => displayIds[Math.floor(Math.random() * displayIds.length)];
    const headers = { api_access_token: token, 'content-type': 'application/json' };
    const results: Result[] = [];
    results.push(await measure('bare Fastify route', { url: bare.match[1] }));
    results.push(
      await measure('GET conversations (25/page)', { url: `${base}${A}/conversations?status=all`, headers }),
    );
    results.push(
      await measure('GET messages', {
        url: base,
        headers,
        requests: [
          { method: 'GET', setupRequest: (req) => ({ ...req, path: `${A}/conversations/${pick()}/messages` }) },
        ],
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

    results.push(...(await measurePipelineCards(base, token, account.id, dataDir, user.id)));
    const scoring = await measureLeadScoring(base, platformToken, dataDir);
    results.push(...(await measureSlaReports(base, platformToken, dataDir)));

    const webhook = await measureWebhooks(base, token, A, displayIds, dataDir);
    const finance = await measureFinance(dataDir, children);
    results.push(...finance.results);

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
    process.stdout.write(
      `\n${CONNECTIONS} connections, ${DURATION} s per scenario, ${displayIds.length} conversations, node ${process.version}\n`,
    );
    process.stdout.write(
      `${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${rows.map(line).join('\n')}\n`,
    );
    const { burst, paced } = webhook;
    process.stdout.write(
      `\nwebhooks (message_created to a local receiver):\n` +
        `  throughput: ${burst.events} events in a burst, ${burst.perSecond.toFixed(0)} events/s from first commit to last receipt ` +
        `(median commit-to-receipt under that backlog ${burst.medianMs.toFixed(0)} ms)\n` +
        `  latency: ${paced.events} events at a steady pace, median commit-to-receipt ${paced.medianMs.toFixed(1)} ms, p99 ${paced.p99Ms.toFixed(1)} ms\n`,
    );
    process.stdout.write(
      `\nlead scoring bulk_recalculate: ${scoring.cards} cards (3 stored events each, default rules) ` +
        `${scoring.status} in ${(scoring.ms / 1000).toFixed(1)} s\n`,
    );
    const { job } = finance;
    process.stdout.write(
      `\nfinance daily job over 2,000 open bills: ${job.ms.toFixed(0)} ms ` +
        `(${job.billDueSoon} due-soon and ${job.billOverdue} overdue notifications created)\n`,
    );
  } finally {
    for (const c of children) c.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
