import { Type } from '@sinclair/typebox';
import { IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { A, AccountParams, errors, security } from '../lead-scoring/lead-score-rules.routes.js';
import { requestLanguage } from '../../../core/http/error-handler.js';
import {
  presentAudit,
  presentAutomation,
  presentRun,
  presentStats,
  presentValidation,
} from './pipeline-automations.presenter.js';
import {
  AllExecutionsQuery,
  AuditLogSchema,
  AutomationCreateBody,
  AutomationSchema,
  AutomationUpdateBody,
  CardBody,
  DashboardSchema,
  DryRunSchema,
  ExecutionSchema,
  StatsSchema,
  ValidationSchema,
} from './pipeline-automations.schema.js';

const tags = ['pipeline automations'];
const P = `${A}/pipeline/automations`;
const IdParams = Type.Object({ accountId: IdParam, id: IdParam });
const Meta = Type.Object({ total: Type.Integer(), page: Type.Integer(), per_page: Type.Integer() });
const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});
const data = <T extends Parameters<typeof Type.Object>[0][string]>(schema: T) => Type.Object({ data: schema });
const admin = { adminOnly: true, bodyKey: 'pipeline_automation' };

/**
 * `{A}/pipeline/automations` (docs/spec/decisions.md §9): every member reads automations, their history and
 * the dashboard; administrators create, change, delete, duplicate, validate, dry-run and execute.
 */
export const pipelineAutomationsRoutes: ChatRoutes = async (app, { services }) => {
  const automations = services.pipelineAutomations;

  app.get(
    P,
    {
      schema: {
        tags,
        security,
        summary: 'The pipeline automations, oldest first',
        params: AccountParams,
        response: { 200: data(Type.Array(AutomationSchema)), ...errors },
      },
    },
    async (req) => ({ data: (await automations.list(ctxOf(req))).map((a) => presentAutomation(a)) }),
  );

  app.post(
    P,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Create an automation (422 with every validation error when it is invalid)',
        params: AccountParams,
        body: AutomationCreateBody,
        response: { 200: data(AutomationSchema), ...errors },
      },
    },
    async (req) => ({
      data: presentAutomation(await automations.create(ctxOf(req), req.body), { withSecret: true }),
    }),
  );

  app.get(
    `${P}/dashboard`,
    {
      schema: {
        tags,
        security,
        summary: 'Counts, executions today, success rate and recent failures of all automations',
        params: AccountParams,
        response: { 200: data(DashboardSchema), ...errors },
      },
    },
    async (req) => {
      const d = await automations.dashboard(ctxOf(req));
      return {
        data: {
          ...d,
          recent_failures: d.recent_failures.map((r) => ({
            automation_id: Number(r.automation_id),
            name: r.name,
            ...presentRun(r),
          })),
        },
      };
    },
  );

  app.get(
    `${P}/all_executions`,
    {
      schema: {
        tags,
        security,
        summary:
          'The runs of every automation, newest first (automation_id, status, since/until or from/to; 25 a page)',
        params: AccountParams,
        querystring: AllExecutionsQuery,
        response: {
          200: Type.Object({
            data: Type.Array(Type.Object({ automation_id: Type.Integer(), ...ExecutionSchema.properties })),
            meta: Meta,
          }),
          ...errors,
        },
      },
    },
    async (req) => {
      const result = await automations.allExecutions(ctxOf(req), req.query);
      return {
        data: result.rows.map((r) => ({ automation_id: Number(r.automation_id), ...presentRun(r) })),
        meta: { total: result.total, page: result.page, per_page: result.perPage },
      };
    },
  );

  app.get(
    `${P}/:id`,
    {
      schema: {
        tags,
        security,
        summary: 'One automation',
        params: IdParams,
        response: { 200: data(AutomationSchema), ...errors },
      },
    },
    async (req) => ({ data: presentAutomation(await automations.get(ctxOf(req), req.params.id)) }),
  );

  app.patch(
    `${P}/:id`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Change an automation (422 with every validation error when the result is invalid)',
        params: IdParams,
        body: AutomationUpdateBody,
        response: { 200: data(AutomationSchema), ...errors },
      },
    },
    async (req) => ({ data: presentAutomation(await automations.update(ctxOf(req), req.params.id, req.body)) }),
  );

  app.delete(
    `${P}/:id`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Delete an automation (its audit log stays)',
        params: IdParams,
        response: { 200: data(Type.Object({ id: Type.Integer(), deleted: Type.Boolean() })), ...errors },
      },
    },
    async (req) => {
      await automations.delete(ctxOf(req), req.params.id);
      return { data: { id: req.params.id, deleted: true } };
    },
  );

  app.post(
    `${P}/:id/duplicate`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'An inactive copy named "<name> (copy)"',
        params: IdParams,
        response: { 200: data(AutomationSchema), ...errors },
      },
    },
    async (req) => ({
      data: presentAutomation(await automations.duplicate(ctxOf(req), req.params.id), { withSecret: true }),
    }),
  );

  app.post(
    `${P}/:id/execute`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Run it now on one card (card_id required): answers the recorded execution',
        params: IdParams,
        body: CardBody,
        response: { 200: data(ExecutionSchema), ...errors },
      },
    },
    async (req) => ({ data: presentRun(await automations.execute(ctxOf(req), req.params.id, req.body.card_id)) }),
  );

  app.post(
    `${P}/:id/dry_run`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'What a run on one card would do (card_id required); changes nothing',
        params: IdParams,
        body: CardBody,
        response: { 200: data(DryRunSchema), ...errors },
      },
    },
    async (req) => ({ data: await automations.dryRun(ctxOf(req), req.params.id, req.body.card_id) }),
  );

  app.post(
    `${P}/:id/validate`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary:
          'Validate the saved configuration (no body needed); with a body, the configuration an update would make',
        params: IdParams,
        body: AutomationUpdateBody,
        response: { 200: data(ValidationSchema), ...errors },
      },
    },
    async (req) => ({
      data: presentValidation(await automations.validate(ctxOf(req), req.params.id, req.body), requestLanguage(req)),
    }),
  );

  app.post(
    `${P}/validate`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Validate a configuration that is not saved yet, as create would (the same answer as {id}/validate)',
        params: AccountParams,
        body: AutomationUpdateBody,
        response: { 200: data(ValidationSchema), ...errors },
      },
    },
    async (req) => ({
      data: presentValidation(await automations.validateNew(ctxOf(req), req.body), requestLanguage(req)),
    }),
  );

  app.get(
    `${P}/:id/executions`,
    {
      schema: {
        tags,
        security,
        summary: 'Execution history, newest first',
        params: IdParams,
        querystring: PageQuery,
        response: { 200: Type.Object({ data: Type.Array(ExecutionSchema), meta: Meta }), ...errors },
      },
    },
    async (req) => {
      const page = req.query.page ?? 1;
      const perPage = req.query.per_page ?? 25;
      const result = await automations.executions(ctxOf(req), req.params.id, page, perPage);
      return { data: result.rows.map(presentRun), meta: { total: result.total, page, per_page: perPage } };
    },
  );

  app.get(
    `${P}/:id/stats`,
    {
      schema: {
        tags,
        security,
        summary: 'Metrics of one automation',
        params: IdParams,
        response: { 200: data(StatsSchema), ...errors },
      },
    },
    async (req) => ({ data: presentStats(await automations.stats(ctxOf(req), req.params.id)) }),
  );

  app.get(
    `${P}/:id/audit_logs`,
    {
      schema: {
        tags,
        security,
        summary: 'Who created, changed, toggled, duplicated, executed or deleted it (kept after deletion)',
        params: IdParams,
        response: { 200: data(Type.Array(AuditLogSchema)), ...errors },
      },
    },
    async (req) => ({ data: (await automations.auditLogs(ctxOf(req), req.params.id)).map(presentAudit) }),
  );
};
