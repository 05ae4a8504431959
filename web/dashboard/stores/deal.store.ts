import { defineStore } from 'pinia';
import { shallowRef } from 'vue';
import type { ApiError } from '../../shared/api/errors.js';
import { api, settle, type Deal, type DealDetail, type Outcome } from '../api.js';
import { useBoardStore, type NewDeal, type Result } from './board.store.js';

/** A checklist item as the card keeps it (docs/spec/decisions.md §8). */
export interface ChecklistItem {
  key: string;
  name: string;
  checked: boolean;
  points: number;
  required: boolean;
  category: string | null;
  notes: string | null;
}

/** The card's checklist in its stored order, read leniently (it is a free JSON object on the card). */
export function checklistOf(card: Pick<Deal, 'qualification_checklist'>): ChecklistItem[] {
  return Object.entries(card.qualification_checklist).flatMap(([key, raw]) => {
    if (typeof raw !== 'object' || raw === null) return [];
    const item = raw as Record<string, unknown>;
    return [
      {
        key,
        name: typeof item.name === 'string' ? item.name : key,
        checked: item.checked === true,
        points: typeof item.points === 'number' ? item.points : 0,
        required: item.required === true,
        category: typeof item.category === 'string' ? item.category : null,
        notes: typeof item.notes === 'string' ? item.notes : null,
      },
    ];
  });
}

/**
 * One deal as its side panel shows it (the card with its timeline, score factors and
 * attachments), and what can be done to a deal from the board or the panel: won, lost, reopen,
 * notes, the checklist, delete and restore. Every change is put on the board at once.
 */
export const useDealStore = defineStore('deal', () => {
  const board = useBoardStore();
  const detail = shallowRef<DealDetail | null>(null);
  const loading = shallowRef(false);
  const error = shallowRef<ApiError | null>(null);
  const reasons = shallowRef<string[]>([]);
  let generation = 0;

  const path = (id: number) => ({ accountId: board.accountId ?? 0, id });

  async function load(id: number): Promise<void> {
    const mine = ++generation;
    if (detail.value?.id !== id) detail.value = null;
    loading.value = true;
    error.value = null;
    const outcome = await settle(
      api.GET('/api/v1/accounts/{accountId}/pipeline_cards/{id}', { params: { path: path(id) } }),
    );
    if (mine !== generation) return;
    loading.value = false;
    if (outcome.ok) detail.value = outcome.data.data;
    else error.value = outcome.error;
  }

  function close() {
    generation++;
    detail.value = null;
    error.value = null;
  }

  /** After a change answered with the card: the board shows it, and the open panel reads it again. */
  async function changed(outcome: Outcome<{ data: Deal }>): Promise<Result> {
    if (!outcome.ok) return { ok: false, error: outcome.error };
    board.replaceCard(outcome.data.data);
    await Promise.all([
      board.refreshStages(),
      detail.value?.id === outcome.data.data.id ? load(outcome.data.data.id) : null,
    ]);
    return { ok: true };
  }

  const markWon = async (id: number, value: string, note: string) =>
    changed(
      await settle(
        api.POST('/api/v1/accounts/{accountId}/pipeline/cards/{id}/deal_status/mark_won', {
          params: { path: path(id) },
          body: {
            ...(value.trim() ? { won_value: value.trim() } : {}),
            ...(note.trim() ? { won_note: note.trim() } : {}),
          },
        }),
      ),
    );

  const markLost = async (id: number, reason: string) =>
    changed(
      await settle(
        api.POST('/api/v1/accounts/{accountId}/pipeline/cards/{id}/deal_status/mark_lost', {
          params: { path: path(id) },
          body: { lost_reason: reason.trim() || null },
        }),
      ),
    );

  const reopen = async (id: number) =>
    changed(
      await settle(
        api.POST('/api/v1/accounts/{accountId}/pipeline/cards/{id}/deal_status/reopen', { params: { path: path(id) } }),
      ),
    );

  /** Ticks or unticks one item: the checklist is sent whole (the route replaces it), the score follows. */
  async function tick(card: Deal, key: string, checked: boolean): Promise<Result> {
    const items = Object.fromEntries(
      checklistOf(card).map((item) => [
        item.key,
        {
          name: item.name,
          checked: item.key === key ? checked : item.checked,
          points: item.points,
          required: item.required,
          category: item.category,
          notes: item.notes,
        },
      ]),
    );
    return changed(
      await settle(
        api.PATCH('/api/v1/accounts/{accountId}/pipeline_cards/{id}/update_qualification_checklist', {
          params: { path: path(card.id) },
          body: { qualification_checklist: items },
        }),
      ),
    );
  }

  /** Changes a deal's title, value, currency, close date or owner (one PATCH; the timeline records each). */
  const update = async (id: number, fields: NewDeal) =>
    changed(
      await settle(
        api.PATCH('/api/v1/accounts/{accountId}/pipeline_cards/{id}', {
          params: { path: path(id) },
          body: { ...fields, expected_close_date: fields.expected_close_date ?? null },
        }),
      ),
    );

  /** Sets the score by hand (it sticks until `recalculate`, which goes back to the rules). */
  const override = async (id: number, score: number) =>
    changed(
      await settle(
        api.POST('/api/v1/accounts/{accountId}/pipeline/cards/{id}/lead_scores/override', {
          params: { path: path(id) },
          body: { lead_score: score },
        }),
      ),
    );

  const recalculate = async (id: number) =>
    changed(
      await settle(
        api.POST('/api/v1/accounts/{accountId}/pipeline/cards/{id}/lead_scores/recalculate', {
          params: { path: path(id) },
        }),
      ),
    );

  async function addNote(id: number, content: string): Promise<Result> {
    const outcome = await settle(
      api.POST('/api/v1/accounts/{accountId}/pipeline/cards/{id}/notes', {
        params: { path: path(id) },
        body: { content },
      }),
    );
    if (!outcome.ok) return { ok: false, error: outcome.error };
    if (detail.value?.id === id) await load(id);
    return { ok: true };
  }

  /** Deletes a deal (it can be restored: `restore` puts it back where it was). */
  async function remove(id: number): Promise<Result> {
    const outcome = await settle(
      api.DELETE('/api/v1/accounts/{accountId}/pipeline_cards/{id}', { params: { path: path(id) }, body: {} }),
    );
    if (!outcome.ok) return { ok: false, error: outcome.error };
    board.removeCard(id);
    if (detail.value?.id === id) close();
    await board.refreshStages();
    return { ok: true };
  }

  async function restore(id: number): Promise<Result> {
    const outcome = await settle(
      api.POST('/api/v1/accounts/{accountId}/pipeline/cards/{id}/restore', { params: { path: path(id) } }),
    );
    if (!outcome.ok) return { ok: false, error: outcome.error };
    await board.reload();
    return { ok: true };
  }

  /** The reasons deals were lost lately, most frequent first (suggestions for a new one). */
  async function loadReasons(): Promise<void> {
    const outcome = await settle(
      api.GET('/api/v1/accounts/{accountId}/pipeline/deal_status/common_reasons', {
        params: { path: { accountId: board.accountId ?? 0 } },
      }),
    );
    if (outcome.ok) reasons.value = outcome.data.data.reasons.map((r) => r.reason);
  }

  return {
    detail,
    loading,
    error,
    reasons,
    load,
    close,
    markWon,
    markLost,
    reopen,
    tick,
    update,
    override,
    recalculate,
    addNote,
    remove,
    restore,
    loadReasons,
  };
});
