import { notFound } from '../../../core/http/errors.js';
import { eventOrigin, type AccountContext, type ChatDeps, type Q, type Trx } from '../../context.js';
import { emitChatEvent } from '../../events.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import * as timelineRepo from './card-timeline.repository.js';
import {
  cardRefs,
  type CardRefs,
  type PipelineCardEventName,
  type PipelineCardEvents,
} from './pipeline-cards.events.js';
import { presentCard } from './pipeline-cards.presenter.js';
import * as repo from './pipeline-cards.repository.js';
import { loadCardViews, type CardView } from './pipeline-cards.views.js';
import type { PerformerType, PipelineCard, TimelineEntry, TimelineEntryType } from './pipelines.tables.js';

/** The card as an entry records it: after the entry's change (its stage, owner, value, reason). */
export type TimelineCard = Pick<
  PipelineCard,
  'id' | 'pipeline_id' | 'stage_id' | 'owner_id' | 'value_minor' | 'currency' | 'lost_reason'
>;

/** One timeline entry to write. */
export interface TimelineWrite {
  card: TimelineCard;
  type: TimelineEntryType;
  data?: Record<string, unknown>;
}

/** The facts columns of an entry (migration 0151), from the card after the change. */
function factsOf(w: TimelineWrite) {
  const entersStage = w.type === 'created' || w.type === 'stage_change';
  const closes = w.type === 'deal_won' || w.type === 'deal_lost';
  return {
    pipeline_id: w.card.pipeline_id,
    stage_id: entersStage ? w.card.stage_id : null,
    owner_id: w.card.owner_id,
    value_minor: closes ? w.card.value_minor : null,
    currency: closes ? w.card.currency : null,
    reason: w.type === 'deal_lost' ? w.card.lost_reason : null,
  };
}

/** One card event to record: the card's view, the refs beyond the base ones, and extra snapshot fields. */
export interface CardEventItem<N extends PipelineCardEventName> {
  view: CardView;
  refs: Omit<PipelineCardEvents[N]['refs'], keyof CardRefs>;
  extra?: Record<string, unknown>;
}

export interface Performer {
  type: PerformerType;
  id: number | null;
  name: string | null;
}

/** Who a context is, as a timeline names them (no query: the context carries the names). */
export function performerOf(ctx: AccountContext): Performer {
  switch (ctx.actor.type) {
    case 'user':
      return { type: 'user', id: ctx.actor.user.id, name: ctx.actor.user.name };
    case 'bot':
      return { type: 'agent_bot', id: ctx.actor.bot.id, name: ctx.actor.bot.name };
    case 'automation':
      return { type: 'automation', id: ctx.actor.ruleId, name: 'Automation' };
    default:
      return { type: 'system', id: null, name: null };
  }
}

/**
 * What every card use case shares: finding a card of the account (404 otherwise), presenting cards
 * in batches, writing timeline entries and recording events, always in the caller's transaction.
 */
export class CardRecords {
  constructor(
    readonly deps: ChatDeps,
    private readonly accounts: AccountsService,
  ) {}

  /**
   * A card of the account; discarded cards are not found unless asked for. Inside a transaction on
   * PostgreSQL the row is locked until it ends: concurrent changes of one card queue up, and each
   * sees what the previous one wrote.
   */
  async find(
    q: Q,
    ctx: AccountContext,
    id: number,
    discarded: 'exclude' | 'include' | 'only' = 'exclude',
  ): Promise<PipelineCard> {
    const lock = this.deps.dialect === 'postgres' && q.isTransaction;
    const card = await repo.findCard(q, ctx.accountId, id, discarded, lock);
    if (!card) throw notFound('Pipeline card');
    return card;
  }

  views(q: Q, accountId: number, rows: readonly PipelineCard[]): Promise<CardView[]> {
    return loadCardViews(q, accountId, rows);
  }

  async view(q: Q, accountId: number, card: PipelineCard): Promise<CardView> {
    return (await loadCardViews(q, accountId, [card]))[0];
  }

  /** Writes timeline entries (one insert), attributed to the context's actor; pass each card as the change left it. */
  timeline(trx: Trx, ctx: AccountContext, writes: TimelineWrite[], at = Date.now()): Promise<TimelineEntry[]> {
    const performer = performerOf(ctx);
    return timelineRepo.insertEntries(
      trx,
      writes.map((w) => ({
        account_id: ctx.accountId,
        card_id: w.card.id,
        type: w.type,
        data: JSON.stringify(w.data ?? {}),
        performer_type: performer.type,
        performer_id: performer.id,
        performer_name: performer.name,
        created_at: at,
        ...factsOf(w),
      })),
    );
  }

  /** Records one event per item, in the change's transaction (the account is read once). */
  async emit<N extends PipelineCardEventName>(
    trx: Trx,
    ctx: AccountContext,
    name: N,
    items: CardEventItem<N>[],
  ): Promise<void> {
    if (items.length === 0) return;
    const account = await this.accounts.find(trx, ctx.accountId);
    if (!account) throw notFound('Account');
    for (const item of items) {
      await emitChatEvent(trx, {
        accountId: ctx.accountId,
        name,
        refs: { ...cardRefs(item.view, ctx.userId), ...item.refs } as PipelineCardEvents[N]['refs'],
        snapshot: {
          event: name,
          ...presentCard(item.view),
          account: { id: account.id, name: account.name },
          ...item.extra,
        },
        origin: eventOrigin(ctx),
      });
    }
  }
}
