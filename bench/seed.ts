/**
 * Accounts through the API, then their conversations straight into the database: the API would
 * take an hour for 100,000 conversations and a million messages, and what is measured is reading
 * them, not writing them. One SQL text serves SQLite and PostgreSQL (recursive counters, no
 * dialect functions), so both dialects hold the same rows.
 */
import { randomBytes } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { ChatDatabase } from '../src/chat/db/schema.js';
import type { Database } from '../src/core/db/database.js';
import { api } from './harness.js';

export interface BenchAccount {
  id: number;
  /** `/api/v1/accounts/:id`, the prefix of the account's routes. */
  A: string;
  token: string;
  userId: number;
  inboxId: number;
  /** How many conversations the account holds (display ids 1..conversations). */
  conversations: number;
}

/** An account with an administrator and an API inbox, through the platform API. */
export async function createAccount(base: string, platformToken: string, name: string): Promise<BenchAccount> {
  const account = await api(base, platformToken, 'POST', '/platform/api/v1/accounts', { name });
  const user = await api(base, platformToken, 'POST', '/platform/api/v1/users', {
    name: `${name} Admin`,
    email: `bench-${randomBytes(4).toString('hex')}@example.test`,
    password: 'bench-password',
  });
  await api(base, platformToken, 'POST', `/platform/api/v1/accounts/${account.id}/account_users`, {
    user_id: user.id,
    role: 'administrator',
  });
  const A = `/api/v1/accounts/${account.id}`;
  const inbox = await api(base, user.access_token, 'POST', `${A}/inboxes`, {
    name: `${name} inbox`,
    channel: { type: 'api' },
  });
  return { id: account.id, A, token: user.access_token, userId: user.id, inboxId: inbox.id, conversations: 0 };
}

/** Conversations per transaction: small enough that the write-ahead log stays small. */
const BATCH = 10_000;
/** The seeded conversations' creation times spread over this span before now (the reports read 30 days of it). */
export const SEED_SPAN_MS = 90 * 86_400_000;

/**
 * `total` conversations in the account, each with its own contact and contact inbox and
 * `messagesPer` messages (incoming and outgoing in turn, one minute apart), created evenly over the
 * last 90 days. As the service writes them: display ids 1..total and the account's counter, last
 * activity at the last message, the first reply at the first outgoing one, contacts' last activity;
 * a third open and the rest resolved, every other one assigned to the administrator, a quarter never
 * seen by an agent (so unread counts vary). Contacts' full-text rows, where a dialect keeps them,
 * follow through the schema's own triggers.
 */
export async function seedConversations(
  database: Database<ChatDatabase>,
  account: BenchAccount,
  total: number,
  messagesPer = 10,
  now = Date.now(),
) {
  const { db } = database;
  const existing = await db
    .selectFrom('conversations')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('account_id', '=', account.id)
    .executeTakeFirstOrThrow();
  if (Number(existing.n) !== 0) throw new Error(`account ${account.id} already has conversations`);
  for (let lo = 0; lo < total; lo += BATCH) {
    const hi = Math.min(total, lo + BATCH);
    await db.transaction().execute((trx) => seedBatch(trx, account, { lo, hi, total, messagesPer, now }));
  }
  await db.updateTable('accounts').set({ last_conversation_display_id: total }).where('id', '=', account.id).execute();
  // PostgreSQL's autovacuum would analyze the new rows within a minute; the bench does not wait for it.
  if (database.dialect === 'postgres')
    await sql`analyze contacts, contact_inboxes, conversations, messages`.execute(db);
  account.conversations = total;
}

const maxId = async (trx: Transaction<ChatDatabase>, table: 'contacts' | 'conversations') =>
  Number(
    (
      await trx
        .selectFrom(table)
        .select((eb) => eb.fn.max<number | string | null>('id').as('id'))
        .executeTakeFirstOrThrow()
    ).id ?? 0,
  );

/** Conversations lo..hi-1 (0-based; display id i + 1) with their contacts and messages. */
async function seedBatch(
  trx: Transaction<ChatDatabase>,
  account: BenchAccount,
  b: { lo: number; hi: number; total: number; messagesPer: number; now: number },
) {
  // Every value is a number of this file, inlined as a literal: PostgreSQL would type a bare
  // parameter from its context (integer) and a millisecond timestamp does not fit.
  const n = (value: number) => sql.lit(Math.trunc(value));
  const [A, inbox, user] = [n(account.id), n(account.inboxId), n(account.userId)];
  const last = n((b.messagesPer - 1) * 60_000);
  const tag = sql.lit(`bench-${account.id}-`);
  const contactsBefore = await maxId(trx, 'contacts');
  await sql`
    WITH RECURSIVE seq(i) AS (SELECT ${n(b.lo)} UNION ALL SELECT i + 1 FROM seq WHERE i < ${n(b.hi - 1)})
    INSERT INTO contacts (account_id, name, email, phone_number, additional_attributes, custom_attributes, blocked,
      last_activity_at, created_at, updated_at)
    SELECT ${A}, 'Contact ' || i, 'contact' || i || '@a' || ${A} || '.bench.test', '+55119' || (10000000 + i),
      '{}', '{}', 0, t + ${last}, t, t + ${last}
    FROM (SELECT i, ${n(b.now - SEED_SPAN_MS)} + (CAST(i AS bigint) * ${n(SEED_SPAN_MS)}) / ${n(b.total)} AS t
      FROM seq) s
    ORDER BY i`.execute(trx);
  await sql`
    INSERT INTO contact_inboxes (account_id, contact_id, inbox_id, source_id, pubsub_token, created_at)
    SELECT ${A}, c.id, ${inbox}, ${tag} || c.id, ${tag} || c.id, c.created_at
    FROM contacts c WHERE c.account_id = ${A} AND c.id > ${n(contactsBefore)} ORDER BY c.id`.execute(trx);
  const conversationsBefore = await maxId(trx, 'conversations');
  await sql`
    INSERT INTO conversations (account_id, display_id, uuid, inbox_id, contact_id, contact_inbox_id, assignee_id,
      status, additional_attributes, custom_attributes, muted, last_activity_at, first_reply_created_at,
      agent_last_seen_at, created_at, updated_at)
    SELECT ${A}, s.i + 1, ${tag} || s.i, ${inbox}, s.contact_id, s.contact_inbox_id,
      CASE WHEN s.i % 2 = 0 THEN ${user} END, CASE WHEN s.i % 3 = 0 THEN 'open' ELSE 'resolved' END, '{}', '{}', 0,
      s.t + ${last}, s.t + 60000, CASE WHEN s.i % 4 = 0 THEN NULL ELSE s.t + ${last} END, s.t, s.t + ${last}
    FROM (SELECT c.id AS contact_id, ci.id AS contact_inbox_id, c.created_at AS t,
        ${n(b.lo - 1)} + row_number() OVER (ORDER BY c.id) AS i
      FROM contacts c JOIN contact_inboxes ci ON ci.contact_id = c.id
      WHERE c.account_id = ${A} AND c.id > ${n(contactsBefore)}) s
    ORDER BY s.i`.execute(trx);
  await sql`
    WITH RECURSIVE m(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM m WHERE k < ${n(b.messagesPer - 1)})
    INSERT INTO messages (account_id, conversation_id, inbox_id, content, message_type, content_type,
      content_attributes, additional_attributes, private, status, sender_type, sender_id, created_at, updated_at)
    SELECT ${A}, c.id, ${inbox}, 'Message ' || m.k || ' of conversation ' || c.display_id, m.k % 2, 'text', '{}',
      '{}', 0, 'sent', CASE WHEN m.k % 2 = 0 THEN 'Contact' ELSE 'User' END,
      CASE WHEN m.k % 2 = 0 THEN c.contact_id ELSE ${user} END, c.created_at + m.k * 60000, c.created_at + m.k * 60000
    FROM conversations c, m WHERE c.account_id = ${A} AND c.id > ${n(conversationsBefore)}
    ORDER BY c.id, m.k`.execute(trx);
}

/** Messages GET messages returns without `before` or `after` (messages.service.ts). */
const LATEST_PAGE = 20;

/** Fails the run when the service does not see the seeded conversations as seeded (a wrong column, say). */
export async function checkSeed(base: string, account: BenchAccount, messagesPer: number) {
  const { meta } = await api(base, account.token, 'GET', `${account.A}/conversations/meta?status=all`);
  const messages = await api(base, account.token, 'GET', `${account.A}/conversations/1/messages`);
  const page = await api(base, account.token, 'GET', `${account.A}/conversations?status=all`);
  const first = page.data.payload[0];
  if (
    meta.all_count !== account.conversations ||
    messages.payload.length !== Math.min(messagesPer, LATEST_PAGE) ||
    first?.meta?.sender?.id === undefined ||
    first?.last_non_activity_message?.content === undefined
  )
    throw new Error(
      `the service does not see account ${account.id} as seeded: ` +
        JSON.stringify({ meta, messages: messages.payload.length, first }),
    );
}
