/**
 * The scenarios the performance targets are about: the ceilings, Ponte's everyday routes against
 * them, the list endpoints at two account sizes (flatness), and cold start.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measure, startChat, stopProcess, type Result } from './harness.js';
import type { BenchAccount } from './seed.js';

/** The three ceiling routes of ceiling-server.ts, then GET /api as Ponte's own zero-work route. */
export async function measureCeilings(ceilingBase: string): Promise<Result[]> {
  return [
    await measure('ceiling: bare Fastify GET', { url: `${ceilingBase}/` }, { key: 'bare' }),
    await measure(
      'ceiling: one durable INSERT (WAL, synchronous=FULL)',
      {
        url: `${ceilingBase}/insert`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'benchmark reply' }),
      },
      { key: 'insert' },
    ),
    await measure('ceiling: indexed page of 25 of 100,000 rows', { url: `${ceilingBase}/page` }, { key: 'page' }),
  ];
}

/** The list endpoints measured on both accounts; the ratio of their p99 is the flatness. */
export const FLAT_KINDS = ['conversations', 'meta', 'filter', 'contacts', 'contacts search'] as const;
export type FlatKind = (typeof FLAT_KINDS)[number];

function listRequest(base: string, account: BenchAccount, kind: FlatKind) {
  const url = `${base}${account.A}`;
  switch (kind) {
    case 'conversations':
      return { name: 'GET conversations (25/page)', options: { url: `${url}/conversations?status=all` } };
    case 'meta':
      return { name: 'GET conversations/meta', options: { url: `${url}/conversations/meta?status=all` } };
    case 'filter':
      return {
        name: 'POST conversations/filter, status open',
        options: {
          url: `${url}/conversations/filter`,
          method: 'POST' as const,
          body: JSON.stringify({
            payload: [{ attribute_key: 'status', filter_operator: 'equal_to', values: ['open'], query_operator: null }],
          }),
        },
      };
    case 'contacts':
      return { name: 'GET contacts (15/page)', options: { url: `${url}/contacts` } };
    case 'contacts search':
      // Digits that occur in a few contacts' names, e-mails and phone numbers of either account.
      return { name: 'GET contacts/search?q=4242', options: { url: `${url}/contacts/search?q=4242` } };
  }
}

const sizeLabel = (account: BenchAccount) => `${account.conversations.toLocaleString('en-US')} conv.`;
export const flatKey = (kind: FlatKind, size: 'small' | 'large') => `${kind}@${size}`;

/**
 * Ponte's figures on one server (SQLite or PostgreSQL), each keyed for the targets and with the
 * ceiling it is a ratio to: GET /api (bare), GET /api/v1/profile (GET /api), the list endpoints on
 * the small and the large account one after the other (the page read), GET messages of a random
 * conversation of the large account (the page read), and POST message into one (the durable insert).
 */
export async function measurePonte(base: string, small: BenchAccount, large: BenchAccount): Promise<Result[]> {
  const results: Result[] = [];
  results.push(await measure('GET /api (no auth)', { url: `${base}/api` }, { key: 'api', ceiling: 'bare' }));
  results.push(
    await measure(
      'GET /api/v1/profile (auth)',
      { url: `${base}/api/v1/profile`, headers: { api_access_token: large.token } },
      { key: 'profile', ceiling: 'api' },
    ),
  );
  for (const kind of FLAT_KINDS) {
    for (const [size, account] of [
      ['small', small],
      ['large', large],
    ] as const) {
      const { name, options } = listRequest(base, account, kind);
      const headers = { api_access_token: account.token, 'content-type': 'application/json' };
      results.push(
        await measure(
          `${name} (${sizeLabel(account)})`,
          { ...options, headers },
          { key: flatKey(kind, size), ceiling: 'page' },
        ),
      );
    }
  }
  const pick = () => 1 + Math.floor(Math.random() * large.conversations);
  const headers = { api_access_token: large.token, 'content-type': 'application/json' };
  results.push(
    await measure(
      `GET messages (${sizeLabel(large)})`,
      {
        url: base,
        headers,
        requests: [
          { method: 'GET', setupRequest: (req) => ({ ...req, path: `${large.A}/conversations/${pick()}/messages` }) },
        ],
      },
      { key: 'messages', ceiling: 'page' },
    ),
  );
  results.push(
    await measure(
      `POST message (${sizeLabel(large)})`,
      {
        url: base,
        headers,
        requests: [
          {
            method: 'POST',
            setupRequest: (req) => ({
              ...req,
              path: `${large.A}/conversations/${pick()}/messages`,
              body: JSON.stringify({ content: 'benchmark reply', message_type: 'outgoing' }),
            }),
          },
        ],
      },
      { key: 'post-message', ceiling: 'insert' },
    ),
  );
  return results;
}

/** p99 on the large account over p99 on the small one, per list endpoint. */
export function flatness(results: Result[]): { kind: FlatKind; small: number; large: number; ratio: number }[] {
  const p99 = (key: string) => results.find((r) => r.key === key)?.p99 ?? NaN;
  return FLAT_KINDS.map((kind) => {
    const small = p99(flatKey(kind, 'small'));
    const large = p99(flatKey(kind, 'large'));
    return { kind, small, large, ratio: large / small };
  });
}

/**
 * Cold start: `node dist/server.js chat` on a fresh DATA_DIR (migrations included), then again on
 * the same, now migrated, DATA_DIR; milliseconds from spawn to the first 200 of GET /health,
 * polled every 10 ms.
 */
export async function measureColdStart(): Promise<{ freshMs: number; existingMs: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-bench-cold-'));
  try {
    const start = async () => {
      const server = await startChat({ DATA_DIR: dataDir }, 10);
      await stopProcess(server.child);
      return server.startMs;
    };
    const freshMs = await start();
    const existingMs = await start();
    return { freshMs, existingMs };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
