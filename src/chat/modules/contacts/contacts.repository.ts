import { sql, type Insertable, type Updateable } from 'kysely';
import { sqliteSubstringIds, substringIndexUsable } from '../../../core/db/substring-index.js';
import { CONTACT_SEARCH_INDEX } from '../../db/migrations/0019_contact_search.js';
import type { Q } from '../../context.js';
import type { Contact, ContactsTable } from '../../db/schema.js';
import { contactsTaggedWith } from './contact-labels.repository.js';
import type { ContactCondition } from './contacts.filter.js';
import type { ContactSortKey } from './contacts.schema.js';

export async function insertContact(q: Q, values: Insertable<ContactsTable>) {
  return q.insertInto('contacts').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findContact(q: Q, accountId: number, id: number) {
  return q
    .selectFrom('contacts')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findContactByEmail(q: Q, accountId: number, email: string) {
  return q
    .selectFrom('contacts')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('email', '=', email)
    .executeTakeFirst();
}

/**
 * The account's contacts with any of these ids, e-mails or phone numbers: index lookups
 * (`contacts_account_email_uidx`, `contacts_account_phone_idx`), a few hundred values a statement.
 */
export async function findContactsBy(
  q: Q,
  accountId: number,
  keys: { ids: readonly number[]; emails: readonly string[]; phones: readonly string[] },
) {
  const out = new Map<number, Awaited<ReturnType<typeof findContact>> & object>();
  const lookups = [
    ['id', [...new Set(keys.ids)]],
    ['email', [...new Set(keys.emails)]],
    ['phone_number', [...new Set(keys.phones)]],
  ] as const;
  for (const [column, values] of lookups)
    for (let i = 0; i < values.length; i += 500) {
      const rows = await q
        .selectFrom('contacts')
        .selectAll()
        .where('account_id', '=', accountId)
        .where(column, 'in', values.slice(i, i + 500) as never[])
        .execute();
      for (const row of rows) out.set(row.id, row);
    }
  return [...out.values()];
}

export async function findContactByIdentifier(q: Q, accountId: number, identifier: string) {
  return q
    .selectFrom('contacts')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('identifier', '=', identifier)
    .executeTakeFirst();
}

export async function updateContact(q: Q, accountId: number, id: number, values: Updateable<ContactsTable>) {
  return q
    .updateTable('contacts')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the contact; its contact inboxes, conversations, messages and attachments rows cascade. */
/** Deletes the contact; its conversations cascade, and their labels (no foreign key) go first. */
export async function deleteContact(q: Q, accountId: number, id: number) {
  await q
    .deleteFrom('taggings')
    .where('account_id', '=', accountId)
    .where('taggable_type', '=', 'Conversation')
    .where('taggable_id', 'in', (eb) =>
      eb
        .selectFrom('conversations')
        .select('conversations.id')
        .where('conversations.account_id', '=', accountId)
        .where('conversations.contact_id', '=', id),
    )
    .execute();
  await q.deleteFrom('contacts').where('account_id', '=', accountId).where('id', '=', id).execute();
}

export interface ContactListFilter {
  /** Only contacts with any of these (normalized) labels. */
  labels?: string[];
  /** Case-insensitive substring of name, email, phone number or identifier. */
  search?: { term: string; operator: 'like' | 'ilike' };
  /** Criteria of the filter endpoint (contacts.filter.ts). */
  condition?: ContactCondition;
}

export interface ContactPageRequest {
  sort: ContactSortKey;
  descending: boolean;
  limit: number;
  offset: number;
}

/** `%`, `_` and the escape character itself match literally (used with `escape '\'`). */
const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function filtered(q: Q, accountId: number, filter: ContactListFilter) {
  let query = q.selectFrom('contacts').where('contacts.account_id', '=', accountId);
  if (filter.labels && filter.labels.length > 0) {
    query = query.where('contacts.id', 'in', contactsTaggedWith(q, accountId, filter.labels));
  }
  const search = filter.search;
  if (search && search.operator === 'like' && substringIndexUsable(search.term)) {
    // SQLite: the trigram index (migration 0019) finds the rows; PostgreSQL's `ilike` below is
    // served by its pg_trgm indexes directly.
    query = query.where(sql<boolean>`contacts.id in (${sqliteSubstringIds(CONTACT_SEARCH_INDEX, search.term)})`);
  } else if (search) {
    const pattern = likePattern(search.term);
    const op = sql.raw(search.operator);
    query = query.where((eb) =>
      eb.or(
        (['name', 'email', 'phone_number', 'identifier'] as const).map(
          (col) => sql<boolean>`${eb.ref(`contacts.${col}`)} ${op} ${pattern} escape '\\'`,
        ),
      ),
    );
  }
  if (filter.condition) query = query.where(filter.condition);
  return query;
}

/**
 * One page of the account's contacts and the total count matching the filter. Empty values of
 * the sort column (null) come last in both directions, as in Chatwoot; ties break by id.
 */
export async function listContacts(
  q: Q,
  accountId: number,
  filter: ContactListFilter,
  page: ContactPageRequest,
): Promise<{ rows: Contact[]; count: number }> {
  const dir = page.descending ? 'desc' : 'asc';
  const rows = await filtered(q, accountId, filter)
    .selectAll('contacts')
    .orderBy(`contacts.${page.sort}`, (ob) => (page.descending ? ob.desc() : ob.asc()).nullsLast())
    .orderBy('contacts.id', dir)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { rows, count: await countContacts(q, accountId, filter) };
}

/** The unfiltered count is one trigger-kept row (migration 0017); a filter counts its matches. */
async function countContacts(q: Q, accountId: number, filter: ContactListFilter): Promise<number> {
  if (!filter.labels?.length && !filter.search && !filter.condition) {
    const row = await q
      .selectFrom('contact_counts')
      .select('count')
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }
  const total = await filtered(q, accountId, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(total.n);
}

/** Marks the contact active (an incoming message). */
export async function touchContactActivity(q: Q, accountId: number, contactId: number, at: number) {
  await q
    .updateTable('contacts')
    .set({ last_activity_at: at })
    .where('account_id', '=', accountId)
    .where('id', '=', contactId)
    .execute();
}
