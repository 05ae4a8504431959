import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildChatTestApp, type ChatTestApp } from '../../../test/helpers/test-app.js';
import { createBackgroundRuntime } from './runtime.js';

/**
 * The background runtime's stop: it stops claiming at once and waits for the work it holds; with a
 * deadline (a bounded shutdown) only until then, leaving what still runs to its lease.
 */
let t: ChatTestApp;
beforeAll(async () => {
  t = await buildChatTestApp();
});
afterAll(async () => {
  await t.close();
});

function runtimeWithAJobThatHangs(name: string) {
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  let finish!: () => void;
  const hanging = new Promise<void>((resolve) => (finish = resolve));
  let runs = 0;
  const runtime = createBackgroundRuntime<any, any>({
    db: t.db as never,
    dialect: t.dialect,
    logger: pino({ level: 'silent' }),
    settings: { allowedHosts: [], retryDelaysMs: [], leaseMs: 30_000, historyRetentionMs: 0 },
    listeners: [],
    jobs: [
      {
        name,
        schedule: { every: 60_000 },
        handle: async () => {
          runs += 1;
          started();
          await hanging;
        },
      },
    ],
    secretOf: async () => null,
    chatwootHeaders: false,
    transportFor: Object.assign(async () => null, {}),
    pollIntervalMs: 10,
  });
  return { runtime, running, finish, runs: () => runs };
}

describe('background runtime stop', () => {
  it('with a deadline, returns then and leaves the running job to its lease', async () => {
    const { runtime, running, finish, runs } = runtimeWithAJobThatHangs('test.hangs_bounded');
    await runtime.start();
    await running;
    await runtime.stop(Date.now() + 50);
    // Stopped claiming: nothing ran again, although the job is still in its handler.
    expect(runs()).toBe(1);
    const job = await t.db
      .selectFrom('jobs')
      .select(['status', 'locked_until'])
      .where('name', '=', 'test.hangs_bounded')
      .executeTakeFirstOrThrow();
    expect(job.status).toBe('running');
    expect(Number(job.locked_until)).toBeGreaterThan(Date.now());
    finish();
  });

  it('without one, waits for the work it holds', async () => {
    const { runtime, running, finish } = runtimeWithAJobThatHangs('test.hangs_unbounded');
    await runtime.start();
    await running;
    let stopped = false;
    const stopping = runtime.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(stopped).toBe(true);
  });
});
