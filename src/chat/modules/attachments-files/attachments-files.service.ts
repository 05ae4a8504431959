import type { Readable } from 'node:stream';
import { HttpError, notFound } from '../../../core/http/errors.js';
import { isInlineKind, type FileKind } from '../../../core/storage/file-formats.js';
import { isStorageKey, sanitizeFileName, type ByteRange, type FileStore } from '../../../core/storage/file-store.js';
import type { ChatDeps, Q } from '../../context.js';
import type { StoredFile } from '../../../core/http/multipart.js';
import type { Attachment } from '../../db/schema.js';
import * as attachments from './attachments.repository.js';

export interface AttachmentFile {
  contentType: string;
  fileName: string;
  /** Shown in the browser (images, audio, video) rather than downloaded. */
  inline: boolean;
  /** Size of the whole file. */
  size: number;
  /** The bytes served: the whole file, or `range` of it. */
  range: ByteRange | null;
  stream: Readable;
}

/**
 * Another module's files served by the same route (card attachments): how to find one by its key,
 * and which keys an account's deletion takes with it.
 */
export interface AttachmentFileSource {
  findByStorageKey(
    q: Q,
    storageKey: string,
  ): Promise<Pick<Attachment, 'file_name' | 'content_type' | 'file_type'> | undefined>;
  keysOfAccount(q: Q, accountId: number): Promise<string[]>;
}

/**
 * Serves attachment files by storage key. The key (128 random bits) is the credential, like a
 * signed URL, so the route needs no token; the file name in the URL must match the stored one so
 * a key cannot be re-labelled. This module owns the `attachments` table: messages (and later
 * deal cards) record and list their attachment rows through it.
 */
export class AttachmentFilesService {
  private readonly sources: AttachmentFileSource[] = [];

  constructor(
    private readonly deps: ChatDeps,
    private readonly store: FileStore,
  ) {}

  /** Serves another module's files at `/attachments/{key}/{name}` too (registered when modules are built). */
  addSource(source: AttachmentFileSource): void {
    this.sources.push(source);
  }

  /**
   * Storage keys of the attachments that deleting an account, an inbox or a contact takes with
   * it. Read them inside the deleting transaction; remove the files after it commits.
   */
  async keysOfAccount(q: Q, accountId: number) {
    const own = await attachments.storageKeysOfAccount(q, accountId);
    for (const source of this.sources) own.push(...(await source.keysOfAccount(q, accountId)));
    return own;
  }

  keysOfInbox(q: Q, accountId: number, inboxId: number) {
    return attachments.storageKeysOfInbox(q, accountId, inboxId);
  }

  keysOfContact(q: Q, accountId: number, contactId: number) {
    return attachments.storageKeysOfContact(q, accountId, contactId);
  }

  /** Records the stored files of a message, in the caller's transaction. */
  insertForMessage(
    trx: Q,
    accountId: number,
    messageId: number,
    files: readonly StoredFile[],
    now = Date.now(),
  ): Promise<Attachment[]> {
    return attachments.insertAttachments(trx, accountId, messageId, files, now);
  }

  /** The attachment rows of a page of messages, in one query. */
  rowsOfMessages(q: Q, accountId: number, messageIds: readonly number[]): Promise<Attachment[]> {
    return attachments.listAttachmentsOfMessages(q, accountId, messageIds);
  }

  /** Deletes a message's attachment rows; returns their storage keys (remove the files after commit). */
  deleteOfMessage(trx: Q, accountId: number, messageId: number): Promise<string[]> {
    return attachments.deleteAttachmentsOfMessage(trx, accountId, messageId);
  }

  /** Removes files whose rows are gone (missing files are ignored). */
  removeFiles(storageKeys: string[]) {
    return this.store.remove(storageKeys);
  }

  async open(storageKey: string, fileName: string, rangeHeader: string | undefined): Promise<AttachmentFile> {
    if (!isStorageKey(storageKey)) throw notFound('File');
    let row: Pick<Attachment, 'file_name' | 'content_type' | 'file_type'> | undefined =
      await attachments.findAttachmentByStorageKey(this.deps.db, storageKey);
    for (const source of this.sources) row ??= await source.findByStorageKey(this.deps.db, storageKey);
    if (!row || sanitizeFileName(row.file_name) !== fileName) throw notFound('File');
    const blob = await this.store.openRead(storageKey, (size) => (rangeHeader ? parseRange(rangeHeader, size) : null));
    if (!blob) throw notFound('File');
    return {
      contentType: row.content_type,
      fileName: sanitizeFileName(row.file_name),
      inline: isInlineKind(row.file_type as FileKind),
      size: blob.size,
      range: blob.range,
      stream: blob.stream,
    };
  }
}

/**
 * One `bytes=` range (`a-b`, `a-`, `-n`), which is what players send to seek (Safari will not
 * play a video without range support). Several ranges, or a malformed header, are ignored and the
 * whole file is served, as RFC 9110 allows; a range past the end answers 416.
 */
export function parseRange(header: string, size: number): ByteRange | null {
  const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) throw unsatisfiable(size);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
    if (end < start && match[2] !== '') return null;
  }
  if (start >= size) throw unsatisfiable(size);
  return { start, end };
}

const unsatisfiable = (size: number) =>
  new HttpError(416, 'range_not_satisfiable', 'The requested range is outside the file', undefined, {
    'content-range': `bytes */${size}`,
  });
