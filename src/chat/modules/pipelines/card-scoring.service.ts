import { inTransaction } from '../../../core/db/transaction.js';
import { parseJsonObject } from '../../../core/time.js';
import type { AccountContext, ChatDeps, Q, Trx } from '../../context.js';
import type { ScoreFactor } from './pipeline-cards.presenter.js';
import { performerOf, type CardRecords } from './pipeline-cards.records.js';
import type { ChecklistItem } from './pipeline-cards.schema.js';
import type { CardChange, PipelineCardsService } from './pipeline-cards.service.js';
import type { CardView } from './pipeline-cards.views.js';
import type { PipelineCard } from './pipelines.tables.js';

/**
 * How a card's score is computed: the pipelines module's leadScorer extension point, which the
 * lead-scoring module fills; without it, the score is the points of the checked qualification items.
 */
export interface LeadScorer {
  /** The card's score from what is stored (0..100), ignoring any manual override. */
  score(q: Q, card: PipelineCard): Promise<number>;
  /** What the score is made of, for the card detail's `score.factors`. */
  factors(q: Q, card: PipelineCard): Promise<ScoreFactor[]>;
  /** Called by `recalculate` before `score`: rebuilds what the score is made of from its sources. */
  rebuild?(trx: Trx, ctx: AccountContext, card: PipelineCard): Promise<void>;
}

const clamp = (n: number) => Math.min(100, Math.max(0, Math.round(n)));

/** Score = the points of the checked checklist items, clamped to 0..100 (docs/spec/decisions.md §8 without rules). */
export const checklistScorer: LeadScorer = {
  async score(_q, card) {
    return clamp(checkedPoints(parseJsonObject(card.qualification_checklist)));
  },
  async factors() {
    return [];
  },
};

function checkedPoints(checklist: Record<string, unknown>): number {
  let points = 0;
  for (const item of Object.values(checklist)) {
    const i = item as { checked?: unknown; points?: unknown } | null;
    if (i?.checked === true && typeof i.points === 'number') points += i.points;
  }
  return points;
}

/**
 * A card's qualification checklist and score: `update_qualification_checklist` replaces the
 * checklist (keeping when each item was first checked, and by whom), `recalculate_score` clears a
 * manual override and recomputes. Both record `pipeline_card_updated` when something changed.
 */
export class CardScoringService {
  private scorer: LeadScorer = checklistScorer;

  constructor(
    private readonly deps: ChatDeps,
    private readonly records: CardRecords,
    private readonly cards: PipelineCardsService,
  ) {}

  /** Lead scoring plugs its rules in here (called once, when the modules are built). */
  useScorer(scorer: LeadScorer): void {
    this.scorer = scorer;
  }

  factors(q: Q, card: PipelineCard): Promise<ScoreFactor[]> {
    return this.scorer.factors(q, card);
  }

  async updateChecklist(
    ctx: AccountContext,
    id: number,
    items: Record<string, ChecklistItem>,
    trx?: Trx,
  ): Promise<CardView> {
    return inTransaction(this.deps.db, trx, async (trx) => {
      const card = await this.records.find(trx, ctx, id);
      const previous = parseJsonObject(card.qualification_checklist);
      const performer = performerOf(ctx);
      const now = new Date().toISOString();
      const checklist = Object.fromEntries(
        Object.entries(items).map(([key, item]) => {
          const before = previous[key] as { checked?: unknown; checked_at?: unknown; checked_by?: unknown } | undefined;
          const already = before?.checked === true && item.checked;
          return [
            key,
            {
              id: item.id ?? key,
              name: item.name.trim() || key,
              checked: item.checked,
              points: item.points ?? 0,
              required: item.required ?? false,
              category: item.category ?? null,
              notes: item.notes ?? null,
              checked_at: item.checked ? (already ? (before?.checked_at ?? now) : now) : null,
              checked_by: item.checked
                ? already
                  ? (before?.checked_by ?? null)
                  : { id: performer.id, name: performer.name, type: performer.type }
                : null,
            },
          ];
        }),
      );
      const text = JSON.stringify(checklist);
      const change: CardChange = { values: {}, timeline: [] };
      if (text !== card.qualification_checklist) change.values.qualification_checklist = text;
      if (!card.lead_score_overridden) {
        const score = await this.scorer.score(trx, { ...card, qualification_checklist: text });
        if (score !== card.lead_score) change.values.lead_score = score;
      }
      return this.cards.applyChange(trx, ctx, card, change);
    });
  }

  /** Clears the manual override and recomputes the score. */
  async recalculate(ctx: AccountContext, id: number, trx?: Trx): Promise<CardView> {
    return inTransaction(this.deps.db, trx, async (trx) => {
      const card = await this.records.find(trx, ctx, id);
      await this.scorer.rebuild?.(trx, ctx, card);
      const score = await this.scorer.score(trx, card);
      const change: CardChange = { values: {}, timeline: [] };
      if (card.lead_score_overridden) change.values.lead_score_overridden = 0;
      if (score !== card.lead_score) change.values.lead_score = score;
      return this.cards.applyChange(trx, ctx, card, change);
    });
  }
}
