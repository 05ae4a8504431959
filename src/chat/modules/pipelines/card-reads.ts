import type { Q } from '../../context.js';
import * as repo from './card-reads.repository.js';

/**
 * The pipeline's read port for other modules (lead scoring): which cards an event reaches, the
 * live cards of an account in batches, the open cards idle in their stage. Ids and counts only:
 * cards are then loaded and changed through the pipeline's services, so no other module reads
 * `pipeline_cards` itself.
 */
export class CardReads {
  /** Live open cards linked to the conversation or belonging to the contact, in id order. */
  openReached(q: Q, accountId: number, reach: { conversationId?: number | null; contactId?: number | null }) {
    return repo.openCardsReached(q, accountId, reach);
  }

  /** Live cards of an account after `afterId`, in id order (a batch of a bulk recalculation). */
  liveIds(q: Q, accountId: number, afterId: number, limit: number) {
    return repo.liveCardIds(q, accountId, afterId, limit);
  }

  countLive(q: Q, accountId: number) {
    return repo.countLiveCards(q, accountId);
  }

  /** Open live cards of every account that entered their stage before `before`, after `afterId`. */
  idle(q: Q, before: number, afterId: number, limit: number) {
    return repo.staleCards(q, before, afterId, limit);
  }

  /** Whether the card exists in the account, in any state (deleted ones too). */
  exists(q: Q, accountId: number, cardId: number) {
    return repo.cardExists(q, accountId, cardId);
  }
}
