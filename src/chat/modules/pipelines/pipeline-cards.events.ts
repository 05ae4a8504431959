import { fromMinorUnits } from './pipeline-cards.money.js';
import type { CardBody } from './pipeline-cards.presenter.js';
import type { CardView } from './pipeline-cards.views.js';
import type { CardStatus } from './pipelines.tables.js';

/**
 * What pipeline card events carry (docs/spec/decisions.md §7). `refs` are the ids and the few facts lead
 * scoring and pipeline automations filter on before refetching; `snapshot` is the webhook body: the
 * card as the API shows it, with `event`, the account, and for updates `changed_attributes`.
 */
export interface CardRefs {
  cardId: number;
  pipelineId: number;
  /** The stage's public id, `{pipeline_id}_{slug}`. */
  stageId: string;
  contactId: number | null;
  conversationId: number | null;
  /** The linked conversation's per-account number. */
  conversationDisplayId: number | null;
  ownerId: number | null;
  status: CardStatus;
  /** The card's value as the API shows it, and its currency. */
  value: number;
  currency: string;
  /** The user who made the change (null for automations and the system). */
  actorId: number | null;
}

export interface CardMovedRefs extends CardRefs {
  fromStageId: string;
  fromPipelineId: number;
  toStageId: string;
  /** The card's stage_version after the move. */
  stageVersion: number;
  /** Why: a request (`move`) or the removal of the card's stage (`stage_removed`). */
  reason: 'move' | 'stage_removed';
}

export interface CardUpdatedRefs extends CardRefs {
  /** The attributes that changed (`owner_id`, `value`, `title`, `lead_score`, `position`...). */
  changed: string[];
  /** Set when the owner changed (assignment): who it was before. */
  previousOwnerId?: number | null;
}

export interface CardStatusRefs extends CardRefs {
  previousStatus: CardStatus;
}

export interface CardDeletedRefs extends CardRefs {
  /** True when the card is gone for good (not restorable). */
  permanent: boolean;
  /** Why it was discarded, when the client said (the snapshot's deleted_reason). */
  reason: string | null;
}

export type ChangedAttributes = Record<string, { previous_value: unknown; current_value: unknown }>[];

export type CardSnapshot = CardBody & {
  event: string;
  account: { id: number; name: string };
  changed_attributes?: ChangedAttributes;
  [extra: string]: unknown;
};

/** The base refs of a card's view. */
export function cardRefs(view: CardView, actorId: number | null): CardRefs {
  const { card } = view;
  return {
    cardId: card.id,
    pipelineId: card.pipeline_id,
    stageId: view.stage.id,
    contactId: card.contact_id,
    conversationId: card.conversation_id,
    conversationDisplayId: view.conversation?.id ?? null,
    ownerId: card.owner_id,
    status: card.status,
    value: fromMinorUnits(card.value_minor, card.currency),
    currency: card.currency,
    actorId,
  };
}

export type PipelineCardEvents = {
  pipeline_card_created: { refs: CardRefs; snapshot: CardSnapshot };
  pipeline_card_updated: { refs: CardUpdatedRefs; snapshot: CardSnapshot };
  pipeline_card_moved: { refs: CardMovedRefs; snapshot: CardSnapshot };
  pipeline_card_won: { refs: CardStatusRefs; snapshot: CardSnapshot };
  pipeline_card_lost: { refs: CardStatusRefs; snapshot: CardSnapshot };
  pipeline_card_reopened: { refs: CardStatusRefs; snapshot: CardSnapshot };
  pipeline_card_deleted: { refs: CardDeletedRefs; snapshot: CardSnapshot };
};

export type PipelineCardEventName = keyof PipelineCardEvents;

/** The pipeline events, in the order webhooks list them. */
export const PIPELINE_CARD_EVENTS: readonly PipelineCardEventName[] = [
  'pipeline_card_created',
  'pipeline_card_updated',
  'pipeline_card_moved',
  'pipeline_card_won',
  'pipeline_card_lost',
  'pipeline_card_reopened',
  'pipeline_card_deleted',
];
