import type { AssigneeTab, ListFilters } from './list-filters.js';

/**
 * Where a changed conversation goes in the list on screen, and what it does to the tab counts,
 * without asking the server: the same rules the server lists by (latest activity first, ties by
 * the newer conversation; counts per assignee over the filtered set). A change made here (assign,
 * resolve, label...) and, later, an event pushed by the server both come through these functions.
 * Where the answer cannot be known here (a search term matches message text the list does not
 * hold), they say so, and the caller asks the server.
 */

/** What placement reads of a conversation (the API's conversation has all of it). */
export interface Placed {
  id: number;
  inbox_id: number;
  status: string;
  last_activity_at: number;
  labels: readonly string[];
  assignee: { id: number } | null;
  team: { id: number } | null;
}

export interface Counts {
  mine_count: number;
  unassigned_count: number;
  all_count: number;
  assigned_count: number;
}

/** Whether the conversation passes the filters; 'unknown' when a search term is on (the server matches message text). */
export function matchesFilters(c: Placed, filters: ListFilters): boolean | 'unknown' {
  if (filters.status !== 'all' && c.status !== filters.status) return false;
  if (filters.inboxId !== null && c.inbox_id !== filters.inboxId) return false;
  if (filters.teamId !== null && c.team?.id !== filters.teamId) return false;
  if (filters.label !== null && !c.labels.includes(filters.label.toLowerCase())) return false;
  return filters.q ? 'unknown' : true;
}

export function inTab(c: Placed, tab: AssigneeTab, me: number): boolean {
  if (tab === 'me') return c.assignee?.id === me;
  if (tab === 'unassigned') return c.assignee === null;
  return true;
}

/** The list's order: latest activity first, then the newer conversation. */
export const listOrder = (a: Placed, b: Placed): number => b.last_activity_at - a.last_activity_at || b.id - a.id;

export interface Placement<T extends Placed> {
  items: T[];
  /** Whether the list on screen changed. */
  changed: boolean;
}

/**
 * The list after `next` (a conversation as it is now) is applied to it. A conversation that no
 * longer belongs (filters, tab) leaves; one that belongs is put in order, unless it would fall
 * after the last loaded row while more pages remain (it comes with its page then). With a search
 * term on, a conversation that was not listed is not added (whether it matches is the server's to say).
 */
export function place<T extends Placed>(
  items: readonly T[],
  next: T,
  view: { tab: AssigneeTab; filters: ListFilters },
  me: number,
  complete: boolean,
): Placement<T> {
  const at = items.findIndex((c) => c.id === next.id);
  const rest = at === -1 ? [...items] : [...items.slice(0, at), ...items.slice(at + 1)];
  const matches = matchesFilters(next, view.filters);
  const belongs = inTab(next, view.tab, me) && (matches === true || (matches === 'unknown' && at !== -1));
  if (!belongs) return at === -1 ? { items: [...items], changed: false } : { items: rest, changed: true };
  let index = rest.findIndex((c) => listOrder(next, c) < 0);
  if (index === -1) {
    if (!complete && at === -1) return { items: [...items], changed: false };
    index = rest.length;
  }
  return { items: [...rest.slice(0, index), next, ...rest.slice(index)], changed: true };
}

/**
 * The counts after a conversation changed from `before` to `after` (either may be missing: created,
 * or no longer visible). `certain` is false when the counts cannot be known here: the state before
 * was not known, or a search term is on; then the caller asks the server for them.
 */
export function recount(
  counts: Counts,
  before: Placed | undefined,
  after: Placed | undefined,
  filters: ListFilters,
  me: number,
  beforeKnown: boolean,
): { counts: Counts; certain: boolean } {
  if (!beforeKnown || filters.q) return { counts, certain: false };
  const weigh = (c: Placed | undefined) => {
    if (!c || matchesFilters(c, filters) !== true) return { mine: 0, unassigned: 0, all: 0 };
    return { mine: c.assignee?.id === me ? 1 : 0, unassigned: c.assignee === null ? 1 : 0, all: 1 };
  };
  const [was, is] = [weigh(before), weigh(after)];
  const all = counts.all_count + is.all - was.all;
  const unassigned = counts.unassigned_count + is.unassigned - was.unassigned;
  return {
    counts: {
      mine_count: Math.max(0, counts.mine_count + is.mine - was.mine),
      unassigned_count: Math.max(0, unassigned),
      all_count: Math.max(0, all),
      assigned_count: Math.max(0, all - unassigned),
    },
    certain: true,
  };
}
