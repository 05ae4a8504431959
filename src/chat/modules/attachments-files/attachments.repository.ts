import type { StoredFile } from '../../../core/http/multipart.js';
import type { Q } from '../../context.js';
import type { Attachment } from '../../db/schema.js';

/**
 * SQL of message attachments. The blobs live in the file store under `storage_key`; these rows
 * say what each blob is. Deleting rows never deletes blobs: callers collect the keys (the
 * `storageKeysOf…` queries, or `deleteAttachmentsOfMessage`) inside their transaction and call
 * `fileStore.remove(keys)` after it commits, so a rolled-back delete never loses a file. A crash
 * between commit and removal leaves unreferenced blobs, which are harmless.
 */

/** Inserts one row per stored file for a message, in the caller's (open) transaction. */
export async function insertAttachments(
  trx: Q,
  accountId: number,
  messageId: number,
  files: readonly StoredFile[],
  now: number = Date.now(),
): Promise<Attachment[]> {
  if (files.length === 0) return [];
  const rows = await trx
    .insertInto('attachments')
    .values(
      files.map((f) => ({
        account_id: accountId,
        message_id: messageId,
        file_type: f.fileType,
        file_name: f.fileName,
        content_type: f.contentType,
        extension: f.extension,
        file_size: f.size,
        storage_key: f.storageKey,
        created_at: now,
      })),
    )
    .returningAll()
    .execute();
  return rows.sort((a, b) => a.id - b.id);
}

/** The attachments of many messages in one query (served by `attachments_message_idx`), by message then id. */
export async function listAttachmentsOfMessages(
  q: Q,
  accountId: number,
  messageIds: readonly number[],
): Promise<Attachment[]> {
  if (messageIds.length === 0) return [];
  return q
    .selectFrom('attachments')
    .selectAll()
    .where('message_id', 'in', [...new Set(messageIds)])
    .where('account_id', '=', accountId)
    .orderBy('message_id')
    .orderBy('id')
    .execute();
}

/** Groups rows from `listAttachmentsOfMessages` by message id (a message without any is absent). */
export function groupByMessage(rows: readonly Attachment[]): Map<number, Attachment[]> {
  const byMessage = new Map<number, Attachment[]>();
  for (const row of rows) {
    const list = byMessage.get(row.message_id);
    if (list) list.push(row);
    else byMessage.set(row.message_id, [row]);
  }
  return byMessage;
}

/** Deletes a message's attachment rows and returns their storage keys (remove the blobs after commit). */
export async function deleteAttachmentsOfMessage(q: Q, accountId: number, messageId: number): Promise<string[]> {
  const rows = await q
    .deleteFrom('attachments')
    .where('message_id', '=', messageId)
    .where('account_id', '=', accountId)
    .returning('storage_key')
    .execute();
  return rows.map((r) => r.storage_key);
}

/**
 * Storage keys of every attachment of an account (before the account is deleted). Walks
 * messages by `messages_account_created_idx`, then attachments by message.
 */
export async function storageKeysOfAccount(q: Q, accountId: number): Promise<string[]> {
  const rows = await q
    .selectFrom('messages')
    .innerJoin('attachments', 'attachments.message_id', 'messages.id')
    .select('attachments.storage_key')
    .where('messages.account_id', '=', accountId)
    .where('attachments.account_id', '=', accountId)
    .execute();
  return rows.map((r) => r.storage_key);
}

/** Storage keys of the attachments in an inbox's conversations (before the inbox is deleted). */
export async function storageKeysOfInbox(q: Q, accountId: number, inboxId: number): Promise<string[]> {
  const rows = await q
    .selectFrom('conversations')
    .innerJoin('messages', 'messages.conversation_id', 'conversations.id')
    .innerJoin('attachments', 'attachments.message_id', 'messages.id')
    .select('attachments.storage_key')
    .where('conversations.account_id', '=', accountId)
    .where('conversations.inbox_id', '=', inboxId)
    .where('attachments.account_id', '=', accountId)
    .execute();
  return rows.map((r) => r.storage_key);
}

/** Storage keys of the attachments in a contact's conversations (before the contact is deleted). */
export async function storageKeysOfContact(q: Q, accountId: number, contactId: number): Promise<string[]> {
  const rows = await q
    .selectFrom('conversations')
    .innerJoin('messages', 'messages.conversation_id', 'conversations.id')
    .innerJoin('attachments', 'attachments.message_id', 'messages.id')
    .select('attachments.storage_key')
    .where('conversations.account_id', '=', accountId)
    .where('conversations.contact_id', '=', contactId)
    .where('attachments.account_id', '=', accountId)
    .execute();
  return rows.map((r) => r.storage_key);
}

/**
 * The attachment stored under a key, for the public file route. Not scoped by account on
 * purpose: the key itself (128 random bits, unique index) is the credential, as in a signed URL.
 */
export async function findAttachmentByStorageKey(q: Q, storageKey: string): Promise<Attachment | undefined> {
  return q.selectFrom('attachments').selectAll().where('storage_key', '=', storageKey).executeTakeFirst();
}
