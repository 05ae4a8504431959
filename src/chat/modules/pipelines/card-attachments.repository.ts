import type { StoredFile } from '../../../core/http/multipart.js';
import type { Q } from '../../context.js';
import type { CardAttachment } from './pipelines.tables.js';

/**
 * SQL of card attachments. As for message attachments, deleting rows never deletes files: callers
 * collect the storage keys in their transaction and remove the files after it commits.
 */

export async function insertAttachment(
  q: Q,
  accountId: number,
  cardId: number,
  file: StoredFile,
  uploadedBy: number | null,
  now: number,
): Promise<CardAttachment> {
  return q
    .insertInto('pipeline_card_attachments')
    .values({
      account_id: accountId,
      card_id: cardId,
      file_name: file.fileName,
      content_type: file.contentType,
      file_type: file.fileType,
      extension: file.extension,
      file_size: file.size,
      storage_key: file.storageKey,
      uploaded_by: uploadedBy,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function attachmentsOfCard(q: Q, accountId: number, cardId: number): Promise<CardAttachment[]> {
  return q
    .selectFrom('pipeline_card_attachments')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('card_id', '=', cardId)
    .orderBy('id')
    .execute();
}

export async function findAttachment(
  q: Q,
  accountId: number,
  cardId: number,
  id: number,
): Promise<CardAttachment | undefined> {
  return q
    .selectFrom('pipeline_card_attachments')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('card_id', '=', cardId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function deleteAttachment(q: Q, accountId: number, id: number): Promise<void> {
  await q.deleteFrom('pipeline_card_attachments').where('account_id', '=', accountId).where('id', '=', id).execute();
}

/** The file route's lookup: by key alone (the key is the credential, as for message attachments). */
export async function findByStorageKey(q: Q, storageKey: string): Promise<CardAttachment | undefined> {
  return q.selectFrom('pipeline_card_attachments').selectAll().where('storage_key', '=', storageKey).executeTakeFirst();
}

/** Every card file of an account (before the account is deleted). */
export async function storageKeysOfAccount(q: Q, accountId: number): Promise<string[]> {
  const rows = await q
    .selectFrom('pipeline_card_attachments')
    .select('storage_key')
    .where('account_id', '=', accountId)
    .execute();
  return rows.map((r) => r.storage_key);
}
