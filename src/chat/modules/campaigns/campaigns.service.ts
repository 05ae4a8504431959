import { forbidden, invalidField, notFound } from '../../../core/http/errors.js';
import { instantOf, type Timestamp } from '../../../core/http/timestamps.js';
import { isAdmin, type AccountContext, type ChatDeps, type Q, type Trx } from '../../context.js';
import type { AgentsService } from '../agents/agents.service.js';
import { normalizeLabels } from '../labels/labels.names.js';
import type { InboxesService } from '../inboxes/inboxes.service.js';
import type { LabelsService } from '../labels/labels.service.js';
import { CHANNEL_TYPES } from '../inboxes/inboxes.schema.js';
import * as recipients from './campaign-recipients.repository.js';
import { armStartJob, enqueueBatch } from './campaigns.jobs.js';
import type { Campaign } from './campaigns.migration.js';
import { audienceLabels, type CampaignMetrics, type CampaignView } from './campaigns.presenter.js';
import * as repo from './campaigns.repository.js';
import type { CampaignCreateBody, CampaignUpdateBody } from './campaigns.schema.js';

export interface CampaignsServices {
  inboxes: InboxesService;
  agents: AgentsService;
  labels: LabelsService;
}

/** `scheduled_at` as epoch ms (the one timestamp reading: core/http/timestamps.ts); null clears it. */
function parseScheduledAt(value: Timestamp | null | undefined): number | null | undefined {
  if (value === undefined || value === null) return value;
  return instantOf(value, 'scheduled_at');
}

type AudienceItems = CampaignCreateBody['audience'];

/** Checks the audience's shape before anything is read: every item a Label. */
function checkAudience(items: AudienceItems): void {
  items?.forEach((item, i) => {
    if (item.type.toLowerCase() !== 'label') throw invalidField(`audience.${i}.type`, 'must be Label');
  });
}

/** Waiting for its time: a one-off campaign that is enabled, scheduled, and not started. */
const awaitsStart = (c: Campaign) =>
  c.campaign_type === 'one_off' &&
  c.enabled === 1 &&
  c.campaign_status === 'active' &&
  c.sending_started_at === null &&
  c.scheduled_at !== null;

const bool = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);

/**
 * Campaigns of an account, managed by its administrators (decisions §3), numbered per account. A
 * one-off campaign's start job is queued in the transaction that schedules it (create, reschedule,
 * enable); sending itself is CampaignSending's.
 */
export class CampaignsService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly services: CampaignsServices,
  ) {}

  async list(ctx: AccountContext): Promise<CampaignView[]> {
    this.assertAdmin(ctx);
    return this.views(this.deps.db, ctx.accountId, await repo.listCampaigns(this.deps.db, ctx.accountId), ctx);
  }

  async get(ctx: AccountContext, displayId: number): Promise<{ view: CampaignView; metrics: CampaignMetrics }> {
    this.assertAdmin(ctx);
    const db = this.deps.db;
    const campaign = await this.find(db, ctx.accountId, displayId);
    const [[view], counts] = await Promise.all([
      this.views(db, ctx.accountId, [campaign], ctx),
      recipients.recipientCounts(db, ctx.accountId, campaign.id),
    ]);
    const total = counts.pending + counts.sent + counts.failed;
    const audienceCount =
      campaign.audience_count ??
      (campaign.campaign_type === 'one_off'
        ? await recipients.countAudience(db, ctx.accountId, audienceLabels(campaign))
        : total);
    return { view, metrics: { sent: counts.sent, failed: counts.failed, audience_count: audienceCount } };
  }

  async create(ctx: AccountContext, body: CampaignCreateBody): Promise<CampaignView> {
    this.assertAdmin(ctx);
    const scheduledAt = parseScheduledAt(body.scheduled_at) ?? null;
    checkAudience(body.audience);
    const campaign = await this.deps.db.transaction().execute(async (trx) => {
      const audience = (await this.audienceOf(trx, ctx, body.audience)) ?? [];
      const inbox = await this.services.inboxes.get(ctx, body.inbox_id, trx);
      if (body.campaign_type === 'ongoing' && inbox.channel_type !== CHANNEL_TYPES.web_widget)
        throw invalidField('inbox_id', 'must be a web widget inbox for an ongoing campaign');
      const senderId = body.sender_id ?? ctx.userId;
      if (body.sender_id !== undefined) await this.checkSender(trx, ctx.accountId, body.sender_id);
      const now = Date.now();
      const created = await repo.insertCampaign(trx, {
        account_id: ctx.accountId,
        display_id: await repo.nextCampaignDisplayId(trx, ctx.accountId),
        title: this.cleanTitle(body.title),
        description: body.description ?? null,
        message: this.cleanMessage(body.message),
        campaign_type: body.campaign_type,
        inbox_id: inbox.id,
        sender_id: senderId,
        enabled: bool(body.enabled) ?? 1,
        campaign_status: 'active',
        scheduled_at: scheduledAt,
        audience: JSON.stringify(audience),
        trigger_rules: JSON.stringify(body.trigger_rules ?? {}),
        trigger_only_during_business_hours: bool(body.trigger_only_during_business_hours) ?? 0,
        sending_started_at: null,
        completed_at: null,
        send_batch: 0,
        audience_count: null,
        created_at: now,
        updated_at: now,
      });
      await this.schedule(trx, created, now);
      return created;
    });
    return (await this.views(this.deps.db, ctx.accountId, [campaign], ctx))[0];
  }

  /**
   * The labels of an audience, normalized and sorted: a number names a label of the account's
   * catalogue (404 when it has none with that id, as any id in a body), text is the label itself.
   */
  private async audienceOf(trx: Trx, ctx: AccountContext, items: AudienceItems): Promise<string[] | undefined> {
    if (items === undefined) return undefined;
    const titles: string[] = [];
    for (const item of items)
      titles.push(typeof item.id === 'number' ? (await this.services.labels.get(ctx, item.id, trx)).title : item.id);
    return normalizeLabels(titles, 'audience');
  }

  /**
   * Title, description, enabled and the trigger settings change at any time. What a one-off
   * campaign sends (message, audience, time, sender) is fixed once sending has started (422 when a
   * different value is sent). Rescheduling moves the start job; enabling a campaign that was
   * paused while sending resumes it with a new batch.
   */
  async update(ctx: AccountContext, displayId: number, body: CampaignUpdateBody): Promise<CampaignView> {
    this.assertAdmin(ctx);
    const scheduledAt = parseScheduledAt(body.scheduled_at);
    checkAudience(body.audience);
    const campaign = await this.deps.db.transaction().execute(async (trx) => {
      const before = await this.find(trx, ctx.accountId, displayId);
      const audience = await this.audienceOf(trx, ctx, body.audience);
      const started = before.sending_started_at !== null || before.campaign_status === 'completed';
      const fixed: [string, boolean][] = [
        ['message', body.message !== undefined && body.message !== before.message],
        ['scheduled_at', scheduledAt !== undefined && scheduledAt !== before.scheduled_at],
        ['audience', audience !== undefined && JSON.stringify(audience) !== JSON.stringify(audienceLabels(before))],
        ['sender_id', body.sender_id !== undefined && body.sender_id !== before.sender_id],
      ];
      const changed = fixed.find(([, differs]) => differs);
      if (started && before.campaign_type === 'one_off' && changed)
        throw invalidField(changed[0], 'cannot change once the campaign has started sending');
      if (body.sender_id !== undefined && body.sender_id !== before.sender_id)
        await this.checkSender(trx, ctx.accountId, body.sender_id);
      const now = Date.now();
      const updated = await repo.updateCampaign(trx, ctx.accountId, before.id, {
        title: body.title === undefined ? undefined : this.cleanTitle(body.title),
        description: body.description,
        message: body.message === undefined ? undefined : this.cleanMessage(body.message),
        enabled: bool(body.enabled),
        scheduled_at: scheduledAt,
        audience: audience === undefined ? undefined : JSON.stringify(audience),
        sender_id: body.sender_id,
        trigger_rules: body.trigger_rules === undefined ? undefined : JSON.stringify(body.trigger_rules),
        trigger_only_during_business_hours: bool(body.trigger_only_during_business_hours),
        updated_at: now,
      });
      await this.schedule(trx, updated, now);
      const resumed = before.enabled === 0 && updated.enabled === 1;
      if (resumed && updated.sending_started_at !== null && updated.campaign_status === 'active') {
        const batch = await repo.bumpBatch(trx, ctx.accountId, updated.id, now);
        await enqueueBatch(trx, { accountId: ctx.accountId, campaignId: updated.id, batch }, now, now);
      }
      return updated;
    });
    return (await this.views(this.deps.db, ctx.accountId, [campaign], ctx))[0];
  }

  /** Deletes the campaign and its recipients; its queued jobs find nothing when they run. */
  async delete(ctx: AccountContext, displayId: number): Promise<void> {
    this.assertAdmin(ctx);
    await this.deps.db.transaction().execute(async (trx) => {
      const campaign = await this.find(trx, ctx.accountId, displayId);
      await repo.deleteCampaign(trx, ctx.accountId, campaign.id);
    });
  }

  /** The public interface: the enabled, active ongoing campaigns of a widget's inbox. */
  async listPublic(inboxIdentifier: string): Promise<CampaignView[]> {
    const db = this.deps.db;
    const inbox = await this.services.inboxes.findPublic(inboxIdentifier, db);
    return this.views(db, inbox.account_id, await repo.listActiveOngoing(db, inbox.account_id, inbox.id));
  }

  /** A one-off campaign waiting for its time has its start job due then (queued, moved, or armed again). */
  private async schedule(trx: Trx, campaign: Campaign, now: number): Promise<void> {
    if (!awaitsStart(campaign)) return;
    await armStartJob(trx, { accountId: campaign.account_id, campaignId: campaign.id }, campaign.scheduled_at!, now);
  }

  /**
   * What responses show beside the rows, a few queries for the whole page. With `ctx` (the account's
   * API, not the public list) the audience's labels get their catalogue ids (read outside any transaction).
   */
  private async views(q: Q, accountId: number, campaigns: Campaign[], ctx?: AccountContext): Promise<CampaignView[]> {
    const senderIds = campaigns.flatMap((c) => (c.sender_id === null ? [] : [c.sender_id]));
    const [inboxes, senders, labels] = await Promise.all([
      repo.inboxesOf(
        q,
        accountId,
        campaigns.map((c) => c.inbox_id),
      ),
      senderIds.length > 0 ? this.services.agents.byIds(q, accountId, senderIds) : Promise.resolve([]),
      ctx ? this.services.labels.list(ctx) : Promise.resolve([]),
    ]);
    const labelIds = new Map(labels.map((l) => [l.title, l.id]));
    const inboxById = new Map(inboxes.map((i) => [i.id, i]));
    const senderById = new Map(senders.map((s) => [s.id, s]));
    return campaigns.map((campaign) => ({
      campaign,
      inbox: inboxById.get(campaign.inbox_id) ?? { id: campaign.inbox_id, name: '', channel_type: '' },
      sender: campaign.sender_id === null ? null : (senderById.get(campaign.sender_id) ?? null),
      labelIds,
    }));
  }

  private async checkSender(q: Q, accountId: number, userId: number): Promise<void> {
    const [agent] = await this.services.agents.byIds(q, accountId, [userId]);
    if (!agent) throw invalidField('sender_id', 'is not an agent of this account');
  }

  private cleanTitle(title: string): string {
    const trimmed = title.trim();
    if (trimmed === '') throw invalidField('title', "can't be blank");
    return trimmed;
  }

  private cleanMessage(message: string): string {
    if (message.trim() === '') throw invalidField('message', "can't be blank");
    return message;
  }

  private async find(q: Q, accountId: number, displayId: number): Promise<Campaign> {
    const campaign = await repo.findCampaign(q, accountId, displayId);
    if (!campaign) throw notFound('Campaign');
    return campaign;
  }

  /** Administrators alone manage campaigns (the routes say so too). */
  private assertAdmin(ctx: AccountContext): void {
    if (!isAdmin(ctx)) throw forbidden('Only administrators of this account may manage campaigns');
  }
}
