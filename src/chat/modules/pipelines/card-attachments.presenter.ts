import { toIso } from '../../../core/time.js';
import { attachmentUrl } from '../messages/attachments.presenter.js';
import type { CardAttachment } from './pipelines.tables.js';

/** A card attachment (docs/spec/decisions.md §7); `data_url` is served like a message attachment's. */
export function presentCardAttachment(row: CardAttachment, publicUrl: string, uploaders: Map<number, string>) {
  const name = row.uploaded_by === null ? undefined : uploaders.get(row.uploaded_by);
  return {
    id: row.id,
    file_name: row.file_name,
    content_type: row.content_type,
    file_size: row.file_size,
    data_url: attachmentUrl(row, publicUrl),
    uploaded_by: name === undefined ? null : { id: row.uploaded_by!, name },
    created_at: toIso(row.created_at),
  };
}
