import { parseJsonObject, toIso } from '../../../core/time.js';
import type { TimelineEntry } from './pipelines.tables.js';

/**
 * A timeline entry: `{id, type, data, performed_by, created_at}` (docs/spec/decisions.md §7). The entry's
 * facts are also repeated at the top level (`from_stage`, `to_stage`, `content`...), which is the
 * spec's own spelling of a stage_change or note_added entry.
 */
export function presentTimelineEntry(entry: TimelineEntry) {
  const data = parseJsonObject(entry.data);
  return {
    ...data,
    id: entry.id,
    type: entry.type,
    data,
    performed_by:
      entry.performer_type === 'system' && entry.performer_id === null
        ? null
        : { id: entry.performer_id, name: entry.performer_name, type: entry.performer_type },
    created_at: toIso(entry.created_at),
  };
}
