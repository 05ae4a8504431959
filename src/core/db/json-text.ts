import { sql, type RawBuilder } from 'kysely';
import type { DialectName } from './database.js';

/**
 * The text of one top-level key of a JSON document stored as text (the attributes columns), or
 * NULL when the key is absent: `->>` on PostgreSQL, `json_extract` on SQLite (cast to text, and
 * NULL for a document that is not JSON). `column` must be a trusted reference (callers whitelist
 * it); the key travels as a bound parameter.
 */
export function jsonTextField(dialect: DialectName, column: string, key: string): RawBuilder<string | null> {
  if (dialect === 'postgres') return sql<string | null>`(${sql.ref(column)}::jsonb ->> cast(${key} as text))`;
  const path = `$."${key.replace(/["\\]/g, '')}"`;
  return sql<
    string | null
  >`(case when json_valid(${sql.ref(column)}) then cast(json_extract(${sql.ref(column)}, ${path}) as text) end)`;
}

/**
 * The text at a nested path of a JSON document stored as text (`to_stage.id` is ['to_stage', 'id']),
 * or NULL: `#>>` on PostgreSQL, `json_extract` on SQLite. Path keys are trusted (written by code).
 */
export function jsonPathText(dialect: DialectName, column: string, path: readonly string[]): RawBuilder<string | null> {
  if (dialect === 'postgres') return sql<string | null>`(${sql.ref(column)}::jsonb #>> ${`{${path.join(',')}}`})`;
  const jsonPath = `$${path.map((key) => `."${key.replace(/["\\]/g, '')}"`).join('')}`;
  return sql<
    string | null
  >`(case when json_valid(${sql.ref(column)}) then cast(json_extract(${sql.ref(column)}, ${jsonPath}) as text) end)`;
}
