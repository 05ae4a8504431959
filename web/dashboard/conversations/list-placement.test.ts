import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW, type ListFilters, type ListView } from './list-filters.js';
import { matchesFilters, place, recount, type Counts, type Placed } from './list-placement.js';

const ME = 7;
const conv = (id: number, over: Partial<Placed> = {}): Placed => ({
  id,
  inbox_id: 1,
  status: 'open',
  last_activity_at: 1000 + id,
  labels: [],
  assignee: null,
  team: null,
  ...over,
});
const view = (tab: ListView['tab'], filters: Partial<ListFilters> = {}): ListView => ({
  tab,
  filters: { ...DEFAULT_VIEW.filters, ...filters },
});
const ids = (items: readonly Placed[]) => items.map((c) => c.id);

describe('placing a changed conversation in the list', () => {
  const list = [conv(5), conv(4), conv(3)];

  it('moves a conversation with new activity to the top', () => {
    const out = place(list, conv(3, { last_activity_at: 2000 }), view('all'), ME, true);
    expect(ids(out.items)).toEqual([3, 5, 4]);
    expect(out.changed).toBe(true);
  });

  it('inserts a new conversation in order, ties going to the newer one', () => {
    expect(ids(place(list, conv(9, { last_activity_at: 1004 }), view('all'), ME, true).items)).toEqual([5, 9, 4, 3]);
    expect(ids(place(list, conv(2, { last_activity_at: 1004 }), view('all'), ME, true).items)).toEqual([5, 4, 2, 3]);
  });

  it('takes a conversation out of the list when it leaves the filters or the tab', () => {
    expect(ids(place(list, conv(4, { status: 'resolved' }), view('all'), ME, true).items)).toEqual([5, 3]);
    expect(ids(place(list, conv(4, { assignee: { id: 99 } }), view('unassigned'), ME, true).items)).toEqual([5, 3]);
    expect(ids(place(list, conv(4, { labels: ['vip'] }), view('all', { label: 'billing' }), ME, true).items)).toEqual([
      5, 3,
    ]);
  });

  it('brings a conversation assigned to me into Mine', () => {
    const mine = [conv(5, { assignee: { id: ME } })];
    expect(ids(place(mine, conv(4, { assignee: { id: ME } }), view('me'), ME, true).items)).toEqual([5, 4]);
    expect(place(mine, conv(4, { assignee: { id: 8 } }), view('me'), ME, true).changed).toBe(false);
  });

  it('leaves a conversation past the loaded pages to its page', () => {
    const older = conv(1, { last_activity_at: 10 });
    expect(place(list, older, view('all'), ME, false).changed).toBe(false);
    expect(ids(place(list, older, view('all'), ME, true).items)).toEqual([5, 4, 3, 1]);
  });

  it('with a search on, updates listed conversations and adds none it cannot match', () => {
    const search = view('all', { q: 'refund' });
    expect(matchesFilters(conv(1), search.filters)).toBe('unknown');
    expect(place(list, conv(8, { last_activity_at: 5000 }), search, ME, true).changed).toBe(false);
    expect(ids(place(list, conv(3, { last_activity_at: 5000 }), search, ME, true).items)).toEqual([3, 5, 4]);
    expect(ids(place(list, conv(3, { status: 'resolved' }), search, ME, true).items)).toEqual([5, 4]);
  });

  it('filters by inbox, team and status as the server does', () => {
    const filters = { ...DEFAULT_VIEW.filters, inboxId: 2, teamId: 3, status: 'pending' as const };
    expect(matchesFilters(conv(1, { inbox_id: 2, team: { id: 3 }, status: 'pending' }), filters)).toBe(true);
    expect(matchesFilters(conv(1, { inbox_id: 1, team: { id: 3 }, status: 'pending' }), filters)).toBe(false);
    expect(matchesFilters(conv(1, { inbox_id: 2, team: null, status: 'pending' }), filters)).toBe(false);
    expect(matchesFilters(conv(1, { status: 'snoozed' }), { ...DEFAULT_VIEW.filters, status: 'all' })).toBe(true);
  });
});

describe('recounting the tabs', () => {
  const counts: Counts = { mine_count: 2, unassigned_count: 3, all_count: 10, assigned_count: 7 };
  const open = DEFAULT_VIEW.filters;

  it('moves a conversation from Unassigned to Mine when I take it', () => {
    const out = recount(counts, conv(1), conv(1, { assignee: { id: ME } }), open, ME, true);
    expect(out).toEqual({
      counts: { mine_count: 3, unassigned_count: 2, all_count: 10, assigned_count: 8 },
      certain: true,
    });
  });

  it('takes a resolved conversation out of every count of the open list', () => {
    const out = recount(
      counts,
      conv(1, { assignee: { id: ME } }),
      conv(1, { status: 'resolved', assignee: { id: ME } }),
      open,
      ME,
      true,
    );
    expect(out.counts).toEqual({ mine_count: 1, unassigned_count: 3, all_count: 9, assigned_count: 6 });
  });

  it('counts a new conversation', () => {
    expect(recount(counts, undefined, conv(1), open, ME, true).counts).toEqual({
      mine_count: 2,
      unassigned_count: 4,
      all_count: 11,
      assigned_count: 7,
    });
  });

  it('says when it cannot know: the state before is unknown, or a search is on', () => {
    expect(recount(counts, undefined, conv(1), open, ME, false)).toEqual({ counts, certain: false });
    expect(recount(counts, conv(1), conv(1, { status: 'resolved' }), { ...open, q: 'x' }, ME, true).certain).toBe(
      false,
    );
  });

  it('never counts below zero', () => {
    const none: Counts = { mine_count: 0, unassigned_count: 0, all_count: 0, assigned_count: 0 };
    expect(recount(none, conv(1), undefined, open, ME, true).counts).toEqual(none);
  });
});
