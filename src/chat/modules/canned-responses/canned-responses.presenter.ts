import { toIso } from '../../../core/time.js';
import type { CannedResponse } from './canned-responses.migration.js';

/** Chatwoot's canned response (the record as JSON, timestamps ISO 8601). */
export function presentCannedResponse(row: CannedResponse) {
  return {
    id: row.id,
    account_id: row.account_id,
    short_code: row.short_code,
    content: row.content,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}
