import { inTransaction } from '../../../core/db/transaction.js';
import { HttpError } from '../../../core/http/errors.js';
import type { AccountContext, ChatDeps, Trx } from '../../context.js';
import { changedAttributes } from '../contacts/contacts.events.js';
import { fromMinorUnits, toMinorUnits } from './pipeline-cards.money.js';
import { presentCard } from './pipeline-cards.presenter.js';
import type { CardRecords, TimelineWrite } from './pipeline-cards.records.js';
import * as repo from './pipeline-cards.repository.js';
import type { LostBody, WonBody } from './pipeline-cards.schema.js';
import type { CardView } from './pipeline-cards.views.js';
import type { CardStatus, PipelineCard, PipelineCardsTable } from './pipelines.tables.js';
import type { Updateable } from 'kysely';
import { t } from '../../../core/i18n/catalogue.js';

const invalidTransition = (card: PipelineCard) =>
  new HttpError(
    409,
    'invalid_transition',
    t('Only a won or lost deal can be reopened; this one is %{status}', { status: card.status }),
    [{ field: 'status', message: t('is %{status}', { status: card.status }) }],
  );

const blankToNull = (text: string | null | undefined) => {
  const trimmed = text?.trim();
  return trimmed ? trimmed : null;
};

/**
 * Deal status (conversation-service.md, States and transitions): mark_won and mark_lost from any
 * state, reopen only from won or lost (409 `invalid_transition` otherwise). The card keeps its stage
 * throughout. Each transition writes its timeline entry and its event.
 */
export class CardDealsService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly records: CardRecords,
  ) {}

  /** Won; `won_value` (optional) becomes the card's value, with a `value_changed` entry when it differs. */
  async markWon(ctx: AccountContext, id: number, body: WonBody = {}, trx?: Trx): Promise<CardView> {
    return inTransaction(this.deps.db, trx, async (trx) => {
      const card = await this.records.find(trx, ctx, id);
      const values: Updateable<PipelineCardsTable> = { won_note: blankToNull(body.won_note), lost_reason: null };
      const entries: Omit<TimelineWrite, 'card'>[] = [];
      let value = fromMinorUnits(card.value_minor, card.currency);
      if (body.won_value !== undefined) {
        const minor = toMinorUnits(body.won_value, card.currency, 'won_value');
        if (minor !== card.value_minor) {
          values.value_minor = minor;
          entries.push({
            type: 'value_changed',
            data: {
              from: value,
              to: fromMinorUnits(minor, card.currency),
              from_currency: card.currency,
              currency: card.currency,
            },
          });
          value = fromMinorUnits(minor, card.currency);
        }
      }
      entries.push({ type: 'deal_won', data: { value, currency: card.currency, won_note: values.won_note ?? null } });
      return this.transition(trx, ctx, card, 'won', values, entries);
    });
  }

  /** Lost, with the reason (`lost_reason`, or `reason` as some clients send it). */
  async markLost(ctx: AccountContext, id: number, body: LostBody = {}, trx?: Trx): Promise<CardView> {
    return inTransaction(this.deps.db, trx, async (trx) => {
      const card = await this.records.find(trx, ctx, id);
      const reason = blankToNull(body.lost_reason ?? body.reason);
      return this.transition(trx, ctx, card, 'lost', { lost_reason: reason, won_note: null }, [
        { type: 'deal_lost', data: { lost_reason: reason } },
      ]);
    });
  }

  /** Open again, in the same stage; the reason or note of the closing is cleared (the timeline keeps it). */
  async reopen(ctx: AccountContext, id: number, trx?: Trx): Promise<CardView> {
    return inTransaction(this.deps.db, trx, async (trx) => {
      const card = await this.records.find(trx, ctx, id);
      if (card.status === 'open') throw invalidTransition(card);
      return this.transition(trx, ctx, card, 'open', { lost_reason: null, won_note: null }, [
        { type: 'deal_reopened', data: { previous_status: card.status } },
      ]);
    });
  }

  private async transition(
    trx: Trx,
    ctx: AccountContext,
    card: PipelineCard,
    status: CardStatus,
    values: Updateable<PipelineCardsTable>,
    entries: Omit<TimelineWrite, 'card'>[],
  ): Promise<CardView> {
    const now = Date.now();
    const before = presentCard(await this.records.view(trx, ctx.accountId, card)) as Record<string, unknown>;
    const updated = await repo.updateCard(trx, card, {
      ...values,
      status,
      closed_at: status === 'open' ? null : now,
      updated_at: now,
    });
    const view = await this.records.view(trx, ctx.accountId, updated);
    const after = presentCard(view) as Record<string, unknown>;
    await this.records.timeline(
      trx,
      ctx,
      entries.map((e) => ({ ...e, card: updated })),
      now,
    );
    const keys = ['status', 'value', 'won_note', 'lost_reason', 'closed_at'];
    const changed = changedAttributes(
      Object.fromEntries(keys.map((k) => [k, before[k]])),
      Object.fromEntries(keys.map((k) => [k, after[k]])),
    );
    const name =
      status === 'won' ? 'pipeline_card_won' : status === 'lost' ? 'pipeline_card_lost' : 'pipeline_card_reopened';
    await this.records.emit(trx, ctx, name, [
      {
        view,
        refs: { previousStatus: card.status },
        extra: { previous_status: card.status, changed_attributes: changed },
      },
    ]);
    return view;
  }
}
