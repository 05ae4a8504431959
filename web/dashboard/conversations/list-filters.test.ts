import { describe, expect, it } from 'vitest';
import { apiFilters, DEFAULT_VIEW, viewFromQuery, viewKey, viewToQuery } from './list-filters.js';

describe("the conversation list's view in the address", () => {
  it('reads what it knows and falls back on the rest', () => {
    expect(viewFromQuery({})).toEqual(DEFAULT_VIEW);
    expect(
      viewFromQuery({ assignee: 'unassigned', status: 'snoozed', inbox: '3', team: '2', label: 'vip', q: ' refund ' }),
    ).toEqual({
      tab: 'unassigned',
      filters: { status: 'snoozed', inboxId: 3, teamId: 2, label: 'vip', q: 'refund' },
    });
    expect(viewFromQuery({ assignee: 'nobody', status: 'gone', inbox: '-1', team: 'x' })).toEqual(DEFAULT_VIEW);
  });

  it('writes only what differs from the default, and reads back the same view', () => {
    expect(viewToQuery(DEFAULT_VIEW)).toEqual({});
    const view = {
      tab: 'all' as const,
      filters: { status: 'all' as const, inboxId: 4, teamId: null, label: 'vip', q: 'a b' },
    };
    expect(viewFromQuery(viewToQuery(view))).toEqual(view);
    expect(viewKey(view)).toBe(viewKey(viewFromQuery(viewToQuery(view))));
  });

  it("gives the API's query", () => {
    expect(apiFilters(DEFAULT_VIEW.filters)).toEqual({ status: 'open' });
    expect(apiFilters({ status: 'all', inboxId: 1, teamId: 2, label: 'vip', q: 'x' })).toEqual({
      status: 'all',
      inbox_id: 1,
      team_id: 2,
      labels: ['vip'],
      q: 'x',
    });
  });
});
