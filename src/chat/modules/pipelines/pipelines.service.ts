import { invalidField, notFound } from '../../../core/http/errors.js';
import type { AccountContext, ChatDeps, Q } from '../../context.js';
import type { CardRecords } from './pipeline-cards.records.js';
import { totalValue, type CurrencyTotal } from './pipeline-cards.money.js';
import { STAGE_KEY_PATTERN } from './pipeline-stages.slug.js';
import { createStages, replaceStages } from './pipeline-stages.replace.js';
import type { PipelineView, StageView } from './pipelines.presenter.js';
import * as repo from './pipelines.repository.js';
import * as counts from './stage-counts.repository.js';
import type { PipelineCreateBody, PipelineUpdateBody, StageInput } from './pipelines.schema.js';
import type { Pipeline, PipelineStage } from './pipelines.tables.js';

function cleanText(field: string, value: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw invalidField(field, "can't be blank");
  return trimmed;
}

/** Refuses blank stage names before anything is written. */
function checkStages(stages: Record<string, StageInput>) {
  for (const [key, stage] of Object.entries(stages)) cleanText(`stages.${key}.name`, stage.name);
}

/**
 * Pipelines and their stages. Administrators create, change and delete them (the routes say so);
 * every member reads them. Counts and value totals come from one grouped query over the stage
 * counts (a few rows per stage, kept with every card change), never from loading cards.
 */
export class PipelinesService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly records: CardRecords,
  ) {}

  async list(ctx: AccountContext): Promise<PipelineView[]> {
    const pipelines = await repo.listPipelines(this.deps.db, ctx.accountId);
    return this.views(this.deps.db, ctx.accountId, pipelines);
  }

  async get(ctx: AccountContext, id: number, q: Q = this.deps.db): Promise<PipelineView> {
    return (await this.views(q, ctx.accountId, [await this.find(q, ctx.accountId, id)]))[0];
  }

  /** The stages of a pipeline in board order, with their counts. */
  async stages(ctx: AccountContext, pipelineId: number): Promise<StageView[]> {
    return (await this.get(ctx, pipelineId)).stages;
  }

  async create(ctx: AccountContext, body: PipelineCreateBody): Promise<PipelineView> {
    const name = cleanText('name', body.name);
    checkStages(body.stages);
    return this.deps.db.transaction().execute(async (trx) => {
      const now = Date.now();
      const pipeline = await repo.insertPipeline(trx, {
        account_id: ctx.accountId,
        name,
        description: body.description ?? null,
        created_at: now,
        updated_at: now,
      });
      await createStages(trx, pipeline, body.stages, now);
      return this.get(ctx, pipeline.id, trx);
    });
  }

  /** Renames, describes, and (with `stages`) replaces the stage set; see replaceStages. */
  async update(ctx: AccountContext, id: number, body: PipelineUpdateBody): Promise<PipelineView> {
    const name = body.name === undefined ? undefined : cleanText('name', body.name);
    if (body.stages) checkStages(body.stages);
    return this.deps.db.transaction().execute(async (trx) => {
      const pipeline = await this.find(trx, ctx.accountId, id);
      const now = Date.now();
      if (body.stages) await replaceStages(trx, ctx, this.records, pipeline, body.stages, now);
      await repo.updatePipeline(trx, ctx.accountId, id, { name, description: body.description, updated_at: now });
      return this.get(ctx, id, trx);
    });
  }

  /** Deletes the pipeline, its stages, cards, timelines and attachment rows; then the files. */
  async delete(ctx: AccountContext, id: number): Promise<void> {
    const files = await this.deps.db.transaction().execute(async (trx) => {
      await this.find(trx, ctx.accountId, id);
      return repo.deletePipeline(trx, ctx.accountId, id);
    });
    await this.deps.fileStore.remove(files);
  }

  /** A stage of the account by its public id (`{pipeline_id}_{slug}`), or undefined. */
  async stageByKey(q: Q, accountId: number, key: string): Promise<PipelineStage | undefined> {
    if (!STAGE_KEY_PATTERN.test(key)) return undefined;
    return repo.findStageByKey(q, accountId, key);
  }

  /** The stages of the account (or of one pipeline) in list order: by position, then pipeline. */
  stagesInListOrder(q: Q, accountId: number, pipelineId?: number): Promise<PipelineStage[]> {
    return repo.stagesInListOrder(q, accountId, pipelineId);
  }

  async find(q: Q, accountId: number, id: number): Promise<Pipeline> {
    const pipeline = await repo.findPipeline(q, accountId, id);
    if (!pipeline) throw notFound('Pipeline');
    return pipeline;
  }

  /** Pipelines with their stages, counts and totals: two queries whatever the number of pipelines. */
  private async views(q: Q, accountId: number, pipelines: Pipeline[]): Promise<PipelineView[]> {
    const ids = pipelines.map((p) => p.id);
    const [stages, totals] = await Promise.all([
      repo.stagesOfPipelines(q, accountId, ids),
      counts.stageTotals(q, accountId, ids),
    ]);
    const byStage = new Map<number, { cards: number; totals: CurrencyTotal[] }>();
    for (const row of totals) {
      const entry = byStage.get(row.stage_id) ?? { cards: 0, totals: [] };
      entry.cards += row.cards;
      entry.totals.push(row);
      byStage.set(row.stage_id, entry);
    }
    return pipelines.map((pipeline) => {
      const own = stages.filter((s) => s.pipeline_id === pipeline.id);
      const stageViews = own.map((stage) => {
        const entry = byStage.get(stage.id);
        return { stage, cardsCount: entry?.cards ?? 0, totalValue: totalValue(entry?.totals ?? []) };
      });
      const all = own.flatMap((s) => byStage.get(s.id)?.totals ?? []);
      return {
        pipeline,
        stages: stageViews,
        cardsCount: stageViews.reduce((n, s) => n + s.cardsCount, 0),
        totalValue: totalValue(all),
      };
    });
  }
}
