import { inTransaction } from '../../../core/db/transaction.js';
import { invalidField } from '../../../core/http/errors.js';
import type { AccountContext, ChatDeps, Trx } from '../../context.js';
import * as repo from './card-timeline.repository.js';
import type { CardRecords } from './pipeline-cards.records.js';
import type { TimelineEntry } from './pipelines.tables.js';

export const TIMELINE_PAGE = 50;

/**
 * A card's timeline: read newest first, and notes added to it. The other entry types are written
 * by the change they record, in its transaction (see CardRecords.timeline).
 */
export class CardTimelineService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly records: CardRecords,
  ) {}

  async list(
    ctx: AccountContext,
    cardId: number,
    page: number,
    perPage = TIMELINE_PAGE,
  ): Promise<{ entries: TimelineEntry[]; total: number }> {
    const card = await this.records.find(this.deps.db, ctx, cardId);
    const [entries, total] = await Promise.all([
      repo.entriesOfCard(this.deps.db, ctx.accountId, card.id, perPage, (page - 1) * perPage),
      repo.countEntries(this.deps.db, ctx.accountId, card.id),
    ]);
    return { entries, total };
  }

  /** The latest entries of a card (its detail embeds 50). */
  latest(trx: Trx | undefined, accountId: number, cardId: number, limit = TIMELINE_PAGE): Promise<TimelineEntry[]> {
    return repo.entriesOfCard(trx ?? this.deps.db, accountId, cardId, limit);
  }

  /** Adds a `note_added` entry (agents, administrators, and pipeline automations' add_note). */
  async addNote(ctx: AccountContext, cardId: number, content: string, trx?: Trx): Promise<TimelineEntry> {
    const text = content.trim();
    if (text === '') throw invalidField('content', "can't be blank");
    return inTransaction(this.deps.db, trx, async (trx) => {
      const card = await this.records.find(trx, ctx, cardId);
      const [entry] = await this.records.timeline(trx, ctx, [{ card, type: 'note_added', data: { content: text } }]);
      return entry;
    });
  }
}
