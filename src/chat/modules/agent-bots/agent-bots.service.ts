import { notFound } from '../../../core/http/errors.js';
import { randomToken } from '../../../core/security/tokens.js';
import type { DestinationGuard } from '../../../core/webhooks/destination-guard.js';
import { checkOutboundAddress, outboundGuard } from '../../../core/webhooks/outbound-policy.js';
import { accessTokenOf, issueAccessToken } from '../../auth/access-tokens.js';
import type { AccountContext, ChatDeps, Q } from '../../context.js';
import type { Updateable } from 'kysely';
import type { AgentBot, AgentBotsTable } from '../../db/schema.js';
import type { InboxesService } from '../inboxes/inboxes.service.js';
import * as repo from './agent-bots.repository.js';
import type { AgentBotBody, AgentBotPatch } from './agent-bots.schema.js';

/**
 * Agent bots: an account's own bots ({A}/agent_bots) and global bots (platform interface). A bot
 * gets an access token at creation; it acts with it on the routes marked `allowBot`.
 */
export class AgentBotsService {
  private readonly guard: DestinationGuard;

  constructor(
    private readonly deps: ChatDeps,
    private readonly inboxes: InboxesService,
  ) {
    this.guard = outboundGuard(deps.config);
  }

  /** Where the bot's events go: the server calls it, so it must be an allowed destination. */
  private outgoingUrl(url: string | null): string | null {
    return url === null || url === '' ? url : checkOutboundAddress(this.guard, 'outgoing_url', url);
  }

  /** Creates a bot of the account, or a global bot when `accountId` is null. */
  create(accountId: number | null, body: AgentBotBody, onCreated?: (q: Q, bot: AgentBot) => Promise<void>) {
    return this.deps.db.transaction().execute(async (trx) => {
      const now = Date.now();
      const bot = await repo.insertBot(trx, {
        account_id: accountId,
        name: body.name,
        description: body.description ?? null,
        outgoing_url: this.outgoingUrl(body.outgoing_url),
        secret: randomToken(32),
        created_at: now,
        updated_at: now,
      });
      await issueAccessToken(trx, 'AgentBot', bot.id);
      if (onCreated) await onCreated(trx, bot);
      return bot;
    });
  }

  async get(accountId: number | null, id: number, q: Q = this.deps.db): Promise<AgentBot> {
    const bot = await repo.findBot(q, accountId, id);
    if (!bot) throw notFound('Agent bot');
    return bot;
  }

  list(ctx: AccountContext) {
    return repo.listBots(this.deps.db, ctx.accountId);
  }

  listByIds(ids: number[]) {
    return repo.listBotsByIds(this.deps.db, ids);
  }

  update(accountId: number | null, id: number, body: AgentBotPatch) {
    return this.deps.db.transaction().execute(async (trx) => {
      const bot = await this.get(accountId, id, trx);
      // Only the editable fields, picked one by one: the account, the id, the secret and the
      // timestamps of a bot are never taken from a request.
      const values: Updateable<AgentBotsTable> = { updated_at: Date.now() };
      if (body.name !== undefined) values.name = body.name;
      if (body.description !== undefined) values.description = body.description;
      if (body.outgoing_url !== undefined) values.outgoing_url = this.outgoingUrl(body.outgoing_url);
      return (await repo.updateBot(trx, bot.id, values)) ?? bot;
    });
  }

  /** Deletes the bot, its token, and its inbox connections. */
  async delete(accountId: number | null, id: number): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const bot = await this.get(accountId, id, trx);
      await repo.deleteBot(trx, bot.id);
    });
  }

  /** The signing secret for deliveries to the bot, or null when the bot no longer exists. */
  async secretOf(id: number): Promise<string | null> {
    return (await repo.secretOf(this.deps.db, id)) ?? null;
  }

  accessToken(id: number) {
    return accessTokenOf(this.deps.db, 'AgentBot', id);
  }

  /** Connects a bot (the account's own or a global one) to an inbox, or disconnects with null. */
  async setInboxBot(ctx: AccountContext, inboxId: number, botId: number | null): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      await this.inboxes.get(ctx, inboxId, trx);
      if (botId !== null && !(await repo.findUsableBot(trx, ctx.accountId, botId))) throw notFound('Agent bot');
      await repo.setInboxBot(trx, ctx.accountId, inboxId, botId);
    });
  }
}
