import { sql, type Insertable, type SqlBool, type Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { Conversation, ConversationsTable, ConversationStatus } from '../../db/schema.js';
import type { ConversationCondition } from './conversations.filter.js';
import { conversationsTaggedWith } from './conversation-labels.repository.js';

export async function insertConversation(q: Q, values: Insertable<ConversationsTable>): Promise<Conversation> {
  return q.insertInto('conversations').values(values).returningAll().executeTakeFirstOrThrow();
}

/** A conversation by its per-account number (conversations_display_uidx). */
export async function findByDisplayId(q: Q, accountId: number, displayId: number) {
  return q
    .selectFrom('conversations')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('display_id', '=', displayId)
    .executeTakeFirst();
}

/** The conversations of one contact inbox, newest first (conversations_contact_inbox_idx). */
export async function listByContactInbox(
  q: Q,
  accountId: number,
  contactInboxId: number,
  page: { limit: number; offset: number },
) {
  return q
    .selectFrom('conversations')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('contact_inbox_id', '=', contactInboxId)
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function updateConversation(q: Q, accountId: number, id: number, values: Updateable<ConversationsTable>) {
  return q
    .updateTable('conversations')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Which conversations a list may show: the account, and for agents only their inboxes (non-empty). */
export interface ConversationScope {
  accountId: number;
  inboxIds: number[] | null;
}

export interface ConversationListFilter {
  /** Undefined: every status. */
  status?: ConversationStatus;
  inboxId?: number;
  teamId?: number;
  /** Any of these labels (normalized, non-empty). */
  labels?: string[];
  /** Case-insensitive substring of message content, contact name or e-mail (or the display id). */
  search?: { term: string; operator: 'like' | 'ilike' };
  /** Criteria of the filter endpoint (conversations.filter.ts). */
  condition?: ConversationCondition;
}

export type AssigneeScope = 'all' | 'unassigned' | 'assigned' | { userId: number | null };

const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The filtered set, account first: every filter is served by an index leading with account_id
 * (status, inbox, team, assignee, activity); labels by taggings_account_label_idx; the search by
 * the conversation's own messages (messages_conversation_idx) and the account's contacts.
 */
function filtered(q: Q, scope: ConversationScope, filter: ConversationListFilter) {
  const accountId = scope.accountId;
  let query = q.selectFrom('conversations').where('conversations.account_id', '=', accountId);
  if (scope.inboxIds) query = query.where('conversations.inbox_id', 'in', scope.inboxIds);
  if (filter.status) query = query.where('conversations.status', '=', filter.status);
  if (filter.inboxId !== undefined) query = query.where('conversations.inbox_id', '=', filter.inboxId);
  if (filter.teamId !== undefined) query = query.where('conversations.team_id', '=', filter.teamId);
  if (filter.labels && filter.labels.length > 0) {
    query = query.where('conversations.id', 'in', conversationsTaggedWith(q, accountId, filter.labels));
  }
  const search = filter.search;
  if (search) {
    const pattern = likePattern(search.term);
    const op = sql.raw(search.operator);
    const displayId = /^\d{1,9}$/.test(search.term) ? Number(search.term) : undefined;
    query = query.where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('messages')
            .select(eb.lit(1).as('one'))
            .where('messages.account_id', '=', accountId)
            .whereRef('messages.conversation_id', '=', 'conversations.id')
            .where(sql<SqlBool>`messages.content ${op} ${pattern} escape '\\'`),
        ),
        eb(
          'conversations.contact_id',
          'in',
          eb
            .selectFrom('contacts')
            .select('contacts.id')
            .where('contacts.account_id', '=', accountId)
            .where((ceb) =>
              ceb.or([
                sql<SqlBool>`${ceb.ref('contacts.name')} ${op} ${pattern} escape '\\'`,
                sql<SqlBool>`${ceb.ref('contacts.email')} ${op} ${pattern} escape '\\'`,
              ]),
            ),
        ),
        ...(displayId !== undefined ? [eb('conversations.display_id', '=', displayId)] : []),
      ]),
    );
  }
  if (filter.condition) query = query.where(filter.condition);
  return query;
}

/** One page, most recent activity first (ties: newest conversation first). */
export async function listConversations(
  q: Q,
  scope: ConversationScope,
  filter: ConversationListFilter,
  assignee: AssigneeScope,
  page: { limit: number; offset: number },
): Promise<Conversation[]> {
  let query = filtered(q, scope, filter);
  if (assignee === 'unassigned') query = query.where('conversations.assignee_id', 'is', null);
  else if (assignee === 'assigned') query = query.where('conversations.assignee_id', 'is not', null);
  else if (assignee !== 'all') {
    if (assignee.userId === null) return [];
    query = query.where('conversations.assignee_id', '=', assignee.userId);
  }
  return query
    .selectAll('conversations')
    .orderBy('conversations.last_activity_at', 'desc')
    .orderBy('conversations.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/**
 * All, unassigned and mine (assigned to `userId`) counts of the filtered set, in one query. Filters
 * on status, inbox and team (and an agent's inboxes) read the trigger-kept buckets of
 * `conversation_counts`: a few rows, however many conversations there are. Labels, a search or
 * filter criteria need the conversations themselves.
 */
export async function countConversations(
  q: Q,
  scope: ConversationScope,
  filter: ConversationListFilter,
  userId: number | null,
) {
  const bucketed = !filter.labels?.length && !filter.search && !filter.condition;
  if (bucketed) return countFromBuckets(q, scope, filter, userId);
  const row = await filtered(q, scope, filter)
    .select((eb) => [
      eb.fn.countAll<number | string>().as('all_count'),
      eb.fn
        .sum<number | string | null>(eb.case().when('conversations.assignee_id', 'is', null).then(1).else(0).end())
        .as('unassigned_count'),
      eb.fn
        .sum<number | string | null>(
          eb
            .case()
            .when('conversations.assignee_id', '=', userId ?? -1)
            .then(1)
            .else(0)
            .end(),
        )
        .as('mine_count'),
    ])
    .executeTakeFirstOrThrow();
  const all = Number(row.all_count ?? 0);
  const unassigned = Number(row.unassigned_count ?? 0);
  return { all, unassigned, assigned: all - unassigned, mine: Number(row.mine_count ?? 0) };
}

async function countFromBuckets(q: Q, scope: ConversationScope, filter: ConversationListFilter, userId: number | null) {
  let query = q.selectFrom('conversation_counts').where('account_id', '=', scope.accountId);
  if (scope.inboxIds) query = query.where('inbox_id', 'in', scope.inboxIds);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.inboxId !== undefined) query = query.where('inbox_id', '=', filter.inboxId);
  if (filter.teamId !== undefined) query = query.where('team_id', '=', filter.teamId);
  const row = await query
    .select((eb) => [
      eb.fn.sum<number | string | null>('count').as('all_count'),
      eb.fn
        .sum<number | string | null>(eb.case().when('assignee_id', '=', 0).then(eb.ref('count')).else(0).end())
        .as('unassigned_count'),
      eb.fn
        .sum<number | string | null>(
          eb
            .case()
            .when('assignee_id', '=', userId ?? -1)
            .then(eb.ref('count'))
            .else(0)
            .end(),
        )
        .as('mine_count'),
    ])
    .executeTakeFirstOrThrow();
  const all = Number(row.all_count ?? 0);
  const unassigned = Number(row.unassigned_count ?? 0);
  return { all, unassigned, assigned: all - unassigned, mine: Number(row.mine_count ?? 0) };
}

/** The contact's latest conversations in the given inboxes (all of the account's when null), newest first. */
export async function listByContact(
  q: Q,
  accountId: number,
  contactId: number,
  inboxIds: number[] | null,
  limit: number,
) {
  let query = q
    .selectFrom('conversations')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('contact_id', '=', contactId);
  if (inboxIds) query = query.where('inbox_id', 'in', inboxIds);
  return query.orderBy('id', 'desc').limit(limit).execute();
}

/** Moves every conversation of one contact to another (a contact merge); returns their ids. */
export async function reassignContact(
  q: Q,
  accountId: number,
  fromContactId: number,
  toContactId: number,
): Promise<number[]> {
  const rows = await q
    .updateTable('conversations')
    .set({ contact_id: toContactId })
    .where('account_id', '=', accountId)
    .where('contact_id', '=', fromContactId)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}
