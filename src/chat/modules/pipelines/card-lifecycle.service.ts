import { inTransaction } from '../../../core/db/transaction.js';
import { HttpError } from '../../../core/http/errors.js';
import type { AccountContext, ChatDeps, Trx } from '../../context.js';
import { toIso } from '../../../core/time.js';
import type { CardRecords } from './pipeline-cards.records.js';
import * as repo from './pipeline-cards.repository.js';
import type { CardView } from './pipeline-cards.views.js';

/**
 * Deleting cards (docs/spec/decisions.md §7): DELETE discards a card (hidden from lists and the board, every
 * card route answers 404 for it), `restore` brings it back at the end of its stage, and
 * `permanently_delete` removes it with its timeline, attachment rows and files.
 */
export class CardLifecycleService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly records: CardRecords,
  ) {}

  /**
   * Soft delete, with the reason when the client gives one (kept as `deleted_reason` until a
   * restore): records `pipeline_card_deleted` (permanent: false) carrying it.
   */
  async discard(ctx: AccountContext, id: number, reason?: string | null, trx?: Trx): Promise<CardView> {
    const why = reason?.trim() || null;
    return inTransaction(this.deps.db, trx, async (trx) => {
      const card = await this.records.find(trx, ctx, id);
      const now = Date.now();
      const updated = await repo.updateCard(trx, card, { deleted_at: now, deleted_reason: why, updated_at: now });
      const view = await this.records.view(trx, ctx.accountId, updated);
      await this.records.emit(trx, ctx, 'pipeline_card_deleted', [{ view, refs: { permanent: false, reason: why } }]);
      return view;
    });
  }

  /** Brings a discarded card back (409 `invalid_transition` for a card that is not discarded). */
  async restore(ctx: AccountContext, id: number, trx?: Trx): Promise<CardView> {
    return inTransaction(this.deps.db, trx, async (trx) => {
      const card = await this.records.find(trx, ctx, id, 'include');
      if (card.deleted_at === null)
        throw new HttpError(409, 'invalid_transition', 'The card is not discarded', [
          { field: 'deleted_at', message: 'is not set' },
        ]);
      const now = Date.now();
      const position = await repo.nextPosition(trx, ctx.accountId, card.stage_id);
      const updated = await repo.updateCard(trx, card, {
        deleted_at: null,
        deleted_reason: null,
        position,
        updated_at: now,
      });
      const view = await this.records.view(trx, ctx.accountId, updated);
      await this.records.emit(trx, ctx, 'pipeline_card_updated', [
        {
          view,
          refs: { changed: ['deleted_at'] },
          extra: {
            changed_attributes: [{ deleted_at: { previous_value: toIso(card.deleted_at), current_value: null } }],
          },
        },
      ]);
      return view;
    });
  }

  /**
   * Deletes a card for good, live or discarded, with `pipeline_card_deleted` (permanent: true); its
   * files go once the transaction has committed.
   */
  async permanentlyDelete(ctx: AccountContext, id: number): Promise<void> {
    const files = await this.deps.db.transaction().execute(async (trx) => {
      const card = await this.records.find(trx, ctx, id, 'include');
      const view = await this.records.view(trx, ctx.accountId, card);
      const keys = await repo.deleteCard(trx, card);
      await this.records.emit(trx, ctx, 'pipeline_card_deleted', [
        { view, refs: { permanent: true, reason: card.deleted_reason } },
      ]);
      return keys;
    });
    await this.deps.fileStore.remove(files);
  }
}
