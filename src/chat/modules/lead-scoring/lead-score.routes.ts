import { Type } from '@sinclair/typebox';
import { IdParam, JsonObject } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { A, AccountParams, errors, security } from './lead-score-rules.routes.js';
import { presentBulkJob, presentLog } from './lead-score.presenter.js';
import {
  BulkJobSchema,
  CustomEventBody,
  CustomEventResult,
  DistributionSchema,
  LogSchema,
  LogsQuery,
  PipelineFilterQuery,
  RangeQuery,
  TopLeadsQuery,
  TrendsQuery,
} from './lead-score.schema.js';

const tags = ['lead scoring'];
const IdParams = Type.Object({ accountId: IdParam, id: IdParam });
const JobParams = Type.Object({ accountId: IdParam, job_id: IdParam });
const Meta = Type.Object({ total: Type.Integer(), page: Type.Integer(), per_page: Type.Integer() });
const R = `${A}/lead_score/reports`;
const admin = { adminOnly: true };

/**
 * Logs, custom events and reports. Every member reads logs, records custom events and sees the
 * board's distribution (`{A}/pipeline/lead_scores/distribution`); the reports under
 * `{A}/lead_score/reports` and bulk recalculation are for administrators (docs/spec/decisions.md §3).
 */
export const leadScoreRoutes: ChatRoutes = async (app, { services }) => {
  const scoring = services.leadScoring;
  const reports = services.leadScoreReports;

  app.get(
    `${A}/lead_score/logs`,
    {
      schema: {
        tags,
        security,
        summary: 'Score change history, newest first',
        params: AccountParams,
        querystring: LogsQuery,
        response: { 200: Type.Object({ data: Type.Array(LogSchema), meta: Meta }), ...errors },
      },
    },
    async (req) => {
      const page = await scoring.logs(ctxOf(req), req.query);
      return { data: page.rows.map(presentLog), meta: { total: page.total, page: page.page, per_page: page.perPage } };
    },
  );

  app.get(
    `${A}/lead_score/logs/:id`,
    {
      schema: {
        tags,
        security,
        summary: 'One score change',
        params: IdParams,
        response: { 200: Type.Object({ data: LogSchema }), ...errors },
      },
    },
    async (req) => ({ data: presentLog(await scoring.log(ctxOf(req), req.params.id)) }),
  );

  app.post(
    `${A}/lead_score/events`,
    {
      schema: {
        tags,
        security,
        summary: "A custom_event for one card (pipeline_card_id) or a contact's open cards (contact_id)",
        params: AccountParams,
        body: CustomEventBody,
        response: { 200: CustomEventResult, ...errors },
      },
    },
    async (req) => ({ data: await scoring.recordCustomEvent(ctxOf(req), req.body) }),
  );

  app.get(
    `${A}/pipeline/lead_scores/distribution`,
    {
      schema: {
        tags,
        security,
        summary: 'How open cards spread over the score bands, with average and median',
        params: AccountParams,
        querystring: PipelineFilterQuery,
        response: { 200: Type.Object({ data: DistributionSchema }), ...errors },
      },
    },
    async (req) => ({ data: await reports.distribution(ctxOf(req), req.query.pipeline_id) }),
  );

  app.get(
    `${R}/distribution`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'The score distribution (as the board shows it)',
        params: AccountParams,
        querystring: PipelineFilterQuery,
        response: { 200: Type.Object({ data: DistributionSchema }), ...errors },
      },
    },
    async (req) => ({ data: await reports.distribution(ctxOf(req), req.query.pipeline_id) }),
  );

  app.get(
    `${R}/dashboard`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Average score, cards scored, cards per band and the most applied rules',
        params: AccountParams,
        response: { 200: Type.Object({ data: JsonObject }), ...errors },
      },
    },
    async (req) => ({ data: await reports.dashboard(ctxOf(req)) }),
  );

  app.get(
    `${R}/trends`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary:
          'Average score and cards scored per day, week or month (since/until or from/to; the last 30 days by default)',
        params: AccountParams,
        querystring: TrendsQuery,
        response: {
          200: Type.Object({
            data: Type.Array(
              Type.Object({ period: Type.String(), average_score: Type.Number(), cards_scored: Type.Integer() }),
            ),
          }),
          ...errors,
        },
      },
    },
    async (req) => ({ data: await reports.trends(ctxOf(req), req.query) }),
  );

  app.get(
    `${R}/top_leads`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'The open cards with the highest scores (limit default 10, at most 100)',
        params: AccountParams,
        querystring: TopLeadsQuery,
        response: { 200: Type.Object({ data: Type.Array(JsonObject) }), ...errors },
      },
    },
    async (req) => ({ data: await reports.topLeads(ctxOf(req), req.query) }),
  );

  app.get(
    `${R}/category_changes`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Category changes per from -> to over a period (since/until or from/to; the last 30 days by default)',
        params: AccountParams,
        querystring: RangeQuery,
        response: { 200: Type.Object({ data: JsonObject }), ...errors },
      },
    },
    async (req) => ({ data: await reports.categoryChanges(ctxOf(req), req.query) }),
  );

  app.post(
    `${R}/bulk_recalculate`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Recalculate every card of the account in the background (202 with the job)',
        params: AccountParams,
        response: { 202: Type.Object({ data: BulkJobSchema }), ...errors },
      },
    },
    async (req, reply) => {
      const job = await scoring.bulkRecalculate(ctxOf(req));
      reply.code(202);
      return { data: presentBulkJob(job) };
    },
  );

  app.get(
    `${R}/bulk_recalculate/:job_id`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: "A bulk recalculation's progress (processed, total, status)",
        params: JobParams,
        response: { 200: Type.Object({ data: BulkJobSchema }), ...errors },
      },
    },
    async (req) => ({ data: presentBulkJob(await scoring.bulkJob(ctxOf(req), req.params.job_id)) }),
  );
};
