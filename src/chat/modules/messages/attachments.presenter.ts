import { sanitizeFileName } from '../../../core/storage/file-store.js';
import type { Attachment } from '../../db/schema.js';
import type { AttachmentView } from './attachments.schema.js';

const FILE_TYPES = new Set(['image', 'audio', 'video', 'file']);

/**
 * The public URL of an attachment's file: `<publicUrl>/attachments/<storage key>/<file name>`.
 * The key is unguessable, so the URL works without a token, like a signed URL; the name is
 * only there so the link saves under a sensible name (the file route checks it matches).
 */
export function attachmentUrl(row: Pick<Attachment, 'storage_key' | 'file_name'>, publicUrl: string): string {
  return `${publicUrl}/attachments/${row.storage_key}/${encodeURIComponent(sanitizeFileName(row.file_name))}`;
}

/**
 * Chatwoot's attachment shape. Chatwoot's `thumb_url` is a resized image; no thumbnails are
 * generated here, so it is the file itself (for every type: a superset of Chatwoot's '' for
 * non-images, which clients only show for images anyway). Width and height are not measured.
 */
export function presentAttachment(row: Attachment, publicUrl: string): AttachmentView {
  const url = attachmentUrl(row, publicUrl);
  return {
    id: row.id,
    message_id: row.message_id,
    file_type: (FILE_TYPES.has(row.file_type) ? row.file_type : 'file') as AttachmentView['file_type'],
    account_id: row.account_id,
    extension: row.extension,
    data_url: url,
    thumb_url: url,
    file_size: row.file_size,
    width: null,
    height: null,
  };
}
