import { inTransaction } from '../../../core/db/transaction.js';
import { HttpError, invalidField, unprocessable } from '../../../core/http/errors.js';
import type { AccountContext, ChatDeps, Trx } from '../../context.js';
import { changedAttributes } from '../contacts/contacts.events.js';
import type { CardRecords } from './pipeline-cards.records.js';
import * as repo from './pipeline-cards.repository.js';
import type { MoveBody } from './pipeline-cards.schema.js';
import type { CardView } from './pipeline-cards.views.js';
import type { PipelinesService } from './pipelines.service.js';
import type { PipelineCard, PipelineStage } from './pipelines.tables.js';
import { t } from '../../../core/i18n/catalogue.js';

const staleVersion = (current: number) =>
  new HttpError(
    409,
    'stale_version',
    t('The card was moved meanwhile (its stage_version is now %{current}): reload it and try again', { current }),
    [{ field: 'expected_version', message: t('is stale (current stage_version: %{current})', { current }) }],
  );

/**
 * Where cards sit: `move_to_stage` (any stage of the account: moving to another pipeline's stage
 * moves the card to that pipeline) and `reorder` (the order of one stage's open cards).
 */
export class CardMovesService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly records: CardRecords,
    private readonly pipelines: PipelinesService,
  ) {}

  /**
   * Moves a card to the end of a stage, with a `stage_change` entry and `pipeline_card_moved`. With
   * `expected_version`, a card whose stage_version changed since the client read it answers 409 and
   * stays where the other move put it. A move to the stage the card is in changes nothing.
   */
  async move(ctx: AccountContext, id: number, body: MoveBody, trx?: Trx): Promise<CardView> {
    return inTransaction(this.deps.db, trx, async (trx) => {
      const card = await this.records.find(trx, ctx, id);
      const stage = await this.stage(trx, ctx, body.pipeline_stage);
      if (body.expected_version !== undefined && body.expected_version !== card.stage_version)
        throw staleVersion(card.stage_version);
      if (stage.id === card.stage_id) return this.records.view(trx, ctx.accountId, card);
      const before = await this.records.view(trx, ctx.accountId, card);
      const now = Date.now();
      const position = await repo.nextPosition(trx, ctx.accountId, stage.id);
      const moved = await repo.moveCard(
        trx,
        card,
        { pipeline_id: stage.pipeline_id, stage_id: stage.id, position, at: now },
        body.expected_version,
      );
      if (!moved) {
        const current = await this.records.find(trx, ctx, id);
        throw staleVersion(current.stage_version);
      }
      const view = await this.records.view(trx, ctx.accountId, moved);
      const from = before.stage;
      const to = view.stage;
      const data: Record<string, unknown> = {
        from_stage: { id: from.id, name: from.name },
        to_stage: { id: to.id, name: to.name },
      };
      if (moved.pipeline_id !== card.pipeline_id) {
        data.from_pipeline = before.pipeline;
        data.to_pipeline = view.pipeline;
      }
      await this.records.timeline(trx, ctx, [{ card: moved, type: 'stage_change', data }], now);
      await this.records.emit(trx, ctx, 'pipeline_card_moved', [
        {
          view,
          refs: {
            fromStageId: from.id,
            fromPipelineId: card.pipeline_id,
            toStageId: to.id,
            stageVersion: moved.stage_version,
            reason: 'move',
          },
          extra: {
            from_stage: data.from_stage,
            to_stage: data.to_stage,
            changed_attributes: [{ stage: { previous_value: data.from_stage, current_value: data.to_stage } }],
          },
        },
      ]);
      return view;
    });
  }

  /**
   * The new order of one stage's open cards: `cardIds` must be every open card of one stage, each
   * once. All or nothing: an unknown (or discarded, or another account's) id answers 404; ids of
   * several stages, a won or lost card, a missing or repeated card answer 422; nothing changes.
   * Won and lost cards of the stage keep their order after the open ones. Each card whose position
   * changed records `pipeline_card_updated`. Returns the stage's cards in their new order.
   */
  async reorder(ctx: AccountContext, cardIds: number[], trx?: Trx): Promise<CardView[]> {
    const unique = [...new Set(cardIds)];
    if (unique.length !== cardIds.length) throw invalidField('card_ids', 'lists a card more than once');
    return inTransaction(this.deps.db, trx, async (trx) => {
      const cards = await repo.findCards(trx, ctx.accountId, unique);
      if (cards.length !== unique.length) {
        const found = new Set(cards.map((c) => c.id));
        const missing = unique.filter((id) => !found.has(id));
        throw new HttpError(404, 'not_found', t('Pipeline cards not found: %{ids}', { ids: missing.join(', ') }));
      }
      const stageIds = new Set(cards.map((c) => c.stage_id));
      if (stageIds.size > 1) throw invalidField('card_ids', 'must all be cards of one stage');
      const closed = cards.filter((c) => c.status !== 'open');
      if (closed.length > 0)
        throw invalidField(
          'card_ids',
          t('lists won or lost cards (%{ids}): only open cards are ordered', {
            ids: closed.map((c) => c.id).join(', '),
          }),
        );
      const [stageId] = stageIds;
      const inStage = await repo.cardsOfStage(trx, ctx.accountId, stageId);
      const listed = new Set(unique);
      const left = inStage.filter((c) => c.status === 'open' && !listed.has(c.id));
      if (left.length > 0) {
        throw unprocessable(
          t('card_ids must list every open card of the stage; missing: %{ids}', {
            ids: left.map((c) => c.id).join(', '),
          }),
          [{ field: 'card_ids', message: 'must list every open card of the stage' }],
        );
      }
      const byId = new Map(inStage.map((c) => [c.id, c]));
      const order = [...unique.map((id) => byId.get(id)!), ...inStage.filter((c) => c.status !== 'open')];
      const now = Date.now();
      const changed: { before: PipelineCard; after: PipelineCard }[] = [];
      const result: PipelineCard[] = [];
      for (const [position, card] of order.entries()) {
        if (card.position === position) {
          result.push(card);
          continue;
        }
        const after = await repo.updateCard(trx, card, { position, updated_at: now });
        changed.push({ before: card, after });
        result.push(after);
      }
      const views = await this.records.views(trx, ctx.accountId, result);
      const viewById = new Map(views.map((v) => [v.card.id, v]));
      await this.records.emit(
        trx,
        ctx,
        'pipeline_card_updated',
        changed.map(({ before, after }) => ({
          view: viewById.get(after.id)!,
          refs: { changed: ['position'] },
          extra: { changed_attributes: changedAttributes({ position: before.position }, { position: after.position }) },
        })),
      );
      return views;
    });
  }

  /** A stage of the account by its public id; anything else is a 422 on `pipeline_stage`. */
  private async stage(trx: Trx, ctx: AccountContext, key: string): Promise<PipelineStage> {
    const stage = await this.pipelines.stageByKey(trx, ctx.accountId, key.trim());
    if (!stage) throw invalidField('pipeline_stage', 'must be a stage id of this account, as {pipeline_id}_{slug}');
    return stage;
  }
}
