import { HttpError } from '../../../core/http/errors.js';
import type { AccountContext, Trx, Q } from '../../context.js';
import type { PipelineCardsService } from '../pipelines/pipeline-cards.service.js';
import type { CardView } from '../pipelines/pipeline-cards.views.js';
import { fromMinorUnits } from '../pipelines/pipeline-cards.money.js';
import type { TemplateValues } from './automation.template.js';

/** The keys conditions may name on a card (docs/spec/decisions.md §9: the lead-score format over the card). */
export const CARD_CONDITION_KEYS = [
  'pipeline_id',
  'stage_id',
  'value',
  'currency',
  'owner_id',
  'status',
  'contact_id',
  'lead_score',
  'title',
  'days_in_stage',
  // what the trigger adds
  'from_stage',
  'to_stage',
  'previous_owner_id',
  'previous_score',
] as const;

/** A card as automations see it: loaded once per run, with its condition attributes and template values. */
export interface CardSubject {
  type: 'card';
  id: number;
  view: CardView;
  attributes: Record<string, unknown>;
  values: TemplateValues;
}

const DAY_MS = 24 * 60 * 60_000;

/**
 * The card subject adapter: loads the target (null when it is gone or discarded), and exposes its
 * attributes for conditions and its names for templates. `extra` are the trigger's attributes
 * (`from_stage`, `to_stage`, `previous_owner_id`, `previous_score`).
 */
export class CardSubjects {
  constructor(private readonly cards: PipelineCardsService) {}

  async load(
    q: Trx | Q,
    ctx: AccountContext,
    id: number,
    extra: Record<string, unknown> = {},
    now = Date.now(),
  ): Promise<CardSubject | null> {
    const view = await this.cards.get(ctx, id, q as Trx).catch((err) => {
      if (err instanceof HttpError && err.statusCode === 404) return null;
      throw err;
    });
    if (!view) return null;
    const { card } = view;
    return {
      type: 'card',
      id: card.id,
      view,
      attributes: {
        pipeline_id: card.pipeline_id,
        stage_id: view.stage.id,
        value: fromMinorUnits(card.value_minor, card.currency),
        currency: card.currency,
        owner_id: card.owner_id,
        status: card.status,
        contact_id: card.contact_id,
        lead_score: card.lead_score,
        title: card.title,
        days_in_stage: Math.floor((now - Number(card.stage_entered_at)) / DAY_MS),
        ...extra,
      },
      values: {
        card: { title: card.title },
        contact: view.contact ? { name: view.contact.name } : null,
        stage: { name: view.stage.name },
        owner: view.owner ? { name: view.owner.name } : null,
      },
    };
  }
}
