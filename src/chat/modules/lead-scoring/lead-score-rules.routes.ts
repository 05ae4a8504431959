import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentRule } from './lead-score-rules.presenter.js';
import { RuleCreateBody, RuleSchema, RuleUpdateBody } from './lead-score-rules.schema.js';

export const A = '/api/v1/accounts/:accountId';
export const security = [{ userApiKey: [] }];
export const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };
export const AccountParams = Type.Object({ accountId: IdParam });
const RuleParams = Type.Object({ accountId: IdParam, id: IdParam });
const tags = ['lead scoring'];

/** `{A}/lead_score_rules`: every member reads, administrators write (bodies bare or as `{lead_score_rule: {...}}`). */
export const leadScoreRulesRoutes: ChatRoutes = async (app, { services }) => {
  const rules = services.leadScoreRules;

  app.get(
    `${A}/lead_score_rules`,
    {
      schema: {
        tags,
        security,
        summary: 'The lead score rules, in the order they apply (priority, then id)',
        params: AccountParams,
        response: { 200: Type.Array(RuleSchema), ...errors },
      },
    },
    async (req) => (await rules.list(ctxOf(req))).map(presentRule),
  );

  app.post(
    `${A}/lead_score_rules`,
    {
      config: { adminOnly: true, bodyKey: 'lead_score_rule' },
      schema: {
        tags,
        security,
        summary: 'Create a rule (points between -100 and 100)',
        params: AccountParams,
        body: RuleCreateBody,
        response: { 200: RuleSchema, ...errors },
      },
    },
    async (req) => presentRule(await rules.create(ctxOf(req), req.body)),
  );

  app.post(
    `${A}/lead_score_rules/create_defaults`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'Create the default rule set (idempotent: answers the rules it created, none the second time)',
        params: AccountParams,
        response: { 200: Type.Array(RuleSchema), ...errors },
      },
    },
    async (req) => (await rules.createDefaults(ctxOf(req))).map(presentRule),
  );

  app.get(
    `${A}/lead_score_rules/:id`,
    {
      schema: {
        tags,
        security,
        summary: 'One rule',
        params: RuleParams,
        response: { 200: RuleSchema, ...errors },
      },
    },
    async (req) => presentRule(await rules.get(ctxOf(req), req.params.id)),
  );

  app.patch(
    `${A}/lead_score_rules/:id`,
    {
      config: { adminOnly: true, bodyKey: 'lead_score_rule' },
      schema: {
        tags,
        security,
        summary: 'Change a rule (takes effect on later events; recalculate to apply it to the past)',
        params: RuleParams,
        body: RuleUpdateBody,
        response: { 200: RuleSchema, ...errors },
      },
    },
    async (req) => presentRule(await rules.update(ctxOf(req), req.params.id, req.body)),
  );

  app.delete(
    `${A}/lead_score_rules/:id`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'Delete a rule (its logs stay)',
        params: RuleParams,
        response: { 200: Type.Object({ id: Type.Integer(), deleted: Type.Boolean() }), ...errors },
      },
    },
    async (req) => {
      await rules.delete(ctxOf(req), req.params.id);
      return { id: req.params.id, deleted: true };
    },
  );
};
