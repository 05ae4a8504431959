import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import { InboxParams } from '../../public/public.schema.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentCampaign, presentCampaignDetail, presentPublicCampaign } from './campaigns.presenter.js';
import {
  CampaignCreateBody,
  CampaignDetailSchema,
  CampaignListSchema,
  CampaignSchema,
  CampaignUpdateBody,
  PublicCampaignSchema,
} from './campaigns.schema.js';

const A = '/api/v1/accounts/:accountId';
const tags = ['campaigns'];
const security = [{ userApiKey: [] }];
const errors = { 401: ChatErrorBody, 403: ChatErrorBody, 404: ChatErrorBody, 422: ChatErrorBody };
const AccountParams = Type.Object({ accountId: IdParam });
const CampaignParams = Type.Object({ accountId: IdParam, id: IdParam });
/** Administrators alone manage campaigns (decisions §3). */
const admin = { adminOnly: true, bodyKey: 'campaign' };

export const campaignsRoutes: ChatRoutes = async (app, { services }) => {
  const svc = services.campaigns;

  app.get(
    `${A}/campaigns`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: "List the account's campaigns",
        params: AccountParams,
        response: { 200: CampaignListSchema, ...errors },
      },
    },
    async (req) => ({ data: (await svc.list(ctxOf(req))).map(presentCampaign) }),
  );

  app.post(
    `${A}/campaigns`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Create a campaign: one_off (sent at scheduled_at to the audience) or ongoing (web widget)',
        params: AccountParams,
        body: CampaignCreateBody,
        response: { 200: CampaignSchema, ...errors },
      },
    },
    async (req) => presentCampaign(await svc.create(ctxOf(req), req.body)),
  );

  app.get(
    `${A}/campaigns/:id`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Show a campaign with its send metrics (sent, failed, audience_count)',
        params: CampaignParams,
        response: { 200: CampaignDetailSchema, ...errors },
      },
    },
    async (req) => {
      const { view, metrics } = await svc.get(ctxOf(req), req.params.id);
      return presentCampaignDetail(view, metrics);
    },
  );

  app.patch(
    `${A}/campaigns/:id`,
    {
      config: admin,
      schema: {
        tags,
        security,
        summary: 'Update a campaign (rescheduling moves its sending; enabling resumes a paused one)',
        params: CampaignParams,
        body: CampaignUpdateBody,
        response: { 200: CampaignSchema, ...errors },
      },
    },
    async (req) => presentCampaign(await svc.update(ctxOf(req), req.params.id, req.body)),
  );

  app.delete(
    `${A}/campaigns/:id`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'Delete a campaign',
        params: CampaignParams,
        response: { 200: Type.Object({}), ...errors },
      },
    },
    async (req) => {
      await svc.delete(ctxOf(req), req.params.id);
      return {};
    },
  );

  // The public interface: what a web widget shows (no credential; the inbox identifier is the address).
  app.get(
    '/public/api/v1/inboxes/:inbox_identifier/campaigns',
    {
      config: { auth: 'none' as const },
      schema: {
        tags: ['public'],
        security: [],
        summary: "The inbox's active ongoing campaigns, for the widget to trigger",
        params: InboxParams,
        response: { 200: Type.Array(PublicCampaignSchema), 404: ChatErrorBody, 422: ChatErrorBody },
      },
    },
    async (req) => (await svc.listPublic(req.params.inbox_identifier)).map(presentPublicCampaign),
  );
};
