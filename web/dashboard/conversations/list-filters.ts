/**
 * What the conversation list shows: an assignee tab (Chatwoot's Mine / Unassigned / All) and the
 * filters the API takes today (status, inbox, team, one label, search). They live in the page's
 * address (`?assignee=me&status=open&inbox=3&team=2&label=billing&q=refund`), so a reload, a
 * shared link and the back button keep them. Framework-free: the list's pure logic and its tests
 * use it.
 */
export const ASSIGNEE_TABS = ['me', 'unassigned', 'all'] as const;
export type AssigneeTab = (typeof ASSIGNEE_TABS)[number];

export const STATUS_FILTERS = ['open', 'pending', 'snoozed', 'resolved', 'all'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export interface ListFilters {
  status: StatusFilter;
  inboxId: number | null;
  teamId: number | null;
  label: string | null;
  /** Search text (message content, the contact's name and e-mail, the conversation number). */
  q: string;
}

export interface ListView {
  tab: AssigneeTab;
  filters: ListFilters;
}

export const DEFAULT_VIEW: ListView = {
  tab: 'me',
  filters: { status: 'open', inboxId: null, teamId: null, label: null, q: '' },
};

type Query = Record<string, unknown>;

const text = (value: unknown): string | null => {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : null;
};
const id = (value: unknown): number | null => {
  const raw = text(value);
  return raw !== null && /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null;
};
const oneOf = <T extends string>(values: readonly T[], value: unknown, fallback: T): T =>
  values.find((v) => v === text(value)) ?? fallback;

/** The list's view as the address gives it (anything unknown falls back to the default). */
export function viewFromQuery(query: Query): ListView {
  return {
    tab: oneOf(ASSIGNEE_TABS, query.assignee, DEFAULT_VIEW.tab),
    filters: {
      status: oneOf(STATUS_FILTERS, query.status, DEFAULT_VIEW.filters.status),
      inboxId: id(query.inbox),
      teamId: id(query.team),
      label: text(query.label)?.trim() || null,
      q: text(query.q)?.trim().slice(0, 255) ?? '',
    },
  };
}

/** The address's query for a view: only what differs from the default, so plain links stay short. */
export function viewToQuery(view: ListView): Record<string, string> {
  const query: Record<string, string> = {};
  const { filters } = view;
  if (view.tab !== DEFAULT_VIEW.tab) query.assignee = view.tab;
  if (filters.status !== DEFAULT_VIEW.filters.status) query.status = filters.status;
  if (filters.inboxId !== null) query.inbox = String(filters.inboxId);
  if (filters.teamId !== null) query.team = String(filters.teamId);
  if (filters.label) query.label = filters.label;
  if (filters.q) query.q = filters.q;
  return query;
}

/** The API's query for the filters (the list's and the counts'). */
export function apiFilters(filters: ListFilters) {
  return {
    status: filters.status,
    ...(filters.inboxId !== null ? { inbox_id: filters.inboxId } : {}),
    ...(filters.teamId !== null ? { team_id: filters.teamId } : {}),
    ...(filters.label ? { labels: [filters.label] } : {}),
    ...(filters.q ? { q: filters.q } : {}),
  };
}

/** A stable key of a view: two views with the same key show the same list. */
export const viewKey = (view: ListView): string => JSON.stringify([view.tab, viewToQuery(view)]);

/** How many filters beyond the tab and status are on (the filter button's badge). */
export const activeFilterCount = (filters: ListFilters): number =>
  [filters.inboxId !== null, filters.teamId !== null, filters.label !== null].filter(Boolean).length;
