import { Type } from '@sinclair/typebox';
import { invalidField } from '../../../core/http/errors.js';
import { IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentCardDetail } from './card-detail.presenter.js';
import { presentCard } from './pipeline-cards.presenter.js';
import {
  A,
  CardList,
  CardParams,
  cardTags as tags,
  errors,
  OneCard,
  OneDetail,
  presentPage,
  security,
} from './pipeline-cards.routes.js';
import { CardListQuery, DiscardBody, ScoreOverrideBody } from './pipeline-cards.schema.js';

const PipelineParams = Type.Object({ accountId: IdParam, pipeline_id: IdParam });
const AccountParams = Type.Object({ accountId: IdParam });

/**
 * The paths NooviChat's MCP server calls, as aliases of the spec's routes (docs/spec/decisions.md §1): the
 * same services, the same answers. `DELETE {A}/pipeline/cards/{id}` is the spec's discard with
 * the client's reason kept as `deleted_reason`.
 */
export const cardAliasRoutes: ChatRoutes = async (app, { services }) => {
  const queries = services.pipelineCardQueries;
  const publicUrl = services.pipelineCardAttachments.publicUrl;
  const C = `${A}/pipeline/cards`;

  app.get(
    `${A}/pipelines/:pipeline_id/pipeline_cards`,
    {
      schema: {
        tags,
        security,
        summary:
          "One pipeline's cards: GET {A}/pipeline_cards?pipeline_id={id} (404 for a pipeline of another account)",
        params: PipelineParams,
        querystring: CardListQuery,
        response: { 200: CardList, ...errors },
      },
    },
    async (req) => presentPage(await queries.listOfPipeline(ctxOf(req), req.params.pipeline_id, req.query)),
  );

  app.get(
    C,
    {
      schema: {
        tags,
        security,
        summary: 'The card list under its second spelling: GET {A}/pipeline_cards, with the same filters',
        params: AccountParams,
        querystring: CardListQuery,
        response: { 200: CardList, ...errors },
      },
    },
    async (req) => presentPage(await queries.list(ctxOf(req), req.query)),
  );

  app.post(
    `${C}/:id/lead_scores/override`,
    {
      schema: {
        tags,
        security,
        summary: 'A manual score (score, or lead_score) that sticks until recalculated: PATCH lead_score',
        params: CardParams,
        body: ScoreOverrideBody,
        response: { 200: OneDetail, ...errors },
      },
    },
    async (req) => {
      const ctx = ctxOf(req);
      const score = req.body.score ?? req.body.lead_score;
      if (score === undefined) throw invalidField('score', 'is required (or lead_score)');
      const view = await services.pipelineCards.update(ctx, req.params.id, { lead_score: score });
      return { data: presentCardDetail(await queries.detailOf(ctx, view), publicUrl) };
    },
  );

  app.post(
    `${C}/:id/lead_scores/recalculate`,
    {
      schema: {
        tags,
        security,
        summary: 'Clear a manual score and recompute: POST {A}/pipeline_cards/{id}/recalculate_score',
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

  app.delete(
    `${C}/:id`,
    {
      schema: {
        tags,
        security,
        summary: 'Discard a card, with why (reason or deleted_reason, kept as deleted_reason until restored)',
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
};
