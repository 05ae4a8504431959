import type { LocationQuery } from 'vue-router';

/**
 * The board's filter as the address keeps it (`?q=&owner=me|<id>&status=open|won|lost`), read
 * leniently: anything else is no filter. `me` stays `me` in the address (a shared link filters by
 * whoever opens it) and becomes the user's id for the request.
 */
export interface FilterQuery {
  q: string;
  owner: 'me' | number | null;
  status: 'open' | 'won' | 'lost' | null;
}

const STATUSES = ['open', 'won', 'lost'] as const;

export function filterFromQuery(query: LocationQuery): FilterQuery {
  const q = typeof query.q === 'string' ? query.q.trim().slice(0, 200) : '';
  const rawOwner = query.owner;
  const n = Number(rawOwner);
  const owner = rawOwner === 'me' ? 'me' : typeof rawOwner === 'string' && Number.isInteger(n) && n > 0 ? n : null;
  const status = STATUSES.find((s) => s === query.status) ?? null;
  return { q, owner, status };
}

/** The address's part for a filter (keys of what is not set are left out). */
export function queryOfFilter(filter: FilterQuery): Record<string, string | undefined> {
  return {
    q: filter.q || undefined,
    owner: filter.owner === null ? undefined : String(filter.owner),
    status: filter.status ?? undefined,
  };
}
