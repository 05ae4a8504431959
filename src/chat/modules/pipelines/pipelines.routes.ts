import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentPipeline, presentStage } from './pipelines.presenter.js';
import {
  DeletedSchema,
  PipelineCreateBody,
  PipelineSchema,
  PipelineUpdateBody,
  StageSchema,
} from './pipelines.schema.js';

const A = '/api/v1/accounts/:accountId';
const tags = ['pipelines'];
const security = [{ userApiKey: [] }];
const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };
const AccountParams = Type.Object({ accountId: IdParam });
const PipelineParams = Type.Object({ accountId: IdParam, id: IdParam });
const StagesParams = Type.Object({ accountId: IdParam, pipeline_id: IdParam });
const One = Type.Object({ data: PipelineSchema });
const Total = Type.Object({ total: Type.Integer() });

/** Pipelines and stages: every member reads; administrators create, change and delete. */
export const pipelinesRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.pipelines;

  app.get(
    `${A}/pipelines`,
    {
      schema: {
        tags,
        security,
        summary: 'List pipelines with their stages, card counts and value totals',
        params: AccountParams,
        response: { 200: Type.Object({ data: Type.Array(PipelineSchema), meta: Total }), ...errors },
      },
    },
    async (req) => {
      const views = await svc.list(ctxOf(req));
      return { data: views.map(presentPipeline), meta: { total: views.length } };
    },
  );

  app.post(
    `${A}/pipelines`,
    {
      config: { adminOnly: true, bodyKey: 'pipeline' },
      schema: {
        tags,
        security,
        summary: 'Create a pipeline; `stages` is a hash keyed by temporary ids (never an array)',
        params: AccountParams,
        body: PipelineCreateBody,
        response: { 200: One, ...errors },
      },
    },
    async (req) => ({ data: presentPipeline(await svc.create(ctxOf(req), req.body)) }),
  );

  app.get(
    `${A}/pipelines/:id`,
    {
      schema: { tags, security, summary: 'Show a pipeline', params: PipelineParams, response: { 200: One, ...errors } },
    },
    async (req) => ({ data: presentPipeline(await svc.get(ctxOf(req), req.params.id)) }),
  );

  app.patch(
    `${A}/pipelines/:id`,
    {
      config: { adminOnly: true, bodyKey: 'pipeline' },
      schema: {
        tags,
        security,
        summary:
          'Update a pipeline; `stages` replaces the stage set (existing stage ids keep their cards; cards of removed stages move to the first stage)',
        params: PipelineParams,
        body: PipelineUpdateBody,
        response: { 200: One, ...errors },
      },
    },
    async (req) => ({ data: presentPipeline(await svc.update(ctxOf(req), req.params.id, req.body)) }),
  );

  app.delete(
    `${A}/pipelines/:id`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'Delete a pipeline permanently, with its stages, cards, timelines and files',
        params: PipelineParams,
        response: { 200: DeletedSchema, ...errors },
      },
    },
    async (req) => {
      await svc.delete(ctxOf(req), req.params.id);
      return { data: { id: req.params.id, deleted: true } };
    },
  );

  app.get(
    `${A}/pipelines/:pipeline_id/stages`,
    {
      schema: {
        tags,
        security,
        summary: "A pipeline's stages in board order (position from 0), with card counts and value totals",
        params: StagesParams,
        response: { 200: Type.Object({ data: Type.Array(StageSchema), meta: Total }), ...errors },
      },
    },
    async (req) => {
      const stages = await svc.stages(ctxOf(req), req.params.pipeline_id);
      return { data: stages.map(presentStage), meta: { total: stages.length } };
    },
  );
};
