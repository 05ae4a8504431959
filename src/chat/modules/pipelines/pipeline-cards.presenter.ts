import { parseJsonObject, toIso } from '../../../core/time.js';
import { fromMinorUnits } from './pipeline-cards.money.js';
import type { CardView } from './pipeline-cards.views.js';

/** Lead score bands (docs/spec/decisions.md §8): 0-25 Frio, 26-50 Morno, 51-75 Quente, 76-100 Muito Quente. */
export function scoreCategory(score: number): { category: string; label: string } {
  if (score <= 25) return { category: 'frio', label: 'Frio' };
  if (score <= 50) return { category: 'morno', label: 'Morno' };
  if (score <= 75) return { category: 'quente', label: 'Quente' };
  return { category: 'muito_quente', label: 'Muito Quente' };
}

/** Whether every required checklist item is checked (true for an empty checklist). */
export function isQualified(checklist: Record<string, unknown>): boolean {
  return Object.values(checklist).every((item) => {
    const i = item as { required?: unknown; checked?: unknown } | null;
    return !i || i.required !== true || i.checked === true;
  });
}

/** A card as the API shows it (lists, writes, and the webhook body of every card event). */
export function presentCard(view: CardView) {
  const { card } = view;
  const value = fromMinorUnits(card.value_minor, card.currency);
  const checklist = parseJsonObject(card.qualification_checklist);
  return {
    id: card.id,
    account_id: card.account_id,
    title: card.title,
    value,
    currency: card.currency,
    status: card.status,
    stage: { id: view.stage.id, name: view.stage.name },
    pipeline: view.pipeline,
    contact: view.contact,
    owner: view.owner,
    conversation: view.conversation,
    item_details: { title: card.item_title, value, currency: card.currency },
    position: card.position,
    stage_version: card.stage_version,
    stage_entered_at: toIso(card.stage_entered_at),
    lead_score: card.lead_score,
    lead_score_category: scoreCategory(card.lead_score).category,
    lead_score_overridden: card.lead_score_overridden === 1,
    expected_close_date: card.expected_close_date,
    custom_attributes: parseJsonObject(card.custom_attributes),
    qualification_checklist: checklist,
    qualified: isQualified(checklist),
    won_note: card.won_note,
    lost_reason: card.lost_reason,
    closed_at: toIso(card.closed_at),
    deleted_at: toIso(card.deleted_at),
    deleted_reason: card.deleted_reason,
    created_at: toIso(card.created_at),
    updated_at: toIso(card.updated_at),
  };
}

export type CardBody = ReturnType<typeof presentCard>;

export interface ScoreFactor {
  rule_id: number | null;
  name: string;
  points: number;
}

/** The `score` object of a card's detail. */
export function presentScore(view: CardView, factors: ScoreFactor[]) {
  const { category, label } = scoreCategory(view.card.lead_score);
  return {
    lead_score: view.card.lead_score,
    category,
    category_label: label,
    overridden: view.card.lead_score_overridden === 1,
    factors,
  };
}
