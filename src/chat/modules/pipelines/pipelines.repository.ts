import type { Insertable, Updateable } from 'kysely';
import { sameValueNoIndex } from '../../../core/db/where.js';
import type { Q } from '../../context.js';
import type { Pipeline, PipelineStage, PipelinesTable, PipelineStagesTable } from './pipelines.tables.js';
import { deleteCountsOfPipeline, deleteCountsOfStages } from './stage-counts.repository.js';

/** SQL of pipelines and stages. Every function takes the account and filters by it. */

export async function insertPipeline(q: Q, values: Insertable<PipelinesTable>): Promise<Pipeline> {
  return q.insertInto('pipelines').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findPipeline(q: Q, accountId: number, id: number): Promise<Pipeline | undefined> {
  return q
    .selectFrom('pipelines')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function listPipelines(q: Q, accountId: number): Promise<Pipeline[]> {
  return q.selectFrom('pipelines').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
}

export async function updatePipeline(q: Q, accountId: number, id: number, values: Updateable<PipelinesTable>) {
  await q.updateTable('pipelines').set(values).where('account_id', '=', accountId).where('id', '=', id).execute();
}

/**
 * Deletes a pipeline with everything under it, children first: timeline and attachment rows, cards,
 * stages. Returns the storage keys of the attachment files (remove them after the commit).
 */
export async function deletePipeline(q: Q, accountId: number, id: number): Promise<string[]> {
  const cards = q
    .selectFrom('pipeline_cards')
    .select('id')
    .where('account_id', '=', accountId)
    .where('pipeline_id', '=', id);
  const files = await q
    .deleteFrom('pipeline_card_attachments')
    .where('account_id', '=', accountId)
    .where('card_id', 'in', cards)
    .returning('storage_key')
    .execute();
  await q
    .deleteFrom('pipeline_card_timeline')
    .where('account_id', '=', accountId)
    .where('card_id', 'in', cards)
    .execute();
  await q.deleteFrom('pipeline_cards').where('account_id', '=', accountId).where('pipeline_id', '=', id).execute();
  await deleteCountsOfPipeline(q, accountId, id);
  await q.deleteFrom('pipeline_stages').where('account_id', '=', accountId).where('pipeline_id', '=', id).execute();
  await q.deleteFrom('pipelines').where('account_id', '=', accountId).where('id', '=', id).execute();
  return files.map((f) => f.storage_key);
}

/** The stages of some pipelines, each pipeline's in board order. */
export async function stagesOfPipelines(q: Q, accountId: number, pipelineIds: number[]): Promise<PipelineStage[]> {
  if (pipelineIds.length === 0) return [];
  return q
    .selectFrom('pipeline_stages')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('pipeline_id', 'in', pipelineIds)
    .orderBy('pipeline_id')
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** Every stage of the account in list order: by position, then pipeline. */
export async function stagesInListOrder(q: Q, accountId: number, pipelineId?: number): Promise<PipelineStage[]> {
  let query = q.selectFrom('pipeline_stages').selectAll().where('account_id', '=', accountId);
  if (pipelineId !== undefined) query = query.where('pipeline_id', '=', pipelineId);
  return query.orderBy('position').orderBy('pipeline_id').orderBy('id').execute();
}

export async function insertStages(q: Q, values: Insertable<PipelineStagesTable>[]): Promise<PipelineStage[]> {
  if (values.length === 0) return [];
  return q.insertInto('pipeline_stages').values(values).returningAll().execute();
}

export async function updateStage(q: Q, accountId: number, id: number, values: Updateable<PipelineStagesTable>) {
  await q.updateTable('pipeline_stages').set(values).where('account_id', '=', accountId).where('id', '=', id).execute();
}

/** Deletes stages that hold no card any more (their cards were moved first), with their counts. */
export async function deleteStages(q: Q, accountId: number, ids: number[]) {
  if (ids.length === 0) return;
  await deleteCountsOfStages(q, accountId, ids);
  await q.deleteFrom('pipeline_stages').where('account_id', '=', accountId).where('id', 'in', ids).execute();
}

/** A stage by its public id (`{pipeline_id}_{slug}`). */
export async function findStageByKey(q: Q, accountId: number, key: string): Promise<PipelineStage | undefined> {
  return q
    .selectFrom('pipeline_stages')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .executeTakeFirst();
}

/** Stages by row id with their pipeline's name, for presenting a page of cards (one query). */
export async function stagesWithPipelines(q: Q, accountId: number, stageIds: number[]) {
  if (stageIds.length === 0) return [];
  return q
    .selectFrom('pipeline_stages')
    .innerJoin('pipelines', 'pipelines.id', 'pipeline_stages.pipeline_id')
    .select([
      'pipeline_stages.id as id',
      'pipeline_stages.key as key',
      'pipeline_stages.name as name',
      'pipeline_stages.position as position',
      'pipelines.id as pipeline_id',
      'pipelines.name as pipeline_name',
    ])
    .where('pipeline_stages.id', 'in', [...new Set(stageIds)])
    .where(sameValueNoIndex('pipeline_stages.account_id', accountId))
    .execute();
}
