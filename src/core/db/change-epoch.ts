import { CompiledQuery, sql, type RawBuilder } from 'kysely';
import type { DialectName } from './database.js';
import type { UntypedDb } from './untyped.js';

/**
 * A change epoch: a one-row counter table that database triggers bump whenever chosen tables
 * change, so a process can keep a cache of what those tables say and know, with one primary-key
 * read, whether anything it cached may have changed — whoever made the change (this instance,
 * another instance, the CLI, a hand-written SQL statement). The bump is part of the changing
 * transaction: a rolled-back change bumps nothing, a committed one is seen by the next read.
 *
 * PostgreSQL: the bump runs in a constraint trigger deferred to commit. The counter is one row,
 * so transactions that bump it wait for each other at commit; deferring keeps that wait to the
 * commit itself (no lock held while the rest of the transaction runs, so no new deadlock between
 * two changing transactions). Meant for tables that change rarely (credentials, roles), never for
 * hot ones.
 */

/** What changes of one table bump the epoch. */
export interface EpochSource {
  table: string;
  /**
   * Only these columns matter: an insert or a delete bumps when one of them is not null in the
   * row, an update when one of them changes. Every change of the table bumps when omitted.
   */
  columns?: readonly string[];
}

const id = (name: string) => sql.id(name);
const ref = (row: 'new' | 'old', column: string) => sql`${sql.raw(row)}.${sql.id(column)}`;
const anyOf = (parts: RawBuilder<unknown>[]) => sql.join(parts, sql` or `);
const someSet = (row: 'new' | 'old', columns: readonly string[]) =>
  anyOf(columns.map((c) => sql`${ref(row, c)} is not null`));
const someChanged = (columns: readonly string[], dialect: DialectName) =>
  anyOf(
    columns.map((c) =>
      dialect === 'postgres'
        ? sql`${ref('old', c)} is distinct from ${ref('new', c)}`
        : sql`${ref('old', c)} is not ${ref('new', c)}`,
    ),
  );

/** Creates the counter table `name` (one row, id 1, value 0) and, on PostgreSQL, its bump function. */
export async function createChangeEpoch(db: UntypedDb, dialect: DialectName, name: string): Promise<void> {
  await db.schema
    .createTable(name)
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto(name).values({ id: 1, value: 0 }).execute();
  if (dialect !== 'postgres') return;
  // `set search_path from current`: the function finds its table in the schema it was created in,
  // whatever the search path of the session whose change fires it.
  await sql`create function ${id(`${name}_bump`)}() returns trigger language plpgsql
    set search_path from current as $$
    begin
      update ${id(name)} set value = value + 1 where id = 1;
      return null;
    end
  $$`.execute(db);
}

/** Makes the changes of `source.table` bump the epoch `name` (run in a migration, after createChangeEpoch). */
export async function bumpEpochOnChange(
  db: UntypedDb,
  dialect: DialectName,
  name: string,
  source: EpochSource,
): Promise<void> {
  const columns = source.columns;
  const events: { suffix: string; event: RawBuilder<unknown>; when?: RawBuilder<unknown> }[] = [
    { suffix: 'ai', event: sql`insert`, when: columns && someSet('new', columns) },
    { suffix: 'ad', event: sql`delete`, when: columns && someSet('old', columns) },
    {
      suffix: 'au',
      event: columns ? sql`update of ${sql.join(columns.map(id))}` : sql`update`,
      when: columns && someChanged(columns, dialect),
    },
  ];
  for (const { suffix, event, when } of events) {
    const trigger = id(`${source.table}_${name}_${suffix}`);
    const table = id(source.table);
    if (dialect === 'postgres') {
      await sql`create constraint trigger ${trigger} after ${event} on ${table}
        deferrable initially deferred for each row
        ${when ? sql`when (${when})` : sql``}
        execute function ${id(`${name}_bump`)}()`.execute(db);
    } else {
      await sql`create trigger ${trigger} after ${event} on ${table}
        ${when ? sql`when ${when}` : sql``}
        begin update ${id(name)} set value = value + 1 where id = 1; end`.execute(db);
    }
  }
}

/**
 * Reads the epoch `name`: one primary-key query, compiled once. Undefined when the row is missing
 * (then nothing may be cached).
 */
export function epochReader(db: UntypedDb, name: string): () => Promise<number | undefined> {
  const read = epochsReader(db, [name]);
  return async () => (await read())[0];
}

/** Reads several epochs in one statement (a primary-key lookup each), in the order of `names`. */
export function epochsReader(db: UntypedDb, names: readonly string[]): () => Promise<(number | undefined)[]> {
  const columns = names.map((name, i) => `(select value from ${quoteIdentifier(name)} where id = 1) as e${i}`);
  const query = CompiledQuery.raw(`select ${columns.join(', ')}`);
  return async () => {
    const { rows } = await db.executeQuery<Record<string, number | string | null>>(query);
    return names.map((_, i) => {
      const value = rows[0]?.[`e${i}`];
      return value === null || value === undefined ? undefined : Number(value);
    });
  };
}

function quoteIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`invalid table name: ${name}`);
  return `"${name}"`;
}
