import type { Q } from '../../context.js';
import * as cards from './card-views.repository.js';
import * as pipelines from './pipelines.repository.js';
import type { PipelineCard } from './pipelines.tables.js';

/** A card with what its presentation names: its stage and pipeline, owner, contact and conversation. */
export interface CardView {
  card: PipelineCard;
  stage: { id: string; name: string; position: number };
  pipeline: { id: number; name: string };
  owner: { id: number; name: string } | null;
  contact: { id: number; name: string } | null;
  /** The conversation's per-account number (what paths and clients call its id). */
  conversation: { id: number } | null;
}

/**
 * Views of a set of cards with a fixed number of queries (stages with pipelines, owners, contacts,
 * conversations: one each), never one per card. Keeps the order of `rows`.
 */
export async function loadCardViews(q: Q, accountId: number, rows: readonly PipelineCard[]): Promise<CardView[]> {
  if (rows.length === 0) return [];
  const present = <T>(values: (T | null)[]) => values.filter((v): v is T => v !== null);
  const [stages, owners, contacts, conversations] = await Promise.all([
    pipelines.stagesWithPipelines(
      q,
      accountId,
      rows.map((r) => r.stage_id),
    ),
    cards.userNames(q, present(rows.map((r) => r.owner_id))),
    cards.contactNames(q, accountId, present(rows.map((r) => r.contact_id))),
    cards.conversationNumbers(q, accountId, present(rows.map((r) => r.conversation_id))),
  ]);
  const stageById = new Map(stages.map((s) => [s.id, s]));
  return rows.map((card) => {
    const stage = stageById.get(card.stage_id);
    const ownerName = card.owner_id === null ? undefined : owners.get(card.owner_id);
    const contactName = card.contact_id === null ? undefined : contacts.get(card.contact_id);
    const displayId = card.conversation_id === null ? undefined : conversations.get(card.conversation_id);
    return {
      card,
      stage: { id: stage?.key ?? '', name: stage?.name ?? '', position: stage?.position ?? 0 },
      pipeline: { id: card.pipeline_id, name: stage?.pipeline_name ?? '' },
      owner: ownerName === undefined ? null : { id: card.owner_id!, name: ownerName },
      contact: contactName === undefined ? null : { id: card.contact_id!, name: contactName },
      conversation: displayId === undefined ? null : { id: displayId },
    };
  });
}

/** The view of one card. */
export async function loadCardView(q: Q, accountId: number, card: PipelineCard): Promise<CardView> {
  return (await loadCardViews(q, accountId, [card]))[0];
}
