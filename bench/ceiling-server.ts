import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import Fastify from 'fastify';

/**
 * The ceilings, on this machine and runtime, that Ponte's figures are compared with; three routes
 * in one process, each the least a Ponte route of its kind has to do:
 *   GET  /        a bare Fastify route: no database, no auth (the ceiling of GET /api).
 *   POST /insert  one better-sqlite3 INSERT per request into a small table, WAL, synchronous=FULL:
 *                 the durable write without batching (the ceiling of POST message).
 *   GET  /page    one indexed page of 25 rows, `where account_id = ? order by id desc limit 25`,
 *                 over CEILING_PAGE_ROWS rows (100,000) with a matching index (the read ceiling).
 * The database is a file of its own in a temporary directory, removed on exit.
 */
const PAGE_ROWS = Number(process.env.CEILING_PAGE_ROWS ?? 100_000);
const ACCOUNTS = 10;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ponte-ceiling-'));
const db = new Database(path.join(dir, 'ceiling.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec(`
  create table items (id integer primary key, account_id integer not null, content text not null,
    created_at integer not null);
  create table page_rows (id integer primary key, account_id integer not null, title text not null,
    status text not null, content text not null, created_at integer not null, updated_at integer not null);
  create index page_rows_account_idx on page_rows (account_id, id);
`);
// Seeded by SQL itself, as the bench seeds Ponte; one transaction (synchronous=FULL per row would take minutes).
db.prepare(
  `with recursive seq(i) as (select 0 union all select i + 1 from seq where i < ? - 1)
   insert into page_rows (account_id, title, status, content, created_at, updated_at)
   select i % ${ACCOUNTS} + 1, 'Row ' || i, case when i % 3 = 0 then 'open' else 'resolved' end,
     'Some text of row ' || i, 1700000000000 + i * 1000, 1700000000000 + i * 1000 from seq`,
).run(PAGE_ROWS);
db.exec('analyze');

const insert = db.prepare('insert into items (account_id, content, created_at) values (?, ?, ?)');
const page = db.prepare(
  `select id, account_id, title, status, content, created_at, updated_at from page_rows
   where account_id = ? order by id desc limit 25`,
);

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
app.post<{ Body: { content?: string } }>('/insert', async (req) => {
  const { lastInsertRowid } = insert.run(1, String(req.body?.content ?? ''), Date.now());
  return { id: Number(lastInsertRowid) };
});
app.get('/page', async () => ({ payload: page.all(1 + Math.floor(Math.random() * ACCOUNTS)) }));

const port = Number(process.env.PORT ?? 0);
const address = await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`LISTENING ${address}\n`);
process.on(
  'SIGTERM',
  () =>
    void app.close().then(() => {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    }),
);
