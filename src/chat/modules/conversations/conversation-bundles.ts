import type { Q } from '../../context.js';
import type { Conversation } from '../../db/schema.js';
import type { AgentsService } from '../agents/agents.service.js';
import type { MessagesService } from '../messages/messages.service.js';
import * as labelsRepo from './conversation-labels.repository.js';
import * as relations from './conversation-relations.repository.js';
import type { ConversationBundle, ConversationMeta, ConversationSla } from './conversations.presenter.js';

const ids = (values: (number | null)[]) => [...new Set(values.filter((v): v is number => v !== null))];

/** Loads the applied SLAs of a page of conversations (the SLA module provides it). */
export interface ConversationSlaSource {
  /** By conversation id (internal), the conversations of `conversationIds` that have an applied SLA. */
  appliedTo(q: Q, accountId: number, conversationIds: readonly number[]): Promise<Map<number, ConversationSla>>;
}

/**
 * Loads what conversation objects show for a whole page: contacts, assignees, teams, inboxes,
 * contact inboxes, labels, the last messages with the unread counts, and the applied SLAs. One
 * query per kind, never one per conversation.
 */
export class ConversationBundles {
  private sla?: ConversationSlaSource;

  constructor(
    private readonly agents: AgentsService,
    private readonly messages: MessagesService,
  ) {}

  useSla(source: ConversationSlaSource): void {
    this.sla = source;
  }

  async load(
    q: Q,
    accountId: number,
    rows: Conversation[],
    options: { messages?: boolean } = {},
  ): Promise<ConversationBundle[]> {
    if (rows.length === 0) return [];
    const withMessages = options.messages ?? true;
    const [contacts, agents, teams, inboxes, contactInboxes, labels, stats, slas] = await Promise.all([
      relations.contactsByIds(q, accountId, ids(rows.map((c) => c.contact_id))),
      this.agents.byIds(q, accountId, ids(rows.map((c) => c.assignee_id))),
      relations.teamsByIds(q, accountId, ids(rows.map((c) => c.team_id))),
      relations.inboxesByIds(q, accountId, ids(rows.map((c) => c.inbox_id))),
      relations.contactInboxesByIds(q, accountId, ids(rows.map((c) => c.contact_inbox_id))),
      labelsRepo.labelsOfMany(
        q,
        accountId,
        rows.map((c) => c.id),
      ),
      withMessages ? this.messages.statsFor(q, accountId, rows) : Promise.resolve(null),
      this.sla
        ? this.sla.appliedTo(
            q,
            accountId,
            rows.map((c) => c.id),
          )
        : Promise.resolve(null),
    ]);
    const byId = <T extends { id: number }>(list: T[]) => new Map(list.map((x) => [x.id, x]));
    const contactById = byId(contacts);
    const agentById = byId(agents);
    const teamById = byId(teams);
    const inboxById = byId(inboxes);
    const contactInboxById = byId(contactInboxes);
    return rows.map((conversation) => ({
      conversation,
      contact: contactById.get(conversation.contact_id) ?? null,
      inbox: inboxById.get(conversation.inbox_id) ?? null,
      contactInbox:
        conversation.contact_inbox_id === null ? null : (contactInboxById.get(conversation.contact_inbox_id) ?? null),
      assignee: conversation.assignee_id === null ? null : (agentById.get(conversation.assignee_id) ?? null),
      team: conversation.team_id === null ? null : (teamById.get(conversation.team_id) ?? null),
      labels: labels.get(conversation.id) ?? [],
      stats: stats ? (stats.get(conversation.id) ?? { last: null, lastNonActivity: null, unreadCount: 0 }) : null,
      sla: slas?.get(conversation.id) ?? null,
    }));
  }

  async loadOne(q: Q, conversation: Conversation, options: { messages?: boolean } = {}): Promise<ConversationBundle> {
    const [bundle] = await this.load(q, conversation.account_id, [conversation], options);
    return bundle;
  }

  /**
   * The part of the bundle a conversation's message page shows beside its messages (Chatwoot's
   * `meta`): the contact, the assignee and the labels, without the inbox, SLA and message stats.
   */
  async meta(q: Q, conversation: Conversation): Promise<ConversationMeta> {
    const accountId = conversation.account_id;
    const [contacts, agents, labels] = await Promise.all([
      relations.contactsByIds(q, accountId, [conversation.contact_id]),
      this.agents.byIds(q, accountId, ids([conversation.assignee_id])),
      labelsRepo.labelsOfMany(q, accountId, [conversation.id]),
    ]);
    return {
      conversation,
      contact: contacts[0] ?? null,
      assignee: agents[0] ?? null,
      labels: labels.get(conversation.id) ?? [],
    };
  }
}
