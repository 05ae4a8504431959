import { toIso } from '../../../core/time.js';
import type { Pipeline, PipelineStage } from './pipelines.tables.js';

export interface StageView {
  stage: PipelineStage;
  cardsCount: number;
  totalValue: number;
}

export interface PipelineView {
  pipeline: Pipeline;
  /** In board order. */
  stages: StageView[];
  cardsCount: number;
  totalValue: number;
}

/** A stage as the stage listing (and a pipeline's `stages`) shows it: position from 0. */
export function presentStage(view: StageView) {
  return {
    id: view.stage.key,
    name: view.stage.name,
    color: view.stage.color,
    position: view.stage.position,
    cards_count: view.cardsCount,
    total_value: view.totalValue,
  };
}

export function presentPipeline(view: PipelineView) {
  return {
    id: view.pipeline.id,
    name: view.pipeline.name,
    description: view.pipeline.description,
    stages: view.stages.map(presentStage),
    cards_count: view.cardsCount,
    total_value: view.totalValue,
    created_at: toIso(view.pipeline.created_at),
    updated_at: toIso(view.pipeline.updated_at),
  };
}
