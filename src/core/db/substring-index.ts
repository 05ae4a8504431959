import { sql, type RawBuilder } from 'kysely';
import type { DialectName } from './database.js';
import { createFts5Mirror } from './full-text.js';
import type { UntypedDb } from './untyped.js';

/**
 * Substring search ("contains", case-insensitive) that an index serves, on both dialects:
 *
 * - SQLite: an FTS5 table `<table>_trgm` with the trigram tokenizer over the columns (external
 *   content, kept by triggers in the writing transaction). A quoted phrase of three characters or
 *   more matches the rows containing it, in any of the columns.
 * - PostgreSQL: a GIN `gin_trgm_ops` index per column (the pg_trgm extension), which serves the
 *   `ilike '%term%'` the callers already write. Creating the extension needs a privilege some
 *   hosted databases do not grant: without it the migration skips the indexes and searches scan,
 *   as before, rather than refusing to start.
 *
 * Shorter terms have no trigram: callers fall back to scanning (`substringIndexUsable`).
 * The indexed table must have an integer primary key `id`.
 */
export interface SubstringIndex {
  readonly table: string;
  readonly columns: readonly string[];
}

const trgmTable = (index: SubstringIndex) => `${index.table}_trgm`;

/** Whether `term` is long enough for the index (three characters). */
export function substringIndexUsable(term: string): boolean {
  return [...term].length >= 3;
}

/** Creates the index and what keeps it in sync (run in a migration). */
export async function createSubstringIndex(db: UntypedDb, dialect: DialectName, index: SubstringIndex) {
  if (dialect === 'postgres') {
    // Each statement in its own block: a failure (no privilege, no contrib package) is reported and skipped.
    await sql`do $$ begin
      create extension if not exists pg_trgm;
    exception when others then
      raise notice 'pg_trgm is not available (%); substring searches will scan', sqlerrm;
    end $$`.execute(db);
    for (const column of index.columns) {
      const name = `${index.table}_${column}_trgm_idx`;
      // The operator class lives in the schema the extension was installed in, which need not be
      // on this connection's search path.
      await sql`do $$ declare ns text; begin
        select extnamespace::regnamespace::text into ns from pg_extension where extname = 'pg_trgm';
        if ns is not null then
          execute format('create index %I on %I using gin (%I %s.gin_trgm_ops)', ${sql.lit(name)}, ${sql.lit(index.table)}, ${sql.lit(column)}, ns);
        end if;
      end $$`.execute(db);
    }
    return;
  }
  await createFts5Mirror(db, trgmTable(index), index.table, index.columns, 'trigram');
}

/**
 * SQLite: the ids of the rows of `index.table` containing `term` in any indexed column (a
 * subquery for `id in (...)`). Only for usable terms (see `substringIndexUsable`).
 */
export function sqliteSubstringIds(index: SubstringIndex, term: string): RawBuilder<number> {
  // A quoted phrase is taken literally (quotes doubled); the trigram tokenizer matches it anywhere.
  const phrase = `"${term.replaceAll('"', '""')}"`;
  return sql<number>`select rowid from ${sql.id(trgmTable(index))} where ${sql.id(trgmTable(index))} match ${phrase}`;
}
