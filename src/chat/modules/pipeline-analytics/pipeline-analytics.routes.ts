import { Type, type TSchema } from '@sinclair/typebox';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import {
  AnalyticsQuery,
  ConversionSchema,
  DashboardSchema,
  ReasonsSchema,
  TeamSchema,
  VelocitySchema,
  WinRateSchema,
} from './pipeline-analytics.schema.js';

const A = '/api/v1/accounts/:accountId';
const tags = ['pipeline analytics'];
const security = [{ userApiKey: [] }];
const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };
const params = Type.Object({ accountId: IdParam });
const PERIOD =
  'start_date and end_date (ISO 8601 or a date; without an offset, UTC; default the last 30 days), pipeline_id, agent_ids';

const schema = (summary: string, data: TSchema) => ({
  tags,
  security,
  summary,
  description: `${summary}. Query: ${PERIOD}. A pipeline or an agent of another account is a 404.`,
  params,
  querystring: AnalyticsQuery,
  response: { 200: Type.Object({ data }), ...errors },
});

/**
 * NooviChat's pipeline analytics, at the paths and with the parameters its n8n node and MCP server
 * use (beyond the spec: decisions/0029). Every member of the account reads them.
 */
export const pipelineAnalyticsRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.pipelineAnalytics;
  const P = `${A}/pipeline/analytics`;

  app.get(
    `${P}/dashboard`,
    { schema: schema('Win rate, sales velocity, lead-score distribution and a summary per pipeline', DashboardSchema) },
    async (req) => ({ data: await svc.dashboard(ctxOf(req), req.query) }),
  );

  app.get(
    `${P}/win_rate`,
    { schema: schema('Win rate: won / (won + lost) of the deals closed in the period', WinRateSchema) },
    async (req) => ({ data: await svc.winRate(ctxOf(req), req.query) }),
  );

  app.get(
    `${P}/conversion_metrics`,
    {
      schema: schema(
        'Per stage: the cards that entered it in the period, and the share that later entered the next stage',
        ConversionSchema,
      ),
    },
    async (req) => ({ data: await svc.conversion(ctxOf(req), req.query) }),
  );

  app.get(
    `${P}/sales_velocity`,
    {
      schema: schema(
        'Sales velocity per currency: (open deals x average won value x win rate) / average days from creation to won',
        VelocitySchema,
      ),
    },
    async (req) => ({ data: await svc.velocity(ctxOf(req), req.query) }),
  );

  app.get(
    `${P}/team_pipeline`,
    {
      schema: schema(
        'Per owner (and the unassigned): open deals and their value per currency, deals won and lost in the period',
        TeamSchema,
      ),
    },
    async (req) => ({ data: await svc.team(ctxOf(req), req.query) }),
  );

  app.get(
    `${A}/pipeline/deal_status/common_reasons`,
    {
      schema: schema(
        'The lost_reason values of the deals lost in the period with their counts, most frequent first',
        ReasonsSchema,
      ),
    },
    async (req) => ({ data: await svc.lostReasons(ctxOf(req), req.query) }),
  );
};
