import { invalidField, notFound } from '../../../core/http/errors.js';
import { emitChatEvent } from '../../events.js';
import {
  assertStaff,
  eventOrigin,
  isAdmin,
  type AccountContext,
  type ChatDeps,
  type Q,
  type Trx,
} from '../../context.js';
import type { Conversation, ConversationStatus, ConversationUpdate, Message, Team } from '../../db/schema.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { AgentRow } from '../agents/agents.repository.js';
import type { AgentsService } from '../agents/agents.service.js';
import { normalizeLabelFilter } from '../labels/labels.names.js';
import type { ContactsService } from '../contacts/contacts.service.js';
import type { InboxesService } from '../inboxes/inboxes.service.js';
import type { MessagesService } from '../messages/messages.service.js';
import { ConversationBundles, type ConversationSlaSource } from './conversation-bundles.js';
import * as relations from './conversation-relations.repository.js';
import {
  conversationEventPayload,
  type ChangedAttributes,
  type ConversationEventName,
} from './conversations.events.js';
import type { CustomAttributeCriteria } from '../../filters/criteria.js';
import { asListFilter, compileConversationFilter } from './conversations.filter.js';
import { type FilterCriterion } from '../../filters/criteria.js';
import type { ConversationBundle, ConversationCounts } from './conversations.presenter.js';
import * as repo from './conversations.repository.js';
import type { ConversationListQuery, ConversationMetaQuery } from './conversations.schema.js';

export const CONVERSATIONS_PER_PAGE = 25;
/** How many of a contact's conversations {A}/contacts/:id/conversations shows (Chatwoot: 20). */
const CONTACT_CONVERSATIONS = 20;

/** The ids a conversation event carries for listeners. */
export const conversationRefs = (c: Conversation) => ({
  conversationId: c.id,
  displayId: c.display_id,
  inboxId: c.inbox_id,
  contactId: c.contact_id,
});

export interface ConversationPage {
  counts: ConversationCounts;
  bundles: ConversationBundle[];
}

export interface NewConversation {
  inboxId: number;
  contactId: number;
  contactInboxId: number;
  status?: 'open' | 'pending';
  assigneeId?: number | null;
  teamId?: number | null;
  additionalAttributes?: Record<string, unknown>;
  customAttributes?: Record<string, unknown>;
}

/** The conversation's SLA policy before and after applying one (null: none). */
export interface SlaChange {
  previous: number | null;
  current: number | null;
}

/** Applies SLA policies to conversations and shows them (the slaPolicies extension point, which the SLA module fills). */
export interface SlaPolicies extends ConversationSlaSource {
  /**
   * Applies the policy (null removes the applied one) in the caller's transaction: 402, 404 as the
   * SLA endpoints. Returns the policy before and after.
   */
  apply(trx: Trx, ctx: AccountContext, conversation: Conversation, policyId: number | null): Promise<SlaChange>;
  exists(q: Q, accountId: number, policyId: number): Promise<boolean>;
}

export interface ConversationServices {
  accounts: AccountsService;
  inboxes: InboxesService;
  agents: AgentsService;
  messages: MessagesService;
  contacts: ContactsService;
}

const NO_COUNTS: ConversationCounts = { mine: 0, unassigned: 0, assigned: 0, all: 0 };

/**
 * Conversations of an account: access (agents only in their inboxes), lists, counts and filters,
 * creation inside a caller's transaction, and the effects of messages on their conversation.
 * Changes requested through the API (update, status, priority, labels, assignment) are in
 * ConversationChangesService; both record their events through `emitEvent`.
 */
export class ConversationsService {
  readonly bundles: ConversationBundles;
  /** The filter's defined custom attribute keys (the custom attributes module sets it). */
  private customAttributes?: CustomAttributeCriteria;
  /** SLA policies (the SLA module sets it). */
  private slaPolicies?: SlaPolicies;

  constructor(
    private readonly deps: ChatDeps,
    readonly services: ConversationServices,
  ) {
    this.bundles = new ConversationBundles(services.agents, services.messages);
  }

  useCustomAttributes(source: CustomAttributeCriteria): void {
    this.customAttributes = source;
  }

  useSlaPolicies(source: SlaPolicies): void {
    this.slaPolicies = source;
    this.bundles.useSla(source);
  }

  /** PATCH `sla_policy_id` and the automation action `add_sla`: applies the policy, in the caller's transaction. */
  async applySla(
    trx: Trx,
    ctx: AccountContext,
    conversation: Conversation,
    policyId: number | null,
  ): Promise<SlaChange> {
    if (!this.slaPolicies) throw invalidField('sla_policy_id', 'SLA policies are not available');
    return this.slaPolicies.apply(trx, ctx, conversation, policyId);
  }

  slaPolicyExists(q: Q, accountId: number, policyId: number): Promise<boolean> {
    return this.slaPolicies ? this.slaPolicies.exists(q, accountId, policyId) : Promise.resolve(false);
  }

  /**
   * A conversation of the account in an inbox the actor may see, by display id; 404 otherwise.
   * A contact (public interface) sees only the conversations of its own contact inbox.
   */
  async get(ctx: AccountContext, displayId: number, q: Q = this.deps.db): Promise<Conversation> {
    const conversation = await repo.findByDisplayId(q, ctx.accountId, displayId);
    if (!conversation) throw notFound('Conversation');
    const visible = await this.services.inboxes.visibleInboxIds(ctx, q);
    if (visible && !visible.includes(conversation.inbox_id)) throw notFound('Conversation');
    if (ctx.role === 'contact') {
      const actor = ctx.actor.type === 'contact' ? ctx.actor : null;
      if (
        !actor ||
        conversation.contact_id !== actor.contactId ||
        conversation.contact_inbox_id !== actor.contactInboxId
      ) {
        throw notFound('Conversation');
      }
    }
    return conversation;
  }

  /**
   * The conversations of the acting contact's contact inbox (public interface), newest first, 25
   * per page (conversations_contact_inbox_idx). Other actors use `list`.
   */
  async listOfContact(ctx: AccountContext, page: number, q: Q = this.deps.db): Promise<Conversation[]> {
    if (ctx.actor.type !== 'contact') throw notFound('Conversation');
    return repo.listByContactInbox(q, ctx.accountId, ctx.actor.contactInboxId, {
      limit: CONVERSATIONS_PER_PAGE,
      offset: (page - 1) * CONVERSATIONS_PER_PAGE,
    });
  }

  /** The contact has read the conversation (public interface): contact_last_seen_at becomes now. */
  async markSeenByContact(q: Q, ctx: AccountContext, conversation: Conversation): Promise<Conversation> {
    if (ctx.actor.type !== 'contact' || conversation.contact_id !== ctx.actor.contactId) throw notFound('Conversation');
    return repo.updateConversation(q, ctx.accountId, conversation.id, { contact_last_seen_at: Date.now() });
  }

  /**
   * GET {A}/contacts/:id/conversations: the contact's latest 20 conversations in the inboxes the
   * actor sees, newest first (Chatwoot). 404 for a contact of another account.
   */
  async listForContact(ctx: AccountContext, contactId: number): Promise<ConversationBundle[]> {
    assertStaff(ctx);
    await this.services.contacts.get(ctx, contactId);
    const inboxIds = await this.services.inboxes.visibleInboxIds(ctx);
    if (inboxIds && inboxIds.length === 0) return [];
    const rows = await repo.listByContact(this.deps.db, ctx.accountId, contactId, inboxIds, CONTACT_CONVERSATIONS);
    return this.bundles.load(this.deps.db, ctx.accountId, rows);
  }

  /**
   * Moves the conversations of `fromContactId` to `toContactId`, in the caller's transaction
   * (contact merge); returns the ids of the conversations moved.
   */
  reassignContact(trx: Trx, accountId: number, fromContactId: number, toContactId: number): Promise<number[]> {
    return repo.reassignContact(trx, accountId, fromContactId, toContactId);
  }

  async show(ctx: AccountContext, displayId: number): Promise<ConversationBundle> {
    return this.bundles.loadOne(this.deps.db, await this.get(ctx, displayId));
  }

  /** 25 per page by last activity; counts honour every filter but `assignee_type`. */
  async list(ctx: AccountContext, query: ConversationListQuery): Promise<ConversationPage> {
    const assignee = query.assignee_type ?? 'all';
    return this.page(ctx, this.listFilter(query), assignee === 'me' ? { userId: ctx.userId } : assignee, query.page);
  }

  async meta(ctx: AccountContext, query: ConversationMetaQuery): Promise<ConversationCounts> {
    const scope = await this.scope(ctx);
    if (!scope) return NO_COUNTS;
    return repo.countConversations(this.deps.db, scope, this.listFilter(query), ctx.userId);
  }

  /** POST {A}/conversations/filter: whitelisted criteria (conversations.filter.ts), any status. */
  async filter(ctx: AccountContext, criteria: FilterCriterion[], page: number): Promise<ConversationPage> {
    const extraAttribute = await this.customAttributes?.criteriaFor(ctx.accountId, 'conversations', criteria);
    const { accountId } = ctx;
    const condition = compileConversationFilter(criteria, { accountId, dialect: this.deps.dialect, extraAttribute });
    return this.page(ctx, asListFilter(criteria) ?? { condition }, 'all', page);
  }

  /**
   * Inserts a conversation with the next display number, inside the caller's transaction, and
   * records `conversation_created`. Inbox and contact inbox are already checked by the caller.
   */
  async createInTransaction(trx: Trx, ctx: AccountContext, input: NewConversation): Promise<Conversation> {
    if (input.assigneeId != null) await this.checkAssignee(trx, ctx, input.assigneeId, input.inboxId);
    if (input.teamId != null) await this.checkTeam(trx, ctx.accountId, input.teamId);
    const displayId = await this.services.accounts.nextConversationDisplayId(trx, ctx.accountId);
    const now = Date.now();
    const conversation = await repo.insertConversation(trx, {
      account_id: ctx.accountId,
      display_id: displayId,
      uuid: crypto.randomUUID(),
      inbox_id: input.inboxId,
      contact_id: input.contactId,
      contact_inbox_id: input.contactInboxId,
      assignee_id: input.assigneeId ?? null,
      team_id: input.teamId ?? null,
      status: input.status ?? 'open',
      priority: null,
      snoozed_until: null,
      additional_attributes: JSON.stringify(input.additionalAttributes ?? {}),
      custom_attributes: JSON.stringify(input.customAttributes ?? {}),
      last_activity_at: now,
      first_reply_created_at: null,
      waiting_since: null,
      agent_last_seen_at: null,
      assignee_last_seen_at: null,
      contact_last_seen_at: null,
      created_at: now,
      updated_at: now,
    });
    await this.emitEvent(trx, 'conversation_created', conversation, undefined, ctx);
    return conversation;
  }

  /**
   * What a new message does to its conversation: last activity; an incoming message starts the
   * wait (waiting_since), marks the contact active and reopens a resolved or snoozed conversation
   * (unless muted); the first public reply of an agent or bot sets first_reply_created_at and an
   * agent or bot reply ends the wait.
   */
  async recordMessageActivity(
    trx: Trx,
    ctx: AccountContext,
    conversation: Conversation,
    message: Message,
  ): Promise<Conversation> {
    const at = message.created_at;
    const values: ConversationUpdate = { last_activity_at: at, updated_at: at };
    if (message.message_type === 0) {
      if (conversation.waiting_since === null) values.waiting_since = at;
      await this.services.contacts.touchActivity(trx, ctx.accountId, conversation.contact_id, at);
      if ((conversation.status === 'resolved' || conversation.status === 'snoozed') && conversation.muted !== 1) {
        values.status = 'open';
        values.snoozed_until = null;
      }
    } else if (
      message.message_type === 1 &&
      message.private === 0 &&
      (message.sender_type === 'User' || message.sender_type === 'AgentBot')
    ) {
      if (conversation.first_reply_created_at === null) values.first_reply_created_at = at;
      values.waiting_since = null;
    }
    const updated = await repo.updateConversation(trx, ctx.accountId, conversation.id, values);
    if (updated.status !== conversation.status) await this.emitStatusChanged(trx, conversation.status, updated, ctx);
    return updated;
  }

  /** Records `conversation_status_changed` with the status change. */
  async emitStatusChanged(
    trx: Trx,
    previous: ConversationStatus,
    updated: Conversation,
    ctx?: AccountContext,
  ): Promise<void> {
    await this.emitEvent(
      trx,
      'conversation_status_changed',
      updated,
      [{ status: { previous_value: previous, current_value: updated.status } }],
      ctx,
    );
  }

  /**
   * Records a conversation event with the full conversation object, in the caller's transaction.
   * `ctx` (who caused it) sets the event's origin ('automation' for rule actions; see eventOrigin).
   */
  async emitEvent(
    trx: Trx,
    name: ConversationEventName,
    conversation: Conversation,
    changed?: ChangedAttributes,
    ctx?: AccountContext,
  ): Promise<void> {
    const bundle = await this.bundles.loadOne(trx, conversation);
    await emitChatEvent(trx, {
      accountId: conversation.account_id,
      name,
      refs: conversationRefs(conversation),
      snapshot: conversationEventPayload(name, bundle, changed),
      origin: ctx ? eventOrigin(ctx) : null,
    });
  }

  /** The assignee must be an agent of the account and, unless an administrator, of the inbox (422). */
  async checkAssignee(q: Q, ctx: AccountContext, userId: number, inboxId: number): Promise<AgentRow> {
    const [agent] = await this.services.agents.byIds(q, ctx.accountId, [userId]);
    if (!agent) throw invalidField('assignee_id', 'is not an agent of this account');
    if (agent.role !== 'administrator') {
      // The inboxes that user sees, asked as that user.
      const visible = await this.services.inboxes.visibleInboxIds({ ...ctx, role: agent.role, userId: agent.id }, q);
      if (visible && !visible.includes(inboxId))
        throw invalidField('assignee_id', "is not a member of the conversation's inbox");
    }
    return agent;
  }

  async checkTeam(q: Q, accountId: number, teamId: number): Promise<Team> {
    const [team] = await relations.teamsByIds(q, accountId, [teamId]);
    if (!team) throw invalidField('team_id', 'is not a team of this account');
    return team;
  }

  /** The actor's conversation scope, or null when they may see none (an agent without inboxes). */
  private async scope(ctx: AccountContext): Promise<repo.ConversationScope | null> {
    assertStaff(ctx); // contacts list only their own conversations (listOfContact)
    const inboxIds = isAdmin(ctx) ? null : await this.services.inboxes.visibleInboxIds(ctx);
    if (inboxIds && inboxIds.length === 0) return null;
    return { accountId: ctx.accountId, inboxIds };
  }

  private listFilter(query: ConversationMetaQuery): repo.ConversationListFilter {
    const term = query.q?.trim();
    const status = query.status ?? 'open';
    return {
      status: status === 'all' ? undefined : status,
      inboxId: query.inbox_id,
      teamId: query.team_id,
      labels: normalizeLabelFilter(query.labels),
      search: term ? { term, operator: this.deps.dialect === 'postgres' ? 'ilike' : 'like' } : undefined,
    };
  }

  private async page(
    ctx: AccountContext,
    filter: repo.ConversationListFilter,
    assignee: repo.AssigneeScope,
    page: number,
  ): Promise<ConversationPage> {
    const scope = await this.scope(ctx);
    if (!scope) return { counts: NO_COUNTS, bundles: [] };
    const db = this.deps.db;
    const [rows, counts] = await Promise.all([
      repo.listConversations(db, scope, filter, assignee, {
        limit: CONVERSATIONS_PER_PAGE,
        offset: (page - 1) * CONVERSATIONS_PER_PAGE,
      }),
      repo.countConversations(db, scope, filter, ctx.userId),
    ]);
    return { counts, bundles: await this.bundles.load(db, ctx.accountId, rows) };
  }
}
