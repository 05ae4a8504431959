/**
 * The sales pipeline's card list at two sizes and lead scoring's bulk recalculation, on the
 * conversation service's SQLite database.
 */
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { api, measure, type Result } from './harness.js';
import type { ChatDatabase } from '../src/chat/db/schema.js';

/**
 * The card list of the sales pipeline at 1,000 and at 100,000 cards: a pipeline of five stages is
 * created through the API, its cards are inserted straight into the service's SQLite file through
 * the module's repository (the API would take minutes for 100,000), then the same requests are
 * measured at both sizes: the pipeline's first page (25), and one stage's open cards.
 */
export async function measurePipelineCards(
  base: string,
  token: string,
  accountId: number,
  dataDir: string,
  adminId: number,
) {
  const A = `/api/v1/accounts/${accountId}`;
  const { openDatabase } = await import('../src/core/db/database.js');
  const { insertCards } = await import('../src/chat/modules/pipelines/pipeline-cards.repository.js');
  const stages = Object.fromEntries(
    ['Lead', 'Qualified', 'Proposal', 'Negotiation', 'Closing'].map((name, i) => [`s${i}`, { name, position: i + 1 }]),
  );
  const pipeline = (await api(base, token, 'POST', `${A}/pipelines`, { name: 'Bench pipeline', stages })).data;
  const stageRows = new Map<string, number>();
  const database = await openDatabase<ChatDatabase>(`sqlite://${path.join(dataDir, 'chat.sqlite')}`);
  for (const row of await database.db
    .selectFrom('pipeline_stages')
    .select(['id', 'key'])
    .where('pipeline_id', '=', pipeline.id)
    .execute())
    stageRows.set(row.key, row.id);
  const stageIds = pipeline.stages.map((s: { id: string }) => stageRows.get(s.id)!);
  let seeded = 0;
  const seed = async (total: number) => {
    const now = Date.now();
    while (seeded < total) {
      await database.db.transaction().execute(async (trx) => {
        for (let batch = 0; batch < 10 && seeded < total; batch++) {
          const rows = [];
          for (let i = 0; i < 500 && seeded < total; i++, seeded++) {
            const stage = seeded % stageIds.length;
            rows.push({
              account_id: accountId,
              pipeline_id: pipeline.id,
              stage_id: stageIds[stage],
              title: `Bench deal ${seeded}`,
              item_title: null,
              value_minor: 10_000 + (seeded % 1000) * 100,
              currency: 'BRL',
              status: (seeded % 10 === 0 ? 'won' : seeded % 15 === 0 ? 'lost' : 'open') as 'open',
              position: Math.floor(seeded / stageIds.length),
              stage_version: 1,
              stage_entered_at: now,
              contact_id: null,
              conversation_id: null,
              owner_id: seeded % 4 === 0 ? adminId : null,
              expected_close_date: null,
              custom_attributes: '{}',
              qualification_checklist: '{}',
              lead_score: seeded % 101,
              lead_score_overridden: 0,
              won_note: null,
              lost_reason: null,
              closed_at: null,
              deleted_at: null,
              created_by: adminId,
              created_at: now,
              updated_at: now,
            });
          }
          await insertCards(trx, rows);
        }
      });
    }
  };
  const headers = { api_access_token: token, 'content-type': 'application/json' };
  const scenarios = (size: string) => [
    [`GET pipeline_cards, pipeline, 25/page (${size})`, `${base}${A}/pipeline_cards?pipeline_id=${pipeline.id}`],
    [
      `GET pipeline_cards, stage + open (${size})`,
      `${base}${A}/pipeline_cards?stage_id=${pipeline.stages[2].id}&status=open`,
    ],
  ];
  const results: Result[] = [];
  try {
    for (const [size, total] of [
      ['1,000 cards', 1_000],
      ['100,000 cards', 100_000],
    ] as const) {
      process.stdout.write(`seeding the pipeline to ${total} cards...\n`);
      await seed(total);
      for (const [name, url] of scenarios(size))
        results.push(await measure(name, { url, headers }, { ceiling: 'page' }));
    }
  } finally {
    await database.close();
  }
  return results;
}

/**
 * Lead scoring's bulk recalculation over 10,000 cards (BENCH_LEAD_CARDS): an account of its own with
 * the default rules (through the API), cards and three stored events per card inserted straight
 * into the database, then `bulk_recalculate` through the API, timed from the request to the moment
 * its progress endpoint says completed (the server's job runner does the work, in batches).
 */
export async function measureLeadScoring(base: string, platformToken: string, dataDir: string) {
  const total = Number(process.env.BENCH_LEAD_CARDS ?? 10_000);
  const { openDatabase } = await import('../src/core/db/database.js');
  const { insertCards } = await import('../src/chat/modules/pipelines/pipeline-cards.repository.js');
  const account = await api(base, platformToken, 'POST', '/platform/api/v1/accounts', { name: 'Bench scoring' });
  const user = await api(base, platformToken, 'POST', '/platform/api/v1/users', {
    name: 'Scoring Admin',
    email: `bench-scoring-${randomBytes(4).toString('hex')}@example.test`,
    password: 'bench-password',
  });
  await api(base, platformToken, 'POST', `/platform/api/v1/accounts/${account.id}/account_users`, {
    user_id: user.id,
    role: 'administrator',
  });
  const token: string = user.access_token;
  const A = `/api/v1/accounts/${account.id}`;
  await api(base, token, 'POST', `${A}/lead_score_rules/create_defaults`);
  const stages = { a: { name: 'Lead' }, b: { name: 'Proposal' } };
  const pipeline = (await api(base, token, 'POST', `${A}/pipelines`, { name: 'Scoring pipeline', stages })).data;
  const database = await openDatabase<ChatDatabase>(`sqlite://${path.join(dataDir, 'chat.sqlite')}`);
  try {
    const stage = await database.db
      .selectFrom('pipeline_stages')
      .select('id')
      .where('pipeline_id', '=', pipeline.id)
      .orderBy('position')
      .executeTakeFirstOrThrow();
    process.stdout.write(`seeding ${total} scored cards...\n`);
    const now = Date.now();
    for (let done = 0; done < total;) {
      await database.db.transaction().execute(async (trx) => {
        const rows = [];
        for (let i = 0; i < 500 && done < total; i++, done++) {
          rows.push({
            account_id: account.id,
            pipeline_id: pipeline.id,
            stage_id: stage.id,
            title: `Scored deal ${done}`,
            item_title: null,
            value_minor: (done % 3 === 0 ? 2_000_000 : 50_000) as number,
            currency: 'BRL',
            status: 'open' as const,
            position: done,
            stage_version: 1,
            stage_entered_at: now,
            contact_id: null,
            conversation_id: null,
            owner_id: null,
            expected_close_date: null,
            custom_attributes: '{}',
            qualification_checklist: '{}',
            lead_score: 0,
            lead_score_overridden: 0,
            won_note: null,
            lost_reason: null,
            closed_at: null,
            deleted_at: null,
            created_by: user.id,
            created_at: now,
            updated_at: now,
          });
        }
        await insertCards(trx, rows);
        const cards = await trx
          .selectFrom('pipeline_cards')
          .select('id')
          .where('account_id', '=', account.id)
          .orderBy('id', 'desc')
          .limit(rows.length)
          .execute();
        const events = cards.flatMap((card, i) =>
          (['card_created', 'message_received', 'stage_changed'] as const).map((type, k) => ({
            account_id: account.id,
            card_id: card.id,
            event_key: `bench:${card.id}:${k}`,
            event_type: type,
            event_subtype: null,
            attributes: JSON.stringify({ value: i % 3 === 0 ? 20_000 : 500, pipeline_id: pipeline.id }),
            contact_id: null,
            conversation_id: null,
            occurred_at: now + k * 1000,
            created_at: now,
          })),
        );
        await trx.insertInto('lead_score_events').values(events).execute();
      });
    }
  } finally {
    await database.close();
  }
  const started = Date.now();
  const job = (await api(base, token, 'POST', `${A}/lead_score/reports/bulk_recalculate`)).data;
  let progress = job;
  while (progress.status !== 'completed' && progress.status !== 'failed') {
    await new Promise((r) => setTimeout(r, 200));
    progress = (await api(base, token, 'GET', `${A}/lead_score/reports/bulk_recalculate/${job.job_id}`)).data;
  }
  return { cards: progress.processed as number, status: progress.status as string, ms: Date.now() - started };
}
