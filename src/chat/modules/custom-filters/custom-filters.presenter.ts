import { toIso } from '../../../core/time.js';
import type { CustomFilter } from './custom-filters.migration.js';

/** The stored query (what the service wrote); anything unreadable shows as no criteria. */
function queryOf(text: string): { payload: Record<string, unknown>[] } {
  try {
    const value = JSON.parse(text) as { payload?: unknown };
    return { payload: Array.isArray(value?.payload) ? value.payload : [] };
  } catch {
    return { payload: [] };
  }
}

/** Chatwoot's custom filter (timestamps ISO 8601). */
export function presentCustomFilter(row: CustomFilter) {
  return {
    id: row.id,
    name: row.name,
    filter_type: row.filter_type,
    query: queryOf(row.query),
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}
