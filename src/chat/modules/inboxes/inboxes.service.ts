import { invalidField, notFound } from '../../../core/http/errors.js';
import { randomToken } from '../../../core/security/tokens.js';
import { listDeliveries } from '../../../core/webhooks/deliveries.js';
import type { DestinationGuard } from '../../../core/webhooks/destination-guard.js';
import { checkOutboundAddress, outboundGuard } from '../../../core/webhooks/outbound-policy.js';
import { parseJsonObject } from '../../../core/time.js';
import { isAdmin, type AccountContext, type ChatDeps, type Q } from '../../context.js';
import type { Inbox } from '../../db/schema.js';
import type { AttachmentFilesService } from '../attachments-files/attachments-files.service.js';
import * as repo from './inboxes.repository.js';
import {
  CHANNEL_REQUIRED_FIELD,
  CHANNEL_TYPES,
  type ChannelKind,
  type InboxCreateBody,
  type InboxUpdateBody,
  normalizeWorkingHours,
  parseWorkingHours,
  type WorkingDay,
  type WorkingHour,
} from './inboxes.schema.js';
import { t } from '../../../core/i18n/catalogue.js';

/** The subscriber type of an API inbox's webhook deliveries (its channel secret signs them: background.ts). */
export const API_INBOX_SUBSCRIBER = 'api_inbox';

/** Channels a contact reaches through the public interface (Chatwoot: API and web widget). */
const PUBLIC_CHANNEL_TYPES = new Set<string>([CHANNEL_TYPES.api, CHANNEL_TYPES.web_widget]);

/** The seven days of working hours after a request's entries (inboxes.working_hours, added by the SLA module's migration 0112). */
const workingHours = (entries: readonly WorkingHour[], stored: string | null) =>
  normalizeWorkingHours(entries, parseWorkingHours(stored));

const bool = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);

/**
 * `hmac_mandatory` from the top level or from `channel` (Chatwoot's web-widget clients); both given
 * and different is a 422. Returns the channel fields to store, without `hmac_mandatory` and without
 * `hmac_token` (the key is generated, never set by a client).
 */
function splitHmac<C extends { hmac_mandatory?: boolean }>(body: { hmac_mandatory?: boolean }, channel: C) {
  // Neither key is ever set by a client: the hmac_token and an API inbox's webhook secret are generated.
  const {
    hmac_mandatory: inChannel,
    hmac_token: _ignored,
    secret: _generated,
    ...rest
  } = channel as C & { hmac_token?: unknown; secret?: unknown };
  if (body.hmac_mandatory !== undefined && inChannel !== undefined && body.hmac_mandatory !== inChannel) {
    throw invalidField('channel.hmac_mandatory', 'differs from hmac_mandatory');
  }
  return { mandatory: bool(body.hmac_mandatory ?? inChannel), channel: rest };
}

function checkUrl(field: string, value: unknown) {
  if (value === undefined || value === null || value === '') return;
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw invalidField(field, 'must be a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidField(field, 'must be an http(s) URL');
}

/** Inboxes: one per channel; agents see only the inboxes they are members of. */
export class InboxesService {
  private readonly guard: DestinationGuard;

  constructor(
    private readonly deps: ChatDeps,
    private readonly attachmentFiles: AttachmentFilesService,
  ) {
    this.guard = outboundGuard(deps.config);
  }

  /** A link of the channel: an http(s) URL; the webhook_url, which the server calls, also an allowed destination. */
  private checkChannelUrls(channel: { website_url?: unknown; webhook_url?: unknown }) {
    checkUrl('channel.website_url', channel.website_url);
    checkUrl('channel.webhook_url', channel.webhook_url);
    if (typeof channel.webhook_url === 'string' && channel.webhook_url !== '')
      checkOutboundAddress(this.guard, 'channel.webhook_url', channel.webhook_url);
  }

  /**
   * The inbox ids the actor may see, or `null` for all of them (administrators, the account's own
   * bots, automation). A contact (public interface) sees only the inbox it came through; a global
   * bot (platform interface) only the inboxes of the account it is connected to.
   */
  async visibleInboxIds(ctx: AccountContext, q: Q = this.deps.db): Promise<number[] | null> {
    if (ctx.role === 'contact') return ctx.actor.type === 'contact' ? [ctx.actor.inboxId] : [];
    if (ctx.actor.type === 'bot' && ctx.actor.bot.account_id === null)
      return repo.botInboxIds(q, ctx.accountId, ctx.actor.bot.id);
    if (isAdmin(ctx) || ctx.userId === null) return null;
    return repo.memberInboxIds(q, ctx.accountId, ctx.userId);
  }

  /** An inbox of the account that the actor may see; 404 otherwise. */
  async get(ctx: AccountContext, id: number, q: Q = this.deps.db): Promise<Inbox> {
    const inbox = await repo.findInbox(q, ctx.accountId, id);
    if (!inbox) throw notFound('Inbox');
    const visible = await this.visibleInboxIds(ctx, q);
    if (visible && !visible.includes(inbox.id)) throw notFound('Inbox');
    return inbox;
  }

  /**
   * The business calendar of an inbox of the account, for background work (no actor): its working
   * days in its time zone, or null when it does not use working hours (every hour counts) or no
   * longer exists.
   */
  async workingHoursOf(q: Q, accountId: number, id: number): Promise<{ days: WorkingDay[]; timeZone: string } | null> {
    const inbox = await repo.findInbox(q, accountId, id);
    if (!inbox || inbox.working_hours_enabled !== 1) return null;
    return { days: parseWorkingHours(inbox.working_hours), timeZone: inbox.timezone };
  }

  /**
   * The inbox a public identifier addresses (the public interface): only API and web-widget inboxes
   * have one there; any other identifier is not found (inboxes_identifier_uidx).
   */
  async findPublic(identifier: string, q: Q = this.deps.db): Promise<Inbox> {
    const inbox = await repo.findInboxByIdentifier(q, identifier);
    if (!inbox || !PUBLIC_CHANNEL_TYPES.has(inbox.channel_type)) throw notFound('Inbox');
    return inbox;
  }

  async list(ctx: AccountContext): Promise<Inbox[]> {
    const visible = await this.visibleInboxIds(ctx);
    return repo.listInboxes(this.deps.db, ctx.accountId, visible ?? undefined);
  }

  async create(ctx: AccountContext, body: InboxCreateBody): Promise<Inbox> {
    const { type: rawType, ...input } = body.channel;
    const type = rawType as ChannelKind;
    const { mandatory, channel } = splitHmac(body, input);
    const required = CHANNEL_REQUIRED_FIELD[type];
    if (required) {
      const value = (channel as Record<string, unknown>)[required];
      if (typeof value !== 'string' || value.trim() === '')
        throw invalidField(`channel.${required}`, t('is required for %{type} channels', { type }));
    }
    this.checkChannelUrls(channel);
    const now = Date.now();
    // An API inbox signs the deliveries to its webhook_url with its own secret (Chatwoot's channel secret).
    const secret = type === 'api' ? { secret: randomToken(24) } : {};
    return repo.insertInbox(this.deps.db, {
      account_id: ctx.accountId,
      name: body.name,
      channel_type: CHANNEL_TYPES[type],
      channel: JSON.stringify({ type, ...channel, ...secret }),
      identifier: randomToken(24),
      hmac_token: randomToken(24),
      hmac_mandatory: mandatory ?? 0,
      phone_number: channel.phone_number ?? null,
      email: channel.email?.toLowerCase() ?? null,
      greeting_enabled: bool(body.greeting_enabled) ?? 0,
      greeting_message: body.greeting_message ?? null,
      enable_auto_assignment: bool(body.enable_auto_assignment) ?? 1,
      out_of_office_message: body.out_of_office_message ?? null,
      working_hours_enabled: bool(body.working_hours_enabled) ?? 0,
      timezone: body.timezone ?? 'UTC',
      working_hours: body.working_hours ? JSON.stringify(workingHours(body.working_hours, null)) : null,
      agent_bot_id: null,
      created_at: now,
      updated_at: now,
    });
  }

  async update(ctx: AccountContext, id: number, body: InboxUpdateBody): Promise<Inbox> {
    return this.deps.db.transaction().execute(async (trx) => {
      const inbox = await repo.findInbox(trx, ctx.accountId, id);
      if (!inbox) throw notFound('Inbox');
      let channelJson: string | undefined;
      let phone: string | null | undefined;
      let email: string | null | undefined;
      const { mandatory, channel } = splitHmac(body, body.channel ?? {});
      if (body.channel) {
        this.checkChannelUrls(channel);
        const current = parseJsonObject(inbox.channel);
        channelJson = JSON.stringify({ ...current, ...channel, type: current.type });
        if (channel.phone_number !== undefined) phone = channel.phone_number;
        if (channel.email !== undefined) email = channel.email.toLowerCase();
      }
      const updated = await repo.updateInbox(trx, ctx.accountId, id, {
        name: body.name,
        greeting_enabled: bool(body.greeting_enabled),
        greeting_message: body.greeting_message,
        enable_auto_assignment: bool(body.enable_auto_assignment),
        out_of_office_message: body.out_of_office_message,
        working_hours_enabled: bool(body.working_hours_enabled),
        timezone: body.timezone,
        working_hours: body.working_hours
          ? JSON.stringify(workingHours(body.working_hours, inbox.working_hours))
          : undefined,
        hmac_mandatory: mandatory,
        channel: channelJson,
        phone_number: phone,
        email,
        updated_at: Date.now(),
      });
      return updated ?? inbox;
    });
  }

  /**
   * Where an API inbox delivers its events (its `channel.webhook_url`), read in the caller's
   * transaction; null for other channels and API inboxes without one.
   */
  async apiWebhookUrl(q: Q, accountId: number, inboxId: number): Promise<string | null> {
    const inbox = await repo.findInbox(q, accountId, inboxId);
    if (!inbox || inbox.channel_type !== CHANNEL_TYPES.api) return null;
    const url = parseJsonObject(inbox.channel).webhook_url;
    return typeof url === 'string' && url.trim() !== '' ? url.trim() : null;
  }

  /** The recent deliveries to an API inbox's webhook_url, newest first (the delivery log; administrators). */
  async webhookDeliveries(ctx: AccountContext, id: number, page: { limit: number; offset: number }) {
    const inbox = await this.get(ctx, id);
    return listDeliveries(this.deps.db, ctx.accountId, API_INBOX_SUBSCRIBER, inbox.id, page);
  }

  /** The secret that signs an API inbox's webhook deliveries (the delivery worker's lookup), or null once it is gone. */
  async webhookSecretOf(inboxId: number): Promise<string | null> {
    const inbox = await repo.findInboxById(this.deps.db, inboxId);
    if (!inbox || inbox.channel_type !== CHANNEL_TYPES.api) return null;
    const secret = parseJsonObject(inbox.channel).secret;
    return typeof secret === 'string' && secret !== '' ? secret : null;
  }

  /**
   * Deletes the inbox; its conversations, messages, attachments and memberships go with it
   * (foreign keys), and the attachment files once the transaction has committed.
   */
  async delete(ctx: AccountContext, id: number): Promise<void> {
    const storageKeys = await this.deps.db.transaction().execute(async (trx) => {
      const inbox = await repo.findInbox(trx, ctx.accountId, id);
      if (!inbox) throw notFound('Inbox');
      const keys = await this.attachmentFiles.keysOfInbox(trx, ctx.accountId, id);
      await repo.deleteInbox(trx, ctx.accountId, id);
      return keys;
    });
    await this.attachmentFiles.removeFiles(storageKeys);
  }
}
