import { defineStore } from 'pinia';
import { computed, shallowRef } from 'vue';
import type { ApiError } from '../../shared/api/errors.js';
import { api, settle, type Deal, type Pipeline, type Stage } from '../api.js';
import { moveLocally } from '../pipeline/board-rules.js';

/** Cards a column reads at a time. */
export const COLUMN_PAGE_SIZE = 25;

export interface Column {
  stage: Stage;
  cards: Deal[];
  /** Under a filter, how many of the stage's cards match it (the list's `meta.total`). */
  matching: number | null;
  loading: boolean;
  error: ApiError | null;
}

/** What the board's list requests filter by (the list's own parameters). */
export interface CardFilter {
  q: string;
  ownerId: number | null;
  status: 'open' | 'won' | 'lost' | null;
}

export const NO_FILTER: CardFilter = { q: '', ownerId: null, status: null };
const isFiltered = (f: CardFilter) => f.q !== '' || f.ownerId !== null || f.status !== null;

/** What a new deal is made of (the stage and pipeline come from where it is created). */
export interface NewDeal {
  title: string;
  value?: string;
  currency?: string;
  expected_close_date?: string;
  owner_id?: number | null;
}

/** What a card action answered: done, or refused with the server's error (a 409 for a stale move). */
export type Result = { ok: true } | { ok: false; error: ApiError };

/**
 * The deal board: the account's pipelines, the one shown, and its stages as columns, each holding
 * the cards read so far (a page at a time, in the server's order) with the server's count and
 * total. Moves are applied at once and undone when the server refuses them; after every change
 * the counts and totals are read again, so the headers show the server's numbers.
 */
export const useBoardStore = defineStore('board', () => {
  const accountId = shallowRef<number | null>(null);
  const pipelines = shallowRef<Pipeline[]>([]);
  const pipelineId = shallowRef<number | null>(null);
  const columns = shallowRef<Column[]>([]);
  const filter = shallowRef<CardFilter>(NO_FILTER);
  const filtered = computed(() => isFiltered(filter.value));
  const loading = shallowRef(false);
  const error = shallowRef<ApiError | null>(null);
  let generation = 0;

  const path = () => ({ accountId: accountId.value ?? 0 });

  async function readPipelines(): Promise<ApiError | null> {
    const outcome = await settle(api.GET('/api/v1/accounts/{accountId}/pipelines', { params: { path: path() } }));
    if (!outcome.ok) return outcome.error;
    pipelines.value = outcome.data.data;
    return null;
  }

  /** Puts the server's counts and totals (and stage names) on the columns, keeping their cards. */
  function applyStages() {
    const pipeline = pipelines.value.find((p) => p.id === pipelineId.value);
    if (!pipeline) return;
    const held = new Map(columns.value.map((c) => [c.stage.id, c]));
    columns.value = [...pipeline.stages]
      .sort((a, b) => a.position - b.position)
      .map((stage) => ({
        ...(held.get(stage.id) ?? { cards: [], matching: null, loading: false, error: null }),
        stage,
      }));
  }

  function setColumn(stageId: string, change: Partial<Column>) {
    columns.value = columns.value.map((c) => (c.stage.id === stageId ? { ...c, ...change } : c));
  }

  /** Reads the next cards of a column (the page after those held; cards held already are not repeated). */
  async function loadMore(stageId: string): Promise<void> {
    const column = columns.value.find((c) => c.stage.id === stageId);
    if (!column || column.loading || pipelineId.value === null) return;
    const mine = generation;
    setColumn(stageId, { loading: true, error: null });
    const page = Math.floor(column.cards.length / COLUMN_PAGE_SIZE) + 1;
    const outcome = await settle(
      api.GET('/api/v1/accounts/{accountId}/pipeline_cards', {
        params: {
          path: path(),
          query: {
            pipeline_id: pipelineId.value,
            stage_id: stageId,
            page,
            per_page: COLUMN_PAGE_SIZE,
            ...(filter.value.q ? { q: filter.value.q } : {}),
            ...(filter.value.ownerId !== null ? { owner_id: filter.value.ownerId } : {}),
            ...(filter.value.status ? { status: filter.value.status } : {}),
          },
        },
      }),
    );
    if (mine !== generation) return;
    const now = columns.value.find((c) => c.stage.id === stageId);
    if (!now) return;
    if (!outcome.ok) return setColumn(stageId, { loading: false, error: outcome.error });
    const held = new Set(now.cards.map((c) => c.id));
    const fresh = outcome.data.data.filter((c) => !held.has(c.id) && c.stage.id === stageId);
    setColumn(stageId, {
      loading: false,
      cards: [...now.cards, ...fresh],
      matching: filtered.value ? outcome.data.meta.total : null,
    });
  }

  /** How many cards the column has on the server: the stage's, or those matching the filter. */
  const countOf = (column: Column) => (filtered.value ? (column.matching ?? 0) : column.stage.cards_count);

  /** Whether a column holds fewer cards than the server counts in it. */
  const hasMore = (column: Column) => column.cards.length < countOf(column);

  /** Opens a pipeline of an account (its first, when none is named or the one named is not there). */
  async function open(account: number, wanted: number | null, cards: CardFilter = filter.value): Promise<void> {
    const mine = ++generation;
    accountId.value = account;
    filter.value = cards;
    loading.value = true;
    error.value = null;
    const failed = await readPipelines();
    if (mine !== generation) return;
    loading.value = false;
    if (failed) {
      error.value = failed;
      return;
    }
    const pipeline = pipelines.value.find((p) => p.id === wanted) ?? pipelines.value[0];
    pipelineId.value = pipeline?.id ?? null;
    columns.value = [];
    applyStages();
    await Promise.all(columns.value.map((c) => loadMore(c.stage.id)));
  }

  /**
   * Reads the counts and totals again (after a change, or to follow someone else's). Under a
   * filter the counts are the columns' own (a card may have stopped matching): the board is read again.
   */
  async function refreshStages(): Promise<void> {
    if (filtered.value) return reload();
    const mine = generation;
    if ((await readPipelines()) === null && mine === generation) applyStages();
  }

  /** Reads the whole board again: counts, totals, and each column's first page. */
  async function reload(): Promise<void> {
    if (accountId.value !== null) await open(accountId.value, pipelineId.value);
  }

  const findCard = (cardId: number) => columns.value.flatMap((c) => c.cards).find((c) => c.id === cardId);

  /** Replaces a card with the server's answer wherever the board shows it (its stage is unchanged). */
  function replaceCard(card: Deal) {
    columns.value = columns.value.map((c) =>
      c.cards.some((x) => x.id === card.id) ? { ...c, cards: c.cards.map((x) => (x.id === card.id ? card : x)) } : c,
    );
  }

  function removeCard(cardId: number) {
    columns.value = columns.value.map((c) =>
      c.cards.some((x) => x.id === cardId) ? { ...c, cards: c.cards.filter((x) => x.id !== cardId) } : c,
    );
  }

  /**
   * Moves a card to the end of another stage: shown at once, sent as one `move_to_stage` with the
   * stage version the board read (so a move someone made meanwhile answers 409), undone when
   * refused. A refusal re-reads the board, which then shows where the card really is.
   */
  async function move(cardId: number, toStageId: string): Promise<Result> {
    const card = findCard(cardId);
    const target = columns.value.find((c) => c.stage.id === toStageId);
    if (!card || !target) return { ok: true };
    const before = columns.value;
    const next = moveLocally(before, cardId, toStageId, target.stage.name);
    if (!next) return { ok: true };
    columns.value = next.map((c, i) => {
      const was = before[i]!;
      const change = c.cards.length - was.cards.length;
      const matching = was.matching === null ? null : was.matching + change;
      return { ...was, stage: c.stage as Stage, cards: c.cards, matching };
    });
    const outcome = await settle(
      api.POST('/api/v1/accounts/{accountId}/pipeline_cards/{id}/move_to_stage', {
        params: { path: { ...path(), id: cardId } },
        body: { pipeline_stage: toStageId, expected_version: card.stage_version },
      }),
    );
    if (!outcome.ok) {
      columns.value = before;
      void reload();
      return { ok: false, error: outcome.error };
    }
    replaceCard(outcome.data.data);
    await refreshStages();
    return { ok: true };
  }

  /**
   * Creates a deal at the end of a stage. It joins the column's cards when the column holds all of
   * them (else it comes with the column's last page, as the server places it).
   */
  async function create(stageId: string, fields: NewDeal): Promise<Result> {
    if (pipelineId.value === null) return { ok: true };
    const outcome = await settle(
      api.POST('/api/v1/accounts/{accountId}/pipeline_cards', {
        params: { path: path() },
        body: { ...fields, pipeline_id: pipelineId.value, pipeline_stage: stageId },
      }),
    );
    if (!outcome.ok) return { ok: false, error: outcome.error };
    const column = columns.value.find((c) => c.stage.id === stageId);
    if (column && !hasMore(column)) setColumn(stageId, { cards: [...column.cards, outcome.data.data] });
    await refreshStages();
    return { ok: true };
  }

  return {
    accountId,
    pipelines,
    pipelineId,
    columns,
    filter,
    filtered,
    countOf,
    loading,
    error,
    open,
    loadMore,
    hasMore,
    refreshStages,
    reload,
    findCard,
    replaceCard,
    removeCard,
    move,
    create,
  };
});
