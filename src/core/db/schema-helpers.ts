import type { CreateTableBuilder } from 'kysely';
import type { DialectName } from './database.js';

/**
 * Column conventions shared by every migration, so that one migration runs on both dialects:
 * - ids are auto-increment integers;
 * - timestamps are `bigint` milliseconds since the epoch (sortable, comparable, no time zones);
 * - booleans are integers 0/1 (better-sqlite3 cannot bind JS booleans);
 * - JSON documents are text.
 */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: DialectName) {
  return dialect === 'postgres'
    ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
