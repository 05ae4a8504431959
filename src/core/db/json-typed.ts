import { sql, type RawBuilder } from 'kysely';
import type { DialectName } from './database.js';
import { jsonTextField } from './json-text.js';

/**
 * Typed reads of one top-level key of a JSON document stored as text (the attributes columns), for
 * comparisons in SQL. Each answers NULL when the key is absent or its value does not read as that
 * type, so a malformed value never fails the statement (PostgreSQL would raise on a bad cast) and
 * reads the same on both dialects. `column` must be a trusted reference (callers whitelist it); the
 * key travels as a bound parameter.
 */

/** SQLite: the JSON path of a key (quotes and backslashes cannot occur in a whitelisted key). */
const sqlitePath = (key: string) => `$."${key.replace(/["\\]/g, '')}"`;

/**
 * The number a key holds: a JSON number, or text that is a plain decimal number (`"12"`, `"-3.5"`,
 * surrounding spaces allowed). Anything else (`"12abc"`, `"1e3"`, `true`) is NULL.
 */
export function jsonNumberField(dialect: DialectName, column: string, key: string): RawBuilder<number | null> {
  if (dialect === 'postgres') {
    const value = sql`(${sql.ref(column)}::jsonb -> ${key}::text)`;
    const text = sql`btrim(${sql.ref(column)}::jsonb ->> ${key}::text)`;
    return sql<number | null>`(case jsonb_typeof(${value})
      when 'number' then (${sql.ref(column)}::jsonb ->> ${key}::text)::numeric
      when 'string' then case when ${text} ~ '^-?[0-9]*[.]?[0-9]*$' and ${text} ~ '[0-9]' then ${text}::numeric end
    end)`;
  }
  const path = sqlitePath(key);
  const raw = sql`json_extract(${sql.ref(column)}, ${path})`;
  const text = sql`trim(${raw})`;
  // GLOB cannot say "one optional leading minus, at most one dot", so it is said in four parts.
  return sql<number | null>`(case when json_valid(${sql.ref(column)}) then
    case json_type(${sql.ref(column)}, ${path})
      when 'integer' then ${raw}
      when 'real' then ${raw}
      when 'text' then case when ${text} glob '*[0-9]*' and ${text} not glob '*[^0-9.-]*'
        and ${text} not glob '*.*.*' and ${text} not glob '?*-*' then cast(${text} as real) end
    end
  end)`;
}

/** 1 or 0 for a key holding true or false (JSON booleans, or the text "true"/"false" in any case), else NULL. */
export function jsonBooleanField(dialect: DialectName, column: string, key: string): RawBuilder<number | null> {
  if (dialect === 'postgres') {
    const value = sql`(${sql.ref(column)}::jsonb -> ${key}::text)`;
    const text = sql`lower(btrim(${sql.ref(column)}::jsonb ->> ${key}::text))`;
    return sql<number | null>`(case when jsonb_typeof(${value}) in ('boolean', 'string') then
      case ${text} when 'true' then 1 when 'false' then 0 end
    end)`;
  }
  const path = sqlitePath(key);
  const text = sql`lower(trim(json_extract(${sql.ref(column)}, ${path})))`;
  return sql<number | null>`(case when json_valid(${sql.ref(column)}) then
    case json_type(${sql.ref(column)}, ${path})
      when 'true' then 1
      when 'false' then 0
      when 'text' then case ${text} when 'true' then 1 when 'false' then 0 end
    end
  end)`;
}

/**
 * The calendar day (`YYYY-MM-DD`) a key holds: the first ten characters of text starting with a
 * date (`2024-05-01`, `2024-05-01T10:00:00Z`), else NULL. Days compare as text in both dialects.
 */
export function jsonDateField(dialect: DialectName, column: string, key: string): RawBuilder<string | null> {
  const text = jsonTextField(dialect, column, key);
  const isDate =
    dialect === 'postgres'
      ? sql`${text} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}'`
      : sql`${text} glob '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*'`;
  return sql<string | null>`(case when ${isDate} then substr(${text}, 1, 10) end)`;
}
