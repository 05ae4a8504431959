import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentReportingEvent } from './reports.presenter.js';
import {
  ChannelQuery,
  ChannelSchema,
  ConversationsReportQuery,
  ConversationsReportSchema,
  EventsPageSchema,
  EventsQuery,
  ReportingEventSchema,
  SeriesQuery,
  SeriesSchema,
  SummaryQuery,
  SummarySchema,
} from './reports.schema.js';

const V1 = '/api/v1/accounts/:accountId';
const V2 = '/api/v2/accounts/:accountId';
const tags = ['reports'];
const security = [{ userApiKey: [] }];
const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };
const AccountParams = Type.Object({ accountId: IdParam });
/** Reports are for administrators (docs/spec/decisions.md §10). */
const config = { adminOnly: true };

export const reportsRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.reports;

  app.get(
    `${V2}/reports`,
    {
      config,
      schema: {
        tags,
        security,
        summary: 'One metric over time: [{value, timestamp, count}] per day, week or month (since/until required)',
        params: AccountParams,
        querystring: SeriesQuery,
        response: { 200: SeriesSchema, ...errors },
      },
    },
    async (req) => svc.series(ctxOf(req), req.query),
  );

  app.get(
    `${V2}/reports/summary`,
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Counts and averages over since..until, with `previous` for the period before',
        params: AccountParams,
        querystring: SummaryQuery,
        response: { 200: SummarySchema, ...errors },
      },
    },
    async (req) => svc.summary(ctxOf(req), req.query),
  );

  app.get(
    `${V2}/reports/conversations`,
    {
      config,
      schema: {
        tags,
        security,
        summary: 'The open queue now: open, unattended, unassigned, pending (per agent, inbox, team or label)',
        params: AccountParams,
        querystring: ConversationsReportQuery,
        response: { 200: ConversationsReportSchema, ...errors },
      },
    },
    async (req) => svc.conversations(ctxOf(req), req.query),
  );

  app.get(
    `${V2}/summary_reports/channel`,
    {
      config,
      schema: {
        tags,
        security,
        summary: 'Conversations per channel type and status (created in since..until when given)',
        params: AccountParams,
        querystring: ChannelQuery,
        response: { 200: ChannelSchema, ...errors },
      },
    },
    async (req) => svc.channels(ctxOf(req), req.query),
  );

  app.get(
    `${V1}/conversations/:id/reporting_events`,
    {
      config,
      schema: {
        tags,
        security,
        summary: "A conversation's reporting events, oldest first",
        params: Type.Object({ accountId: IdParam, id: IdParam }),
        response: { 200: Type.Array(ReportingEventSchema), ...errors },
      },
    },
    async (req) => (await svc.ofConversation(ctxOf(req), req.params.id)).map(presentReportingEvent),
  );

  app.get(
    `${V1}/reporting_events`,
    {
      config,
      schema: {
        tags,
        security,
        summary: "The account's reporting events, newest first, 25 a page",
        params: AccountParams,
        querystring: EventsQuery,
        response: { 200: EventsPageSchema, ...errors },
      },
    },
    async (req) => {
      const page = await svc.list(ctxOf(req), req.query);
      return {
        meta: { count: page.total, current_page: page.page, total_pages: page.pages },
        payload: page.rows.map(presentReportingEvent),
      };
    },
  );
};
