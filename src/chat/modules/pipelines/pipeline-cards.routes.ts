import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentCardDetail } from './card-detail.presenter.js';
import { presentCard } from './pipeline-cards.presenter.js';
import type { CardPage } from './pipeline-cards.queries.js';
import {
  CardCreateBody,
  CardDetailSchema,
  CardListQuery,
  CardSchema,
  CardUpdateBody,
  ChecklistBody,
  DiscardBody,
  MoveBody,
  ReorderBody,
} from './pipeline-cards.schema.js';
import { ListMeta } from './pipelines.schema.js';

export const A = '/api/v1/accounts/:accountId';
export const cardTags = ['pipeline cards'];
export const security = [{ userApiKey: [] }];
export const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };
export const CardParams = Type.Object({ accountId: IdParam, id: IdParam });
export const OneCard = Type.Object({ data: CardSchema });
export const CardList = Type.Object({ data: Type.Array(CardSchema), meta: ListMeta });
export const OneDetail = Type.Object({ data: CardDetailSchema });
/** A move's answer: the card, and its new stage_version beside it (additive). */
const MovedCard = Type.Object({ data: CardSchema, stage_version: Type.Integer() });
const AccountParams = Type.Object({ accountId: IdParam });
const tags = cardTags;

export const presentPage = (page: CardPage) => ({
  data: page.views.map(presentCard),
  meta: { total: page.total, page: page.page, per_page: page.perPage },
});

/** Cards under `{A}/pipeline_cards` (the spec's first spelling): agents and administrators. */
export const pipelineCardsRoutes: ChatRoutes = async (app, { services }) => {
  const cards = services.pipelineCards;
  const queries = services.pipelineCardQueries;
  const publicUrl = services.pipelineCardAttachments.publicUrl;

  app.get(
    `${A}/pipeline_cards`,
    {
      schema: {
        tags,
        security,
        summary: 'List cards (won and lost included), ordered by stage position then card position',
        params: AccountParams,
        querystring: CardListQuery,
        response: { 200: CardList, ...errors },
      },
    },
    async (req) => presentPage(await queries.list(ctxOf(req), req.query)),
  );

  app.post(
    `${A}/pipeline_cards`,
    {
      config: { bodyKey: 'pipeline_card' },
      schema: {
        tags,
        security,
        summary: 'Create a card (deal) at the end of a stage',
        params: AccountParams,
        body: CardCreateBody,
        response: { 200: OneCard, ...errors },
      },
    },
    async (req) => ({ data: presentCard(await cards.create(ctxOf(req), req.body)) }),
  );

  app.post(
    `${A}/pipeline_cards/reorder`,
    {
      schema: {
        tags,
        security,
        summary: "Set the order of one stage's open cards (all of them, all or nothing)",
        params: AccountParams,
        body: ReorderBody,
        response: { 200: Type.Object({ data: Type.Array(CardSchema) }), ...errors },
      },
    },
    async (req) => ({
      data: (await services.pipelineCardMoves.reorder(ctxOf(req), req.body.card_ids)).map(presentCard),
    }),
  );

  app.get(
    `${A}/pipeline_cards/:id`,
    {
      schema: {
        tags,
        security,
        summary: 'Show a card with its latest 50 timeline entries, its score and its attachments',
        params: CardParams,
        response: { 200: OneDetail, ...errors },
      },
    },
    async (req) => ({ data: presentCardDetail(await queries.detail(ctxOf(req), req.params.id), publicUrl) }),
  );

  app.patch(
    `${A}/pipeline_cards/:id`,
    {
      config: { bodyKey: 'pipeline_card' },
      schema: {
        tags,
        security,
        summary: 'Update a card; lead_score sets a manual score that sticks until recalculate_score',
        params: CardParams,
        body: CardUpdateBody,
        response: { 200: OneCard, ...errors },
      },
    },
    async (req) => ({ data: presentCard(await cards.update(ctxOf(req), req.params.id, req.body)) }),
  );

  app.delete(
    `${A}/pipeline_cards/:id`,
    {
      schema: {
        tags,
        security,
        summary:
          'Discard a card (soft delete: restorable through pipeline/cards/{id}/restore), with an optional reason',
        params: CardParams,
        body: DiscardBody,
        response: { 200: OneCard, ...errors },
      },
    },
    async (req) => {
      const reason = req.body.reason ?? req.body.deleted_reason;
      return { data: presentCard(await services.pipelineCardLifecycle.discard(ctxOf(req), req.params.id, reason)) };
    },
  );

  app.post(
    `${A}/pipeline_cards/:id/move_to_stage`,
    {
      schema: {
        tags,
        security,
        summary:
          "Move a card to the end of a stage; a stale expected_version answers 409. stage_version is at the top too (NooviChat's MCP reads it there)",
        params: CardParams,
        body: MoveBody,
        response: { 200: MovedCard, 409: ChatErrorBody, ...errors },
      },
    },
    async (req) => {
      const view = await services.pipelineCardMoves.move(ctxOf(req), req.params.id, req.body);
      return { data: presentCard(view), stage_version: view.card.stage_version };
    },
  );

  app.patch(
    `${A}/pipeline_cards/:id/update_qualification_checklist`,
    {
      schema: {
        tags,
        security,
        summary: "Replace a card's qualification checklist (key = criterion id)",
        params: CardParams,
        body: ChecklistBody,
        response: { 200: OneDetail, ...errors },
      },
    },
    async (req) => {
      const ctx = ctxOf(req);
      const view = await services.pipelineCardScoring.updateChecklist(
        ctx,
        req.params.id,
        req.body.qualification_checklist,
      );
      return { data: presentCardDetail(await queries.detailOf(ctx, view), publicUrl) };
    },
  );

  app.post(
    `${A}/pipeline_cards/:id/recalculate_score`,
    {
      schema: {
        tags,
        security,
        summary: "Clear a manual score and recompute the card's lead score",
        params: CardParams,
        response: { 200: OneDetail, ...errors },
      },
    },
    async (req) => {
      const ctx = ctxOf(req);
      const view = await services.pipelineCardScoring.recalculate(ctx, req.params.id);
      return { data: presentCardDetail(await queries.detailOf(ctx, view), publicUrl) };
    },
  );
};
