import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam, PageQuery } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentRule, presentRun } from './automation-rules.presenter.js';
import { RuleCreateBody, RuleSchema, RuleUpdateBody, RunSchema, RunsQuery } from './automation-rules.schema.js';

const A = '/api/v1/accounts/:accountId';
const tags = ['automation rules'];
const security = [{ userApiKey: [] }];
const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };
const AccountParams = Type.Object({ accountId: IdParam });
const RuleParams = Type.Object({ accountId: IdParam, id: IdParam });
const One = Type.Object({ payload: RuleSchema });
const admin = { adminOnly: true, bodyKey: 'automation_rule' };

export const automationRulesRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.automationRules;

  app.get(
    `${A}/automation_rules`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'List automation rules (100 per page, oldest first)',
        params: AccountParams,
        querystring: Type.Object({ page: Type.Optional(PageQuery) }),
        response: {
          200: Type.Object({ meta: Type.Object({ current_page: Type.Integer() }), payload: Type.Array(RuleSchema) }),
          ...errors,
        },
      },
    },
    async (req) => {
      const page = req.query.page ?? 1;
      return { meta: { current_page: page }, payload: (await svc.list(ctxOf(req), page)).map(presentRule) };
    },
  );

  app.post(
    `${A}/automation_rules`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Create an automation rule',
        params: AccountParams,
        body: RuleCreateBody,
        response: { 200: One, ...errors },
      },
    },
    async (req) => ({ payload: presentRule(await svc.create(ctxOf(req), req.body)) }),
  );

  app.get(
    `${A}/automation_rules/:id`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'Show an automation rule',
        params: RuleParams,
        response: { 200: One, ...errors },
      },
    },
    async (req) => ({ payload: presentRule(await svc.get(ctxOf(req), req.params.id)) }),
  );

  app.patch(
    `${A}/automation_rules/:id`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Update an automation rule',
        params: RuleParams,
        body: RuleUpdateBody,
        response: { 200: One, ...errors },
      },
    },
    async (req) => ({ payload: presentRule(await svc.update(ctxOf(req), req.params.id, req.body)) }),
  );

  app.delete(
    `${A}/automation_rules/:id`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'Delete an automation rule and its run log',
        params: RuleParams,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await svc.delete(ctxOf(req), req.params.id);
      return {};
    },
  );

  app.get(
    `${A}/automation_rules/:id/runs`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'Runs of an automation rule (applied or failed), newest first, 25 per page',
        params: RuleParams,
        querystring: RunsQuery,
        response: {
          200: Type.Object({ meta: Type.Object({ current_page: Type.Integer() }), payload: Type.Array(RunSchema) }),
          ...errors,
        },
      },
    },
    async (req) => {
      const page = req.query.page ?? 1;
      return {
        meta: { current_page: page },
        payload: (await svc.runs(ctxOf(req), req.params.id, page)).map(presentRun),
      };
    },
  );
};
