import { sql } from 'kysely';
import { createCountTriggers } from '../../../core/db/count-triggers.js';
import type { DialectName } from '../../../core/db/database.js';
import type { PortableMigration } from '../../../core/db/migrator.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * The conversation list's counts (all / unassigned / mine) without counting conversations: one
 * row per (account, inbox, team, assignee, status) holding how many conversations are in it,
 * kept by triggers on `conversations`. A list then sums a few bucket rows, however many
 * conversations the account has. Triggers, not application code, so every writer keeps the
 * counts right: services, imports, the CLI, a seeding script writing SQL directly. No team and
 * no assignee are stored as 0 (a key column cannot be null).
 *
 * On PostgreSQL, transactions that move conversations into the same bucket (new conversations of
 * one inbox, say) queue on that bucket's row until they commit; those transactions are short.
 */
const KEY = ['account_id', 'inbox_id', 'team_id', 'assignee_id', 'status'] as const;

async function up(db: UntypedDb, dialect: DialectName): Promise<void> {
  await db.schema
    .createTable('conversation_counts')
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('inbox_id', 'bigint', (c) => c.notNull())
    .addColumn('team_id', 'bigint', (c) => c.notNull())
    .addColumn('assignee_id', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('conversation_counts_pk', [...KEY])
    .execute();

  const key = (row: 'NEW' | 'OLD') =>
    `${row}.account_id, ${row}.inbox_id, coalesce(${row}.team_id, 0), coalesce(${row}.assignee_id, 0), ${row}.status`;
  const increment = `insert into conversation_counts (${KEY.join(', ')}, count) values (${key('NEW')}, 1)
    on conflict (${KEY.join(', ')}) do update set count = conversation_counts.count + 1`;
  const decrement = `update conversation_counts set count = count - 1
    where account_id = OLD.account_id and inbox_id = OLD.inbox_id and team_id = coalesce(OLD.team_id, 0)
      and assignee_id = coalesce(OLD.assignee_id, 0) and status = OLD.status`;
  const moved = `OLD.account_id <> NEW.account_id or OLD.inbox_id <> NEW.inbox_id
    or OLD.team_id is distinct from NEW.team_id or OLD.assignee_id is distinct from NEW.assignee_id
    or OLD.status <> NEW.status`;

  await createCountTriggers(db, dialect, {
    name: 'conversation_counts',
    table: 'conversations',
    increment,
    decrement,
    moved,
  });

  // The conversations that exist already.
  await sql
    .raw(
      `insert into conversation_counts (${KEY.join(', ')}, count)
       select account_id, inbox_id, coalesce(team_id, 0), coalesce(assignee_id, 0), status, count(*)
       from conversations group by account_id, inbox_id, coalesce(team_id, 0), coalesce(assignee_id, 0), status`,
    )
    .execute(db);
}

export const migration0016ConversationCounts: PortableMigration = { up };
