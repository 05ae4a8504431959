import { sql } from 'kysely';
import type { DialectName } from './database.js';
import type { UntypedDb } from './untyped.js';

/** Triggers that keep a table of counts in step with the rows of another (see createCountTriggers). */
export interface CountTriggers {
  /** The counts table; also the prefix of the triggers' (and PostgreSQL function's) names. */
  name: string;
  /** The counted table. */
  table: string;
  /** SQL adding the row `NEW` to its bucket. */
  increment: string;
  /** SQL taking the row `OLD` out of its bucket. */
  decrement: string;
  /** When an update moves a row between buckets (PostgreSQL spelling: `is distinct from`). */
  moved: string;
  /** Only updates of these columns can move a row (all columns when absent). */
  updateOf?: readonly string[];
}

/**
 * Insert, delete and update triggers on `table` that run `increment` for new rows, `decrement` for
 * removed ones, and both for an update that moves a row between buckets. Database triggers rather
 * than application code, so every writer keeps the counts right (run in a migration).
 */
export async function createCountTriggers(db: UntypedDb, dialect: DialectName, t: CountTriggers): Promise<void> {
  const of = t.updateOf ? ` of ${t.updateOf.join(', ')}` : '';
  const run = (text: string) => sql.raw(text).execute(db);
  if (dialect === 'sqlite') {
    const moved = t.moved.replaceAll('is distinct from', 'is not');
    await run(`create trigger ${t.name}_insert after insert on ${t.table} begin ${t.increment}; end`);
    await run(`create trigger ${t.name}_delete after delete on ${t.table} begin ${t.decrement}; end`);
    await run(
      `create trigger ${t.name}_update after update${of} on ${t.table} when ${moved}
       begin ${t.decrement}; ${t.increment}; end`,
    );
    return;
  }
  const keep = `${t.name}_keep`;
  await run(
    `create function ${keep}() returns trigger language plpgsql as $$
     begin
       if tg_op in ('UPDATE', 'DELETE') then ${t.decrement}; end if;
       if tg_op in ('UPDATE', 'INSERT') then ${t.increment}; end if;
       return null;
     end $$`,
  );
  await run(`create trigger ${t.name}_insert after insert on ${t.table} for each row execute function ${keep}()`);
  await run(`create trigger ${t.name}_delete after delete on ${t.table} for each row execute function ${keep}()`);
  await run(
    `create trigger ${t.name}_update after update${of} on ${t.table} for each row
     when (${t.moved}) execute function ${keep}()`,
  );
}
