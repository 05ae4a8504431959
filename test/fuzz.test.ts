import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatFuzzTarget, FinanceFuzzTarget } from './helpers/fuzz-targets.js';
import {
  formatReport,
  formatSurvey,
  fuzzOperation,
  operationSeed,
  operationsOf,
  type FuzzTarget,
  type Operation,
  type OperationResult,
} from './helpers/fuzz.js';
import {
  buildChatTestApp,
  buildFinanceTestApp,
  testDialect,
  type ChatTestApp,
  type FinanceTestApp,
} from './helpers/test-app.js';

/**
 * Property-based fuzzing of both services, driven by their own OpenAPI documents: for every
 * operation, requests generated from the route's schemas and then bent out of shape (see
 * helpers/fuzz.ts). The one property: no request is ever answered 5xx, and every answer >= 400
 * carries the service's error body. Runs are bounded and seeded, so CI sees the same requests
 * every time; a failure prints the minimal request fast-check shrank to and how to replay it
 * (the same seed, runs and operation regenerate the same requests against a fresh app, and
 * fast-check shrinks again).
 *
 *   FUZZ_SEED=<n>     base seed (each operation derives its own from it and its name)
 *   FUZZ_RUNS=<n>     generated requests per operation
 *   FUZZ_ONLY=<text>  only operations whose `METHOD /path` contains the text (several: separated by ||)
 *   FUZZ_VERBOSE=1    print each operation's request count and time
 *   FUZZ_SURVEY=1     do not stop an operation at its first breach: run every request, report all kinds
 */

const envInt = (name: string): number | undefined => {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new Error(`${name} must be an integer, got ${raw}`);
  return n;
};

const BASE_SEED = envInt('FUZZ_SEED') ?? 20251123;
const RUNS = envInt('FUZZ_RUNS');
const ONLY = process.env.FUZZ_ONLY?.trim() || undefined;
const VERBOSE = process.env.FUZZ_VERBOSE === '1';
const SURVEY = process.env.FUZZ_SURVEY === '1';
const TIMEOUT_MS = 180_000;

/** Not request/response routes, or not ours: the WebSocket endpoint and the docs page's assets. */
const skipped = (op: Operation) => /^\/(cable|docs|openapi\.json)(\/|$)/.test(op.path);

/** Reads first, writes next, deletes last: the seeded data stays in place for as long as possible. */
const ORDER: Record<Operation['method'], number> = { GET: 0, POST: 1, PUT: 1, PATCH: 1, DELETE: 2 };

async function documentedOperations(target: FuzzTarget): Promise<Operation[]> {
  const res = await target.app().inject({ method: 'GET', url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  return operationsOf(res.json())
    .filter((op) => !skipped(op))
    .map((op, i) => ({ op, i }))
    .sort((a, b) => ORDER[a.op.method] - ORDER[b.op.method] || a.i - b.i)
    .map(({ op }) => op);
}

async function fuzzService(target: FuzzTarget, runsPerOperation: number, minimumOperations: number) {
  const all = await documentedOperations(target);
  expect(all.length, 'operations in the OpenAPI document').toBeGreaterThanOrEqual(minimumOperations);
  const wanted = ONLY?.split('||')
    .map((w) => w.trim())
    .filter(Boolean);
  const operations = wanted ? all.filter((op) => wanted.some((w) => op.key.includes(w))) : all;
  expect(operations.length, `operations matching FUZZ_ONLY=${ONLY}`).toBeGreaterThan(0);

  const started = Date.now();
  const results: OperationResult[] = [];
  for (const op of operations) {
    const seed = operationSeed(BASE_SEED, op.key);
    const began = Date.now();
    results.push(await fuzzOperation(target, op, { numRuns: runsPerOperation, seed, survey: SURVEY }));
    if (VERBOSE) {
      const r = results.at(-1)!;
      const statuses = Object.entries(r.statuses)
        .map(([status, n]) => `${status}x${n}`)
        .join(' ');
      console.log(
        `[fuzz] ${op.key}: ${r.runs} requests, ${Date.now() - began} ms${r.failure ? ' FAILED' : ''} [${statuses}]`,
      );
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const requests = results.reduce((n, r) => n + r.runs, 0);
  console.log(
    `[fuzz] ${target.name} on ${testDialect}: ${operations.length} operations, ${requests} requests, ${seconds} s, ${target.reseeds ?? 0} reseeds (FUZZ_SEED=${BASE_SEED}, ${runsPerOperation} runs each)`,
  );

  const database = testDialect === 'postgres' ? 'TEST_DATABASE_URL=<the same URL> ' : '';
  const replay = (r: OperationResult) =>
    `${database}FUZZ_SEED=${BASE_SEED} FUZZ_RUNS=${runsPerOperation} FUZZ_ONLY='${r.operation}' npx vitest run test/fuzz.test.ts`;
  if (SURVEY) {
    const findings = results.flatMap((r) => r.findings);
    expect(
      findings.map((f) => f.operation),
      findings.length > 0 ? formatSurvey(target, results) : '',
    ).toEqual([]);
    return;
  }
  const failed = results.filter((r) => r.failure);
  expect(
    failed.map((r) => r.operation),
    failed.length > 0 ? formatReport(target, results, replay) : '',
  ).toEqual([]);
}

describe('fuzzing the conversation service from its OpenAPI document', () => {
  let t: ChatTestApp;
  let target: ChatFuzzTarget;

  beforeAll(async () => {
    t = await buildChatTestApp();
    target = new ChatFuzzTarget(t);
    await target.seed();
  });

  afterAll(async () => {
    await t?.close();
  });

  it(
    'never answers 5xx, and answers every refusal with the error body',
    async () => {
      await fuzzService(target, RUNS ?? 50, 80);
    },
    TIMEOUT_MS,
  );
});

describe('fuzzing the finance service from its OpenAPI document', () => {
  let t: FinanceTestApp;
  let target: FinanceFuzzTarget;

  beforeAll(async () => {
    t = await buildFinanceTestApp();
    target = new FinanceFuzzTarget(t);
    await target.seed();
  });

  afterAll(async () => {
    await t?.close();
  });

  it(
    'never answers 5xx, and answers every refusal with the error body',
    async () => {
      await fuzzService(target, RUNS ?? 60, 60);
    },
    TIMEOUT_MS,
  );
});
