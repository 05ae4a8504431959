import type { AccountContext, Trx } from '../../context.js';
import type { CardRecords } from './pipeline-cards.records.js';
import * as cardsRepo from './pipeline-cards.repository.js';
import { nextStageKey } from './pipeline-stages.slug.js';
import * as repo from './pipelines.repository.js';
import type { StageInput } from './pipelines.schema.js';
import type { Pipeline, PipelineStage } from './pipelines.tables.js';

/** A stage of the input in board order, with the id it keeps (existing) or will get (new). */
interface PlannedStage {
  input: StageInput;
  existing: PipelineStage | undefined;
  position: number;
}

/**
 * The stages of a hash in board order: those with a `position` (1 = first) by it, then those
 * without, each group in the hash's own order. Positions are then renumbered from 0.
 */
export function orderStages(hash: Record<string, StageInput>): [string, StageInput][] {
  return Object.entries(hash)
    .map((entry, index) => ({ entry, index }))
    .sort(
      (a, b) =>
        (a.entry[1].position ?? Number.MAX_SAFE_INTEGER) - (b.entry[1].position ?? Number.MAX_SAFE_INTEGER) ||
        a.index - b.index,
    )
    .map(({ entry }) => entry);
}

const cleanName = (name: string) => name.trim();

/** Creates a new pipeline's stages, ids `{pipeline_id}_{slug}` (`_2`, `_3` on collision). */
export async function createStages(
  trx: Trx,
  pipeline: Pipeline,
  hash: Record<string, StageInput>,
  now: number,
): Promise<PipelineStage[]> {
  const taken = new Set<string>();
  return repo.insertStages(
    trx,
    orderStages(hash).map(([, input], position) => ({
      account_id: pipeline.account_id,
      pipeline_id: pipeline.id,
      key: nextStageKey(pipeline.id, cleanName(input.name), taken),
      name: cleanName(input.name),
      color: input.color ?? null,
      position,
      created_at: now,
      updated_at: now,
    })),
  );
}

/**
 * Makes `hash` the pipeline's stage set. A key that is one of the pipeline's stage ids keeps that
 * stage (renamed, recoloured, repositioned; its id never changes); any other key is a new stage.
 * Stages left out are removed: their cards, discarded ones included, first move to the first
 * remaining stage, each with a `stage_change` entry, and the live ones with a `pipeline_card_moved`
 * event. New ids never reuse an id the pipeline had, so an old id cannot name a different stage.
 */
export async function replaceStages(
  trx: Trx,
  ctx: AccountContext,
  records: CardRecords,
  pipeline: Pipeline,
  hash: Record<string, StageInput>,
  now: number,
): Promise<void> {
  const current = await repo.stagesOfPipelines(trx, ctx.accountId, [pipeline.id]);
  const byKey = new Map(current.map((s) => [s.key, s]));
  const planned: PlannedStage[] = orderStages(hash).map(([key, input], position) => ({
    input,
    existing: byKey.get(key),
    position,
  }));
  const kept = new Set(planned.flatMap((p) => (p.existing ? [p.existing.id] : [])));
  const removed = current.filter((s) => !kept.has(s.id));

  const taken = new Set(current.map((s) => s.key));
  const stages: PipelineStage[] = [];
  for (const plan of planned) {
    const name = cleanName(plan.input.name);
    if (plan.existing) {
      const color = plan.input.color === undefined ? plan.existing.color : plan.input.color;
      await repo.updateStage(trx, ctx.accountId, plan.existing.id, {
        name,
        color,
        position: plan.position,
        updated_at: now,
      });
      stages.push({ ...plan.existing, name, color, position: plan.position, updated_at: now });
    } else {
      const [stage] = await repo.insertStages(trx, [
        {
          account_id: ctx.accountId,
          pipeline_id: pipeline.id,
          key: nextStageKey(pipeline.id, name, taken),
          name,
          color: plan.input.color ?? null,
          position: plan.position,
          created_at: now,
          updated_at: now,
        },
      ]);
      stages.push(stage);
    }
  }
  if (removed.length > 0) await moveCardsOut(trx, ctx, records, removed, stages[0], now);
  await repo.deleteStages(
    trx,
    ctx.accountId,
    removed.map((s) => s.id),
  );
}

/** Moves every card of `removed` stages (in board order) to the end of `target`. */
async function moveCardsOut(
  trx: Trx,
  ctx: AccountContext,
  records: CardRecords,
  removed: PipelineStage[],
  target: PipelineStage,
  now: number,
): Promise<void> {
  const order = new Map(removed.map((s) => [s.id, s.position]));
  const cards = (
    await cardsRepo.cardsOfStages(
      trx,
      ctx.accountId,
      removed.map((s) => s.id),
      records.deps.dialect === 'postgres',
    )
  ).sort((a, b) => order.get(a.stage_id)! - order.get(b.stage_id)! || a.position - b.position || a.id - b.id);
  if (cards.length === 0) return;
  const stageById = new Map(removed.map((s) => [s.id, s]));
  let position = await cardsRepo.nextPosition(trx, ctx.accountId, target.id);
  const moved = [];
  for (const card of cards) {
    const updated = await cardsRepo.moveCard(trx, card, {
      pipeline_id: target.pipeline_id,
      stage_id: target.id,
      position: card.deleted_at === null ? position++ : card.position,
      at: now,
    });
    if (updated) moved.push({ before: card, after: updated });
  }
  const to = { id: target.key, name: target.name };
  const fromOf = (stageId: number) => ({ id: stageById.get(stageId)!.key, name: stageById.get(stageId)!.name });
  await records.timeline(
    trx,
    ctx,
    moved.map(({ before, after }) => ({
      card: after,
      type: 'stage_change' as const,
      data: { from_stage: fromOf(before.stage_id), to_stage: to, reason: 'stage_removed' },
    })),
    now,
  );
  const live = moved.filter(({ after }) => after.deleted_at === null);
  const views = await records.views(
    trx,
    ctx.accountId,
    live.map(({ after }) => after),
  );
  await records.emit(
    trx,
    ctx,
    'pipeline_card_moved',
    live.map(({ before, after }, i) => ({
      view: views[i],
      refs: {
        fromStageId: fromOf(before.stage_id).id,
        fromPipelineId: before.pipeline_id,
        toStageId: target.key,
        stageVersion: after.stage_version,
        reason: 'stage_removed' as const,
      },
      extra: { from_stage: fromOf(before.stage_id), to_stage: to },
    })),
  );
}
