import { expect } from 'vitest';
import type { TestAccount } from './factories.js';
import { client } from './http.js';
import { sql } from 'kysely';
import { testDialect, type ChatTestApp } from './test-app.js';

/** Pipeline automation helpers: created through the API, as a client would. */

export async function newAutomation(t: ChatTestApp, account: TestAccount, body: Record<string, unknown>) {
  const res = await client(t.app, account.admin.token).post(`${account.path}/pipeline/automations`, {
    name: `Automation ${String(body.trigger)}`,
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: number; [field: string]: any };
}

/** An automation's executions, newest first. */
export async function executionsOf(t: ChatTestApp, account: TestAccount, id: number) {
  const res = await client(t.app, account.admin.token).get(`${account.path}/pipeline/automations/${id}/executions`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: number; status: string; trigger: string; card_id: number; [field: string]: any }[];
}

/**
 * Every table's row count (the whole test database), for "nothing changed at all" checks. On
 * PostgreSQL only the test's own schema, listed without the catalog-wide introspection: the shared
 * cluster holds other tests' schemas, which come and go (and change) while this one runs.
 */
export async function allRowCounts(t: ChatTestApp): Promise<Record<string, number>> {
  const tables =
    testDialect === 'postgres'
      ? (
          await sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(t.db)
        ).rows
      : await t.db.introspection.getTables();
  const out: Record<string, number> = {};
  for (const table of tables) {
    const row = await (t.db as any)
      .selectFrom(table.name)
      .select((eb: any) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    out[table.name] = Number(row.n);
  }
  return out;
}
