import { inTransaction } from '../../../core/db/transaction.js';
import { notFound } from '../../../core/http/errors.js';
import type { StoredFile } from '../../../core/http/multipart.js';
import type { AccountContext, ChatDeps, Q, Trx } from '../../context.js';
import type { AttachmentFileSource } from '../attachments-files/attachments-files.service.js';
import * as repo from './card-attachments.repository.js';
import type { CardRecords } from './pipeline-cards.records.js';
import { userNames } from './card-views.repository.js';
import type { CardAttachment } from './pipelines.tables.js';

export interface AttachmentsView {
  rows: CardAttachment[];
  /** Names of the uploaders, by user id. */
  uploaders: Map<number, string>;
}

/**
 * Files of a card: stored by the same file store, under the same limits and formats as message
 * attachments, and served by the same `/attachments/{key}/{name}` route (this service is one of its
 * sources). A file is removed once the transaction deleting its row has committed.
 */
export class CardAttachmentsService implements AttachmentFileSource {
  constructor(
    private readonly deps: ChatDeps,
    private readonly records: CardRecords,
  ) {}

  /** Where `data_url`s point: this service's public address. */
  get publicUrl(): string {
    return this.deps.config.chat.publicUrl;
  }

  async list(ctx: AccountContext, cardId: number, q: Q = this.deps.db): Promise<AttachmentsView> {
    const card = await this.records.find(q, ctx, cardId);
    return this.withUploaders(q, await repo.attachmentsOfCard(q, ctx.accountId, card.id));
  }

  /** Records an uploaded file on a card, with an `attachment_added` entry. */
  async add(ctx: AccountContext, cardId: number, file: StoredFile, trx?: Trx): Promise<AttachmentsView> {
    return inTransaction(this.deps.db, trx, async (trx) => {
      const card = await this.records.find(trx, ctx, cardId);
      const now = Date.now();
      const row = await repo.insertAttachment(trx, ctx.accountId, card.id, file, ctx.userId, now);
      await this.records.timeline(
        trx,
        ctx,
        [{ card, type: 'attachment_added', data: { attachment_id: row.id, file_name: row.file_name } }],
        now,
      );
      return this.withUploaders(trx, [row]);
    });
  }

  /** Deletes an attachment (404 unless it is one of this card's), then its file. */
  async remove(ctx: AccountContext, cardId: number, attachmentId: number): Promise<void> {
    const key = await this.deps.db.transaction().execute(async (trx) => {
      const card = await this.records.find(trx, ctx, cardId);
      const row = await repo.findAttachment(trx, ctx.accountId, card.id, attachmentId);
      if (!row) throw notFound('Attachment');
      await repo.deleteAttachment(trx, ctx.accountId, row.id);
      await this.records.timeline(trx, ctx, [
        { card, type: 'attachment_removed', data: { attachment_id: row.id, file_name: row.file_name } },
      ]);
      return row.storage_key;
    });
    await this.deps.fileStore.remove([key]);
  }

  findByStorageKey(q: Q, storageKey: string) {
    return repo.findByStorageKey(q, storageKey);
  }

  keysOfAccount(q: Q, accountId: number) {
    return repo.storageKeysOfAccount(q, accountId);
  }

  private async withUploaders(q: Q, rows: CardAttachment[]): Promise<AttachmentsView> {
    const ids = rows.flatMap((r) => (r.uploaded_by === null ? [] : [r.uploaded_by]));
    return { rows, uploaders: await userNames(q, ids) };
  }
}
