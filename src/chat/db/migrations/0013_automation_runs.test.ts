import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../../core/db/migrator.js';
import { openTestDatabase, type TestDatabase } from '../../../../test/helpers/test-app.js';
import type { ChatDatabase } from '../schema.js';
import { chatMigrations } from '../../modules.js';

/**
 * 0013_automation_runs and 0131_pipeline_automation_runs on a database that already holds runs in
 * both old tables (an upgrade, on both dialects): every row reaches `automation_runs`, the old
 * tables are gone, and the runs still go with their automation and with their account.
 */

let database: TestDatabase<ChatDatabase>;

beforeAll(async () => {
  database = await openTestDatabase<ChatDatabase>('migr0013');
});
afterAll(async () => {
  await database.close();
});

const NEW = ['0013_automation_runs', '0131_pipeline_automation_runs'];

describe('migrations 0013_automation_runs and 0131_pipeline_automation_runs', () => {
  it('move the runs of both old tables into automation_runs, keeping every field', async () => {
    const before = Object.fromEntries(Object.entries(chatMigrations).filter(([name]) => !NEW.includes(name)));
    expect(Object.keys(before)).toHaveLength(Object.keys(chatMigrations).length - NEW.length);
    await migrateToLatest(database.db, database.dialect, before);

    // Rows written before the upgrade (the old tables), through an untyped handle.
    const db = database.db as unknown as Kysely<any>;
    const now = 1_700_000_000_000;
    const insertId = async (table: string, values: Record<string, unknown>) =>
      Number((await db.insertInto(table).values(values).returning('id').executeTakeFirstOrThrow()).id);
    const accountIds: number[] = [];
    for (const name of ['Old', 'Other'])
      accountIds.push(await insertId('accounts', { name, created_at: now, updated_at: now }));
    const [account, other] = accountIds;
    const ruleValues = (accountId: number) => ({
      account_id: accountId,
      name: 'Prioritise',
      event_name: 'conversation_created',
      conditions: '[]',
      actions: '[]',
      created_at: now,
      updated_at: now,
    });
    const rule = await insertId('automation_rules', ruleValues(account));
    const otherRule = await insertId('automation_rules', ruleValues(other));
    const ruleRun = (accountId: number, ruleId: number, at: number, displayId: number | null, outcome: string) => ({
      account_id: accountId,
      rule_id: ruleId,
      event_name: 'conversation_created',
      event_id: at - now + 10,
      conversation_display_id: displayId,
      outcome,
      actions_applied: outcome === 'applied' ? '["change_priority"]' : '[]',
      error: outcome === 'failed' ? 'action 0 (change_priority): boom' : null,
      created_at: at,
    });
    // Inserted out of time order: the copy orders them by when they ran.
    await db
      .insertInto('automation_rule_runs')
      .values([
        ruleRun(account, rule, now + 2000, 7, 'failed'),
        ruleRun(account, rule, now + 1000, 3, 'applied'),
        ruleRun(other, otherRule, now + 1500, null, 'applied'),
      ])
      .execute();

    const automationValues = (accountId: number, name: string) => ({
      account_id: accountId,
      name,
      trigger: 'time_in_stage',
      trigger_config: '{"days":3}',
      webhook_secret: `secret-${name}`,
      created_at: now,
      updated_at: now,
    });
    const automation = await insertId('pipeline_automations', automationValues(account, 'Nudge'));
    const kept = await insertId('pipeline_automations', automationValues(account, 'Keep'));
    const pipelineRun = (automationId: number, subjectId: number, status: string, dedupeKey: string | null) => ({
      account_id: account,
      automation_id: automationId,
      subject_type: 'card',
      subject_id: subjectId,
      trigger: 'time_in_stage',
      status,
      actions: JSON.stringify([
        { type: 'add_note', status: status === 'failed' ? 'failed' : 'succeeded', error: null },
      ]),
      error: status === 'failed' ? 'card has no conversation' : null,
      event_id: null,
      dedupe_key: dedupeKey,
      started_at: now + 500,
      finished_at: now + 512,
      duration_ms: 12,
    });
    await db
      .insertInto('pipeline_automation_runs')
      .values([
        pipelineRun(automation, 41, 'succeeded', `stage:${now}`),
        pipelineRun(automation, 42, 'failed', null),
        pipelineRun(kept, 41, 'skipped', null),
      ])
      .execute();

    await migrateToLatest(database.db, database.dialect, chatMigrations);

    const runs = await database.db.selectFrom('automation_runs').selectAll().orderBy('id').execute();
    const { id: _id, ...firstPipelineRun } = runs[3];
    expect(runs.map(({ id: _, ...run }) => run)).toEqual([
      {
        account_id: account,
        automation_kind: 'automation_rule',
        automation_id: rule,
        rule_id: rule,
        pipeline_automation_id: null,
        subject_type: 'conversation',
        subject_id: 3,
        trigger: 'conversation_created',
        status: 'applied',
        actions: '["change_priority"]',
        error: null,
        event_id: 1010,
        dedupe_key: null,
        started_at: now + 1000,
        finished_at: now + 1000,
        duration_ms: 0,
      },
      expect.objectContaining({ account_id: other, automation_id: otherRule, subject_id: 0, started_at: now + 1500 }),
      expect.objectContaining({
        automation_id: rule,
        subject_id: 7,
        status: 'failed',
        error: 'action 0 (change_priority): boom',
        actions: '[]',
        event_id: 2010,
      }),
      firstPipelineRun,
      expect.objectContaining({ automation_id: automation, subject_id: 42, status: 'failed', dedupe_key: null }),
      expect.objectContaining({ automation_id: kept, pipeline_automation_id: kept, status: 'skipped' }),
    ]);
    expect(firstPipelineRun).toEqual({
      account_id: account,
      automation_kind: 'pipeline_automation',
      automation_id: automation,
      rule_id: null,
      pipeline_automation_id: automation,
      subject_type: 'card',
      subject_id: 41,
      trigger: 'time_in_stage',
      status: 'succeeded',
      actions: '[{"type":"add_note","status":"succeeded","error":null}]',
      error: null,
      event_id: null,
      dedupe_key: `stage:${now}`,
      started_at: now + 500,
      finished_at: now + 512,
      duration_ms: 12,
    });

    // The old tables are gone.
    for (const table of ['automation_rule_runs', 'pipeline_automation_runs'])
      await expect(db.selectFrom(table).select('id').execute()).rejects.toThrow();

    // A scheduled check still fires once per occasion: the dedupe key stays unique per automation and card.
    await expect(
      db
        .insertInto('automation_runs')
        .values({ ...firstPipelineRun, status: 'failed' })
        .execute(),
    ).rejects.toThrow();

    // Runs go with their automation (rule or pipeline automation) and with their account.
    const left = async () =>
      (
        await database.db
          .selectFrom('automation_runs')
          .select(['automation_kind', 'automation_id'])
          .orderBy('id')
          .execute()
      ).map((r) => `${r.automation_kind}:${r.automation_id}`);
    await db.deleteFrom('automation_rules').where('id', '=', rule).execute();
    await db.deleteFrom('pipeline_automations').where('id', '=', automation).execute();
    expect(await left()).toEqual([`automation_rule:${otherRule}`, `pipeline_automation:${kept}`]);
    await db.deleteFrom('accounts').where('id', '=', other).execute();
    expect(await left()).toEqual([`pipeline_automation:${kept}`]);
  });
});
