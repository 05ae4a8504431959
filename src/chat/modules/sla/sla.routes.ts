import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentPolicy } from './sla.presenter.js';
import {
  AppliedListQuery,
  AppliedMetricsQuery,
  AppliedPageSchema,
  DownloadQuery,
  MetricsSchema,
  SlaPolicyBody,
  SlaPolicyPatch,
  SlaPolicySchema,
} from './sla.schema.js';

const A = '/api/v1/accounts/:accountId';
const tags = ['sla'];
const security = [{ userApiKey: [] }];
const errors = { 401: ChatErrorBody, 402: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };
const AccountParams = Type.Object({ accountId: IdParam });
const PolicyParams = Type.Object({ accountId: IdParam, id: IdParam });
const admin = { adminOnly: true, bodyKey: 'sla_policy' };

/** SLA endpoints (Enterprise plan: 402 plan_required otherwise). Policies are read by any member, the rest by administrators. */
export const slaRoutes: ChatRoutes = async (app, { services }) => {
  const policies = services.slaPolicies;
  const reads = services.appliedSlaReads;

  app.get(
    `${A}/sla_policies`,
    {
      schema: {
        tags,
        security,
        summary: "The account's SLA policies",
        params: AccountParams,
        response: { 200: Type.Object({ data: Type.Array(SlaPolicySchema) }), ...errors },
      },
    },
    async (req) => ({ data: (await policies.list(ctxOf(req))).map(presentPolicy) }),
  );

  app.post(
    `${A}/sla_policies`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Create an SLA policy (thresholds in seconds)',
        params: AccountParams,
        body: SlaPolicyBody,
        response: { 200: SlaPolicySchema, ...errors },
      },
    },
    async (req) => presentPolicy(await policies.create(ctxOf(req), req.body)),
  );

  app.get(
    `${A}/sla_policies/:id`,
    {
      schema: {
        tags,
        security,
        summary: 'One SLA policy',
        params: PolicyParams,
        response: { 200: SlaPolicySchema, ...errors },
      },
    },
    async (req) => presentPolicy(await policies.get(ctxOf(req), req.params.id)),
  );

  app.patch(
    `${A}/sla_policies/:id`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: "Update an SLA policy (its applied SLAs' running deadlines follow new thresholds)",
        params: PolicyParams,
        body: SlaPolicyPatch,
        response: { 200: SlaPolicySchema, ...errors },
      },
    },
    async (req) => presentPolicy(await policies.update(ctxOf(req), req.params.id, req.body)),
  );

  app.delete(
    `${A}/sla_policies/:id`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Delete an SLA policy and its applied SLAs',
        params: PolicyParams,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await policies.delete(ctxOf(req), req.params.id);
      return {};
    },
  );

  app.get(
    `${A}/applied_slas`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Applied SLAs with their conversation and breaches, newest first, 25 a page',
        params: AccountParams,
        querystring: AppliedListQuery,
        response: { 200: AppliedPageSchema, ...errors },
      },
    },
    async (req) => reads.list(ctxOf(req), req.query),
  );

  app.get(
    `${A}/applied_slas/metrics`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Totals, hit rate, average times and breaches by type of the applied SLAs',
        params: AccountParams,
        querystring: AppliedMetricsQuery,
        response: { 200: MetricsSchema, ...errors },
      },
    },
    async (req) => ({ data: await reads.metrics(ctxOf(req), req.query) }),
  );

  app.get(
    `${A}/applied_slas/download`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'The applied SLAs as CSV (start_date, end_date: YYYY-MM-DD, UTC, both included)',
        params: AccountParams,
        querystring: DownloadQuery,
        response: { 200: Type.String({ description: 'text/csv' }), ...errors },
      },
    },
    async (req, reply) => {
      const csv = await reads.download(ctxOf(req), req.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="applied_slas.csv"')
        .send(csv);
    },
  );
};
