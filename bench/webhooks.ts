/**
 * Webhook throughput and latency (see measureWebhooks), against a receiver in the bench process.
 */
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { api, inBatches } from './harness.js';
import type { AddressInfo } from 'node:net';

const WEBHOOK_EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 2000);
const WEBHOOK_PACED = Number(process.env.BENCH_WEBHOOK_PACED ?? 200);

/**
 * Waits until the service has dispatched every recorded event (the seeding and the POST scenario
 * leave a backlog), reading its SQLite file directly, so the webhook phases measure only their own.
 */
export async function waitForOutboxDrained(dataDir: string) {
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
 * messages posted as fast as the API takes them while the receiver holds its answers (the worker's
 * slots stay busy, the other deliveries queue); once every message is committed and dispatched the
 * receiver answers, and deliveries per second run from that release to the last receipt: the
 * delivery path draining a backlog, not the rate at which the API creates messages. (The backlog
 * must be posted within the worker's 10 s timeout; BENCH_WEBHOOK_EVENTS scales it.) Latency: messages posted one every 20 ms (a steady load, no backlog), the
 * median and p99 of receipt time minus the message's created_at (stamped inside the committing
 * transaction).
 */
export async function measureWebhooks(base: string, token: string, A: string, displayIds: number[], dataDir: string) {
  let arrivals: { at: number; createdAt: number }[] = [];
  let expected = 0;
  // Only this phase's messages count: events of earlier scenarios may still be in the queue.
  let tag = '';
  let done: () => void = () => undefined;
  // While `held`, deliveries wait for their answer: the service's worker keeps its few slots busy,
  // and the rest of the burst queues up behind them (a backlog, as after an outage).
  let held: (() => void)[] | undefined;
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const answer = () => {
        const at = Date.now();
        const payload = JSON.parse(body) as { created_at: string; content: string };
        res.writeHead(200).end();
        if (!payload.content.startsWith(tag)) return;
        arrivals.push({ at, createdAt: Date.parse(payload.created_at) });
        if (arrivals.length >= expected) done();
      };
      if (held) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;
  const phase = async (name: string, count: number, concurrency: number, pauseMs: number, backlog = false) => {
    await waitForOutboxDrained(dataDir);
    arrivals = [];
    expected = count;
    tag = `webhook bench ${name} `;
    const all = new Promise<void>((resolve) => (done = resolve));
    if (backlog) held = [];
    await inBatches(count, concurrency, async (i) => {
      const id = displayIds[i % displayIds.length];
      await api(base, token, 'POST', `${A}/conversations/${id}/messages`, { content: `${tag}${i}` });
      if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs));
    });
    let releasedAt: number | undefined;
    if (backlog) {
      // Every message is committed and its delivery queued: let the deliveries flow.
      await waitForOutboxDrained(dataDir);
      releasedAt = Date.now();
      const waiting = held ?? [];
      held = undefined;
      for (const answer of waiting) answer();
    }
    await Promise.race([
      all,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('webhook deliveries did not all arrive in 180 s')), 180_000),
      ),
    ]);
    const latencies = arrivals.map((a) => a.at - a.createdAt).sort((a, b) => a - b);
    // A backlog counts from its release (the delivery path alone), a paced run from the first commit.
    const first = releasedAt ?? Math.min(...arrivals.map((a) => a.createdAt));
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
    const burst = await phase('burst', WEBHOOK_EVENTS, 16, 0, true);
    const paced = await phase('paced', WEBHOOK_PACED, 1, 20);
    return { burst, paced };
  } finally {
    receiver.close();
  }
}
