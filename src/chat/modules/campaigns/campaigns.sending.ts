import { inSavepoint } from '../../../core/db/savepoint.js';
import { HttpError } from '../../../core/http/errors.js';
import type { JobDefinition } from '../../../core/jobs/jobs.js';
import type { AccountContext, ChatDeps, Trx } from '../../context.js';
import type { Conversation } from '../../db/schema.js';
import type { WidgetRefs } from '../../events.js';
import type { AgentRow } from '../agents/agents.repository.js';
import type { AgentsService } from '../agents/agents.service.js';
import type { ContactsService } from '../contacts/contacts.service.js';
import type { ConversationsService } from '../conversations/conversations.service.js';
import type { ConversationMessagesService } from '../messages/conversation-messages.service.js';
import type { UsersService } from '../users/users.service.js';
import * as recipients from './campaign-recipients.repository.js';
import {
  BATCH_JOB,
  START_JOB,
  enqueueBatch,
  enqueueLateStart,
  type BatchPayload,
  type StartPayload,
} from './campaigns.jobs.js';
import type { Campaign } from './campaigns.migration.js';
import { audienceLabels } from './campaigns.presenter.js';
import * as repo from './campaigns.repository.js';
import { renderCampaignMessage } from './campaigns.template.js';

export interface CampaignSendingServices {
  agents: AgentsService;
  users: UsersService;
  contacts: ContactsService;
  conversations: ConversationsService;
  conversationMessages: ConversationMessagesService;
}

export interface CampaignSendingOptions {
  /** At most this many recipients per batch, each batch one transaction (default 50). */
  batchSize?: number;
  /**
   * A batch takes no further recipient once it has worked this long (ms, default 100; at least one
   * recipient per batch): on SQLite a batch holds the database's one writer, so it stays short.
   */
  maxBatchMs?: number;
  /** Wait between two batches of a campaign (ms, default 500). */
  batchIntervalMs?: number;
}

/** Who the messages come from: the sender agent acting with administrator powers, or no one. */
interface Sender {
  ctx: AccountContext;
  agent: AgentRow | null;
}

/** A recipient with the contact fields the message's variables read. */
interface Recipient {
  id: number;
  contact_id: number;
  name: string;
  email: string | null;
  phone_number: string | null;
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Sends campaigns: one-off campaigns in batches driven by jobs, ongoing campaigns when a widget
 * triggers them. Every message is a real outgoing message in a new conversation, created through
 * the conversation and message services, so it records `conversation_created` and `message_created`
 * like any other (webhooks, API inbox webhooks, agent bots, automation, realtime).
 *
 * Never twice: the start is a conditional update on the campaign (one claimer), each batch takes
 * the campaign's current chain number (one batch at a time, stale jobs find nothing), and each
 * recipient goes from pending to sent in the transaction that creates its message.
 */
export class CampaignSending {
  private readonly batchSize: number;
  private readonly maxBatchMs: number;
  private readonly batchIntervalMs: number;

  constructor(
    private readonly deps: ChatDeps,
    private readonly services: CampaignSendingServices,
    options: CampaignSendingOptions = {},
  ) {
    this.batchSize = Math.max(1, options.batchSize ?? 50);
    this.maxBatchMs = Math.max(0, options.maxBatchMs ?? 100);
    this.batchIntervalMs = Math.max(0, options.batchIntervalMs ?? 500);
  }

  /** The jobs of this module: the start at `scheduled_at`, and the batches. */
  jobs(): JobDefinition[] {
    return [
      { name: START_JOB, handle: (job, context) => this.start(job.payload as StartPayload, context.now) },
      { name: BATCH_JOB, handle: (job, context) => this.sendBatch(job.payload as BatchPayload, context.now) },
    ];
  }

  /**
   * START_JOB: takes the audience (the contacts carrying an audience label now) as pending
   * recipients and queues the first batch, in one transaction. A campaign that was disabled,
   * deleted, already started or unscheduled is left alone; one moved to a later time while this job
   * was running gets a job at that time.
   */
  async start(payload: StartPayload, now: number): Promise<void> {
    const { accountId, campaignId } = payload;
    await this.deps.db.transaction().execute(async (trx) => {
      const campaign = await repo.claimStart(trx, accountId, campaignId, now);
      if (!campaign) {
        const current = await repo.findCampaignById(trx, accountId, campaignId);
        const later = current?.scheduled_at != null && current.scheduled_at > now;
        if (current && later && current.sending_started_at === null && current.enabled === 1)
          await enqueueLateStart(trx, payload, current.scheduled_at!, now);
        return;
      }
      const count = await recipients.insertAudience(trx, accountId, campaign.id, audienceLabels(campaign), now);
      await repo.updateCampaign(trx, accountId, campaign.id, { audience_count: count });
      await enqueueBatch(trx, { ...payload, batch: campaign.send_batch }, now, now);
    });
  }

  /**
   * BATCH_JOB: sends up to `batchSize` pending recipients (or what `maxBatchMs` allows) in one
   * transaction, then queues the next batch `batchIntervalMs` later, or marks the campaign completed
   * when none is left. A disabled campaign stops here (its recipients stay pending; enabling it
   * again resumes).
   */
  async sendBatch(payload: BatchPayload, now: number): Promise<void> {
    const { accountId, campaignId } = payload;
    await this.deps.db.transaction().execute(async (trx) => {
      const campaign = await repo.claimBatch(trx, accountId, campaignId, payload.batch, now);
      if (!campaign) return;
      const batch = await recipients.pendingRecipients(trx, accountId, campaign.id, this.batchSize);
      if (batch.length > 0) {
        const sender = await this.senderOf(trx, campaign);
        const started = performance.now();
        for (const recipient of batch) {
          await this.sendOne(trx, campaign, sender, recipient, now);
          if (performance.now() - started >= this.maxBatchMs) break;
        }
      }
      if (await recipients.hasPending(trx, accountId, campaign.id)) {
        const next = { ...payload, batch: campaign.send_batch };
        await enqueueBatch(trx, next, now + this.batchIntervalMs, now);
      } else {
        await repo.markCompleted(trx, accountId, campaign.id, now);
      }
    });
  }

  /**
   * The widget's `campaign.triggered` (recorded as `webwidget_triggered` with the campaign's number
   * in event_info): the contact gets a conversation with the campaign's message, once per campaign.
   * Unknown, disabled, one-off or other inboxes' campaigns are ignored.
   */
  async trigger(trx: Trx, accountId: number, refs: WidgetRefs, campaignNumber: number): Promise<void> {
    const campaign = await repo.findCampaign(trx, accountId, campaignNumber);
    if (
      !campaign ||
      campaign.campaign_type !== 'ongoing' ||
      campaign.enabled !== 1 ||
      campaign.campaign_status !== 'active' ||
      campaign.inbox_id !== refs.inboxId
    )
      return;
    const sender = await this.senderOf(trx, campaign);
    const contact = await this.services.contacts.get(sender.ctx, refs.contactId, trx).catch((err) => {
      if (err instanceof HttpError && err.statusCode === 404) return null; // deleted since the event
      throw err;
    });
    if (!contact) return;
    const now = Date.now();
    const id = await recipients.insertPending(trx, { accountId, campaignId: campaign.id, contactId: contact.id, now });
    if (id === undefined) return; // this contact already had it
    const recipient = {
      id,
      contact_id: contact.id,
      name: contact.name,
      email: contact.email,
      phone_number: contact.phone_number,
    };
    await this.sendOne(trx, campaign, sender, recipient, now, refs.contactInboxId);
  }

  /**
   * One recipient under its own savepoint: pending -> sent together with its conversation and
   * message. A message the services refuse (an empty text once the variables are replaced...)
   * leaves nothing behind but the recipient marked failed; any other error fails the whole batch,
   * which its job retries.
   */
  private async sendOne(
    trx: Trx,
    campaign: Campaign,
    sender: Sender,
    recipient: Recipient,
    now: number,
    contactInboxId?: number,
  ): Promise<void> {
    const accountId = campaign.account_id;
    const sent = await inSavepoint(trx, 'campaign_recipient', async () => {
      if (await recipients.claimRecipient(trx, accountId, recipient.id, now)) {
        const conversation = await this.deliver(trx, campaign, sender, recipient, contactInboxId);
        await recipients.setRecipientConversation(trx, accountId, recipient.id, conversation.id);
      }
    });
    if (sent.ok) return;
    if (!(sent.error instanceof HttpError)) throw sent.error;
    await recipients.markRecipientFailed(trx, accountId, recipient.id, describe(sent.error), now);
  }

  /** A new conversation of the contact in the campaign's inbox, opened by the rendered message. */
  private async deliver(
    trx: Trx,
    campaign: Campaign,
    sender: Sender,
    recipient: Recipient,
    contactInboxId?: number,
  ): Promise<Conversation> {
    const { contacts, conversations, conversationMessages } = this.services;
    const accountId = campaign.account_id;
    const contactInbox =
      contactInboxId ?? (await contacts.ensureContactInbox(trx, accountId, recipient.contact_id, campaign.inbox_id)).id;
    const conversation = await conversations.createInTransaction(trx, sender.ctx, {
      inboxId: campaign.inbox_id,
      contactId: recipient.contact_id,
      contactInboxId: contactInbox,
      additionalAttributes: { campaign_id: campaign.display_id },
    });
    const content = renderCampaignMessage(campaign.message, {
      contact: recipient,
      agent: sender.agent ? { name: sender.agent.display_name || sender.agent.name, email: sender.agent.email } : null,
    });
    const created = await conversationMessages.createInTransaction(trx, sender.ctx, conversation, {
      content,
      message_type: 'outgoing',
    });
    return created.conversation;
  }

  /**
   * The campaign's sender while they are an agent of the account, acting with administrator powers
   * (a campaign reaches every contact of its inbox). Without one the messages have no sender and act
   * as the account's automation (no user; rules do not react to them).
   */
  private async senderOf(trx: Trx, campaign: Campaign): Promise<Sender> {
    const accountId = campaign.account_id;
    if (campaign.sender_id !== null) {
      const [agent] = await this.services.agents.byIds(trx, accountId, [campaign.sender_id]);
      const user = agent ? await this.services.users.find(trx, agent.id) : undefined;
      if (agent && user) {
        return { ctx: { accountId, actor: { type: 'user', user }, role: 'administrator', userId: user.id }, agent };
      }
    }
    return {
      ctx: { accountId, actor: { type: 'automation', ruleId: 0 }, role: 'administrator', userId: null },
      agent: null,
    };
  }
}
