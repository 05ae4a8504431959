import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { DialectName } from './database.js';
import type { UntypedDb } from './untyped.js';

/**
 * Full-text search over some text columns of a table, one API on both dialects:
 *
 * - SQLite: an FTS5 table `<table>_fts` over the table's rows (external content, so the text is not
 *   stored twice), tokenised with `unicode61 remove_diacritics 2`, kept in sync by triggers after
 *   insert, delete and any update of the indexed columns.
 * - PostgreSQL: a `tsvector` column `fts_document` (the `simple` configuration: no stemming, so
 *   both dialects match the same words) with a GIN index, computed by a trigger before insert and
 *   any update of the indexed columns.
 *
 * Either way the index follows the rows inside the writing transaction; callers only read through
 * `fullTextSearch`. Matching is per word and by prefix (`instal` finds "installing"), every word of
 * the query must match, and accents do not matter (`educacao` finds "educação", and the other way
 * round). The indexed table must have an integer primary key `id`.
 */
export interface FullTextIndex {
  /** The table whose rows are searched. */
  readonly table: string;
  /** Its text columns, most important first: a match in an earlier column ranks higher. */
  readonly columns: readonly string[];
}

/** At most this many words of a query are used; longer words are cut. */
const MAX_TERMS = 12;
const MAX_TERM_LENGTH = 64;

/** The PostgreSQL column holding the document vector. */
const PG_COLUMN = 'fts_document';
const ftsTable = (index: FullTextIndex) => `${index.table}_fts`;

/*
 * Accent folding, identical on both sides of a PostgreSQL search: the trigger folds the
 * document with `translate(text, FOLD_FROM, FOLD_TO)` (immutable, built in: no extension needed),
 * and `foldAccents` applies the same table to the query in JavaScript. The table maps every Latin
 * letter with diacritics (Latin-1, Extended-A/B, Extended Additional) to its base letter, keeping
 * case, and deletes combining marks (text typed in decomposed form). SQLite folds with its tokenizer.
 */
const { FOLD_FROM, FOLD_TO, FOLD_MAP } = (() => {
  const from: string[] = [];
  const to: string[] = [];
  const ranges: [number, number][] = [
    [0x00c0, 0x024f],
    [0x1e00, 0x1eff],
  ];
  for (const [start, end] of ranges) {
    for (let cp = start; cp <= end; cp++) {
      const ch = String.fromCodePoint(cp);
      const base = ch.normalize('NFD');
      if (base.length > 1 && /^[A-Za-z][\u0300-\u036f]+$/.test(base)) {
        from.push(ch);
        to.push(base[0]);
      }
    }
  }
  const map = new Map(from.map((ch, i) => [ch, to[i]]));
  // Characters of `from` beyond the length of `to` are deleted by translate().
  for (let cp = 0x0300; cp <= 0x036f; cp++) {
    from.push(String.fromCodePoint(cp));
    map.set(String.fromCodePoint(cp), '');
  }
  return { FOLD_FROM: from.join(''), FOLD_TO: to.join(''), FOLD_MAP: map };
})();

/** The text with its Latin diacritics removed, as the PostgreSQL index folds it. */
export function foldAccents(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) out += FOLD_MAP.get(ch) ?? ch;
  return out;
}

/** The searchable words of a query (letters and digits), at most MAX_TERMS of them. */
export function searchTerms(query: string): string[] {
  const words = (query.normalize('NFC').match(/[\p{L}\p{N}\p{M}]+/gu) ?? [])
    .map((w) => [...w].slice(0, MAX_TERM_LENGTH).join(''))
    // A word needs a letter or a digit (a lone combining mark folds to nothing).
    .filter((w) => /[\p{L}\p{N}]/u.test(w));
  return words.slice(0, MAX_TERMS);
}

/** The weighted, accent-folded document of a row (`new` in a trigger, else the row being updated). */
function pgDocument(index: FullTextIndex, row?: 'new') {
  const weights = ['A', 'B', 'C', 'D'];
  const parts = index.columns.map((column, i) => {
    const value = row ? sql`${sql.raw(row)}.${sql.id(column)}` : sql.id(column);
    const folded = sql`translate(coalesce(${value}, ''), ${sql.lit(FOLD_FROM)}, ${sql.lit(FOLD_TO)})`;
    return sql`setweight(to_tsvector('simple'::regconfig, ${folded}), ${sql.lit(weights[Math.min(i, 3)])})`;
  });
  return sql.join(parts, sql` || `);
}

/** Creates the index of `index.table` and what keeps it in sync (run in a migration). */
export async function createFullTextIndex(db: UntypedDb, dialect: DialectName, index: FullTextIndex): Promise<void> {
  if (index.columns.length === 0) throw new Error('a full-text index needs at least one column');
  const table = sql.id(index.table);
  if (dialect === 'postgres') {
    const column = sql.id(PG_COLUMN);
    const refresh = sql.id(`${index.table}_fts_refresh`);
    const columns = sql.join(index.columns.map((c) => sql.id(c)));
    await sql`alter table ${table} add column ${column} tsvector`.execute(db);
    // A trigger rather than a generated column: PostgreSQL recomputes generated columns on every
    // update of the row, and rows with an indexed text often change other columns (counters).
    await sql`create function ${refresh}() returns trigger language plpgsql as $$
      begin
        new.${column} := ${pgDocument(index, 'new')};
        return new;
      end
    $$`.execute(db);
    await sql`create trigger ${refresh} before insert or update of ${columns} on ${table}
      for each row execute function ${refresh}()`.execute(db);
    await sql`update ${table} set ${column} = ${pgDocument(index)}`.execute(db);
    await sql`create index ${sql.id(`${index.table}_fts_idx`)} on ${table} using gin (${column})`.execute(db);
    return;
  }
  const fts = sql.id(ftsTable(index));
  await createFts5Mirror(db, ftsTable(index), index.table, index.columns, 'unicode61 remove_diacritics 2');
  // Rank by BM25 with weights falling with the column's position (10, 5, 2.5...).
  const weights = index.columns.map((_, i) => Math.max(1, 10 / 2 ** i).toFixed(2)).join(', ');
  await sql`insert into ${fts} (${fts}, rank) values ('rank', ${sql.lit(`bm25(${weights})`)})`.execute(db);
}

/**
 * SQLite: an FTS5 table `name` over `columns` of `table` (external content, rowid = `id`), kept in
 * step by insert, delete and update triggers, and filled with the rows already there. Shared by the
 * word index above and the trigram index of substring-index.ts; `tokenize` tells them apart.
 */
export async function createFts5Mirror(
  db: UntypedDb,
  name: string,
  tableName: string,
  indexed: readonly string[],
  tokenize: string,
): Promise<void> {
  const fts = sql.id(name);
  const table = sql.id(tableName);
  const columns = sql.join(indexed.map((c) => sql.id(c)));
  const values = (row: 'new' | 'old') => sql.join(indexed.map((c) => sql`${sql.raw(row)}.${sql.id(c)}`));
  const trigger = (suffix: string) => sql.id(`${name}_${suffix}`);
  await sql`create virtual table ${fts} using fts5(${columns}, content=${sql.lit(tableName)}, content_rowid='id', tokenize=${sql.lit(tokenize)})`.execute(
    db,
  );
  await sql`create trigger ${trigger('ai')} after insert on ${table} begin
    insert into ${fts} (rowid, ${columns}) values (new.id, ${values('new')});
  end`.execute(db);
  await sql`create trigger ${trigger('ad')} after delete on ${table} begin
    insert into ${fts} (${fts}, rowid, ${columns}) values ('delete', old.id, ${values('old')});
  end`.execute(db);
  await sql`create trigger ${trigger('au')} after update of ${columns} on ${table} begin
    insert into ${fts} (${fts}, rowid, ${columns}) values ('delete', old.id, ${values('old')});
    insert into ${fts} (rowid, ${columns}) values (new.id, ${values('new')});
  end`.execute(db);
  // Rows that existed before the index.
  await sql`insert into ${fts} (${fts}) values ('rebuild')`.execute(db);
}

/** Removes the index and what kept it in sync. */
export async function dropFullTextIndex(db: UntypedDb, dialect: DialectName, index: FullTextIndex): Promise<void> {
  if (dialect === 'postgres') {
    const refresh = sql.id(`${index.table}_fts_refresh`);
    await sql`drop trigger if exists ${refresh} on ${sql.id(index.table)}`.execute(db);
    await sql`drop function if exists ${refresh}()`.execute(db);
    await sql`alter table ${sql.id(index.table)} drop column if exists ${sql.id(PG_COLUMN)}`.execute(db);
    return;
  }
  for (const suffix of ['ai', 'ad', 'au'])
    await sql`drop trigger if exists ${sql.id(`${ftsTable(index)}_${suffix}`)}`.execute(db);
  await sql`drop table if exists ${sql.id(ftsTable(index))}`.execute(db);
}

export interface FullTextSearch {
  /** True for the rows of the table that match every word of the query. */
  readonly matches: RawBuilder<SqlBool>;
  /** Relevance of a matching row, best first in ascending order (`orderBy(search.rank)`). */
  readonly rank: RawBuilder<number>;
}

/**
 * A search of `query` in the index, for the rows of `index.table` (named `from` in the query, when
 * it has an alias); null when the query holds no searchable word (nothing would match).
 */
export function fullTextSearch(
  dialect: DialectName,
  index: FullTextIndex,
  query: string,
  from: string = index.table,
): FullTextSearch | null {
  const terms = searchTerms(query);
  if (terms.length === 0) return null;
  if (dialect === 'postgres') {
    // Words are letters, digits and marks only, so they need no quoting in the tsquery syntax.
    const tsquery = sql`to_tsquery('simple'::regconfig, ${terms.map((t) => `${foldAccents(t)}:*`).join(' & ')})`;
    const document = sql.ref(`${from}.${PG_COLUMN}`);
    return {
      matches: sql<SqlBool>`${document} @@ ${tsquery}`,
      rank: sql<number>`(0 - ts_rank(${document}, ${tsquery}))`,
    };
  }
  const id = sql.ref(`${from}.id`);
  const fts = sql.id(ftsTable(index));
  const match = terms.map((t) => `"${t}"*`).join(' ');
  return {
    matches: sql<SqlBool>`${id} in (select rowid from ${fts} where ${fts} match ${match})`,
    rank: sql<number>`(select rank from ${fts} where ${fts} match ${match} and rowid = ${id})`,
  };
}
