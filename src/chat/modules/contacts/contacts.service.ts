import { conflict, invalidField, notFound } from '../../../core/http/errors.js';
import { randomToken } from '../../../core/security/tokens.js';
import { parseJsonObject } from '../../../core/time.js';
import { assertStaff, eventOrigin, type AccountContext, type ChatDeps, type Q, type Trx } from '../../context.js';
import { emitChatEvent } from '../../events.js';
import type { Contact, ContactInbox, Inbox } from '../../db/schema.js';
import type { FilterCriterion } from '../../filters/criteria.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { AttachmentFilesService } from '../attachments-files/attachments-files.service.js';
import type { InboxesService } from '../inboxes/inboxes.service.js';
import { normalizeLabelFilter } from '../labels/labels.names.js';
import * as inboxRepo from './contact-inboxes.repository.js';
import * as labelsRepo from './contact-labels.repository.js';
import { changedAttributes, contactWebhookData } from './contacts.events.js';
import type { CustomAttributeCriteria } from '../../filters/criteria.js';
import { compileContactFilter } from './contacts.filter.js';
import type { ContactInboxRow } from './contacts.presenter.js';
import * as repo from './contacts.repository.js';
import type {
  ContactCreateBody,
  ContactInboxCreateBody,
  ContactListQuery,
  ContactSearchQuery,
  ContactSortKey,
  ContactUpdateBody,
} from './contacts.schema.js';

const normalizeEmail = (e: string | null | undefined) => (e ? e.trim().toLowerCase() : e);

/** Contact lists are 15 per page (docs/spec/decisions.md §1). */
export const CONTACTS_PER_PAGE = 15;

/** A page of contacts with the contact inboxes of the page (one query). */
export interface ContactPageView {
  contacts: Contact[];
  count: number;
  currentPage: number;
  contactInboxes: Map<number, ContactInboxRow[]>;
}

/** The fields a client edits, as compared for `changed_attributes`. */
function editable(c: Contact) {
  return {
    name: c.name,
    email: c.email,
    phone_number: c.phone_number,
    identifier: c.identifier,
    avatar_url: c.avatar_url,
    blocked: c.blocked === 1,
    additional_attributes: parseJsonObject(c.additional_attributes),
    custom_attributes: parseJsonObject(c.custom_attributes),
  };
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * `preferred` deep-merged over `other`: keys only `other` has are added, nested objects merge,
 * and a blank value (null, "") of `preferred` gives way to `other`'s.
 */
function preferFirst(preferred: Record<string, unknown>, other: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...other };
  for (const [key, value] of Object.entries(preferred)) {
    if (isPlainObject(value) && isPlainObject(out[key])) out[key] = preferFirst(value, out[key]);
    else if ((value === null || value === '') && out[key] !== undefined) continue;
    else out[key] = value;
  }
  return out;
}

/** `-name` -> name descending; no sort -> last activity, newest first. */
function parseSort(sort: string | undefined): { sort: ContactSortKey; descending: boolean } {
  if (!sort) return { sort: 'last_activity_at', descending: true };
  const descending = sort.startsWith('-');
  return { sort: (descending ? sort.slice(1) : sort) as ContactSortKey, descending };
}

/** Contacts of an account: the people conversations are with. */
export class ContactsService {
  /** The filter's defined custom attribute keys (the custom attributes module sets it). */
  private customAttributes?: CustomAttributeCriteria;

  constructor(
    private readonly deps: ChatDeps,
    private readonly accounts: AccountsService,
    private readonly inboxes: InboxesService,
    private readonly attachmentFiles: AttachmentFilesService,
  ) {}

  useCustomAttributes(source: CustomAttributeCriteria): void {
    this.customAttributes = source;
  }

  /** A contact of the account; 404 for unknown ids and ids of other accounts (a contact ctx: only itself). */
  async get(ctx: AccountContext, id: number, q: Q = this.deps.db): Promise<Contact> {
    if (ctx.actor.type === 'contact' && ctx.actor.contactId !== id) throw notFound('Contact');
    const contact = await repo.findContact(q, ctx.accountId, id);
    if (!contact) throw notFound('Contact');
    return contact;
  }

  /**
   * The account's contacts among these ids, e-mails (any case) and phone numbers (with or without
   * their `+`), in a few queries whatever their number: for bulk work such as a card import.
   */
  async lookup(q: Q, accountId: number, keys: { ids: number[]; emails: string[]; phones: string[] }) {
    const phones = keys.phones.flatMap((p) => {
      const digits = p.replace(/\D/g, '');
      return digits ? [p, `+${digits}`, digits] : [p];
    });
    return repo.findContactsBy(q, accountId, {
      ids: keys.ids,
      emails: keys.emails.map((e) => normalizeEmail(e)!),
      phones,
    });
  }

  /** Refuses an e-mail or identifier already used by another contact of the account (409). */
  async assertUnique(
    q: Q,
    accountId: number,
    values: { email?: string | null; identifier?: string | null },
    exceptId?: number,
  ) {
    if (values.email) {
      const other = await repo.findContactByEmail(q, accountId, values.email);
      if (other && other.id !== exceptId)
        throw conflict('Email has already been taken', [{ field: 'email', message: 'has already been taken' }]);
    }
    if (values.identifier) {
      const other = await repo.findContactByIdentifier(q, accountId, values.identifier);
      if (other && other.id !== exceptId) {
        throw conflict('Identifier has already been taken', [
          { field: 'identifier', message: 'has already been taken' },
        ]);
      }
    }
  }

  /**
   * Creates a contact (and, with `inbox_id`, its presence in that inbox) and records
   * `contact_created` in the same transaction.
   */
  async create(
    ctx: AccountContext,
    body: ContactCreateBody,
  ): Promise<{ contact: Contact; contactInbox: ContactInbox | null }> {
    return this.deps.db.transaction().execute(async (trx) => {
      if (body.inbox_id !== undefined) await this.inboxes.get(ctx, body.inbox_id, trx);
      const contact = await this.createInTransaction(trx, ctx.accountId, body);
      const contactInbox =
        body.inbox_id !== undefined
          ? await this.ensureContactInbox(trx, ctx.accountId, contact.id, body.inbox_id, body.source_id)
          : null;
      return { contact, contactInbox };
    });
  }

  /**
   * Inserts a contact (e-mail and identifier unique in the account, 409 otherwise) and records
   * `contact_created`, in the caller's transaction. Also used by the public interface.
   */
  async createInTransaction(
    trx: Trx,
    accountId: number,
    body: Omit<ContactCreateBody, 'inbox_id' | 'source_id'>,
  ): Promise<Contact> {
    const email = normalizeEmail(body.email) ?? null;
    await this.assertUnique(trx, accountId, { email, identifier: body.identifier });
    const now = Date.now();
    const contact = await repo.insertContact(trx, {
      account_id: accountId,
      name: body.name ?? '',
      email,
      phone_number: body.phone_number ?? null,
      identifier: body.identifier ?? null,
      avatar_url: body.avatar_url ?? null,
      blocked: body.blocked ? 1 : 0,
      additional_attributes: JSON.stringify(body.additional_attributes ?? {}),
      custom_attributes: JSON.stringify(body.custom_attributes ?? {}),
      last_activity_at: null,
      created_at: now,
      updated_at: now,
    });
    await this.emitContactEvent(trx, 'contact_created', contact);
    return contact;
  }

  /** The account's contact with this identifier or (normalized) e-mail, if any (unique indexes). */
  async findByIdentity(q: Q, accountId: number, by: { identifier?: string | null; email?: string | null }) {
    const email = normalizeEmail(by.email);
    return {
      byIdentifier: by.identifier ? await repo.findContactByIdentifier(q, accountId, by.identifier) : undefined,
      byEmail: email ? await repo.findContactByEmail(q, accountId, email) : undefined,
    };
  }

  /** The account's contacts, 15 per page, optionally only those with any of `labels`. */
  async list(ctx: AccountContext, query: ContactListQuery): Promise<ContactPageView> {
    return this.page(ctx, { labels: normalizeLabelFilter(query.labels) }, query.page ?? 1, query.sort);
  }

  /** Contacts whose name, email, phone number or identifier contains `q` (any case). */
  async search(ctx: AccountContext, query: ContactSearchQuery): Promise<ContactPageView> {
    const term = query.q.trim();
    if (term === '') throw invalidField('q', "can't be blank");
    const operator = this.deps.dialect === 'postgres' ? 'ilike' : 'like';
    return this.page(ctx, { search: { term, operator } }, query.page ?? 1, query.sort);
  }

  /** POST {A}/contacts/filter: whitelisted criteria over the contact attributes (contacts.filter.ts), 15 per page. */
  async filter(ctx: AccountContext, criteria: FilterCriterion[], page: number): Promise<ContactPageView> {
    const extraAttribute = await this.customAttributes?.criteriaFor(ctx.accountId, 'contacts', criteria);
    const { accountId } = ctx;
    const condition = compileContactFilter(criteria, { accountId, dialect: this.deps.dialect, extraAttribute });
    return this.page(ctx, { condition }, page, undefined);
  }

  /**
   * The inboxes the actor sees through which a conversation with the contact can start, each with
   * the source id to start it with (Chatwoot's contactable inboxes): API inboxes with the contact's
   * latest source id there or a new one; web widgets where the contact already has one; e-mail
   * inboxes by the contact's e-mail; SMS and WhatsApp by the phone number.
   */
  async contactableInboxes(ctx: AccountContext, id: number): Promise<{ sourceId: string; inbox: Inbox }[]> {
    assertStaff(ctx);
    const contact = await this.get(ctx, id);
    const inboxes = await this.inboxes.list(ctx);
    const latest = new Map<number, string>();
    for (const row of await inboxRepo.listForContacts(this.deps.db, ctx.accountId, [contact.id]))
      latest.set(row.inbox_id, row.source_id);
    const out: { sourceId: string; inbox: Inbox }[] = [];
    for (const inbox of inboxes) {
      const known = latest.get(inbox.id);
      let sourceId: string | null | undefined;
      switch (inbox.channel_type) {
        case 'Channel::Api':
          sourceId = known ?? crypto.randomUUID();
          break;
        case 'Channel::WebWidget':
          sourceId = known;
          break;
        case 'Channel::Email':
          sourceId = contact.email;
          break;
        case 'Channel::Whatsapp':
          sourceId = contact.phone_number?.replace('+', '');
          break;
        case 'Channel::Sms':
          sourceId = contact.phone_number;
          break;
      }
      if (sourceId) out.push({ sourceId, inbox });
    }
    return out;
  }

  /**
   * The contact side of a merge, in the caller's transaction (contact-merge module): the mergee's
   * contact inboxes and labels move to the base contact, the mergee is deleted, and the base
   * contact takes the mergee's identifier, name, e-mail, phone number and attributes wherever its
   * own are blank (its own values win). Records `contact_updated` for the base when that changes it.
   * The mergee's conversations must have moved before (they would go with it).
   */
  async absorb(trx: Trx, ctx: AccountContext, base: Contact, mergee: Contact): Promise<Contact> {
    const accountId = ctx.accountId;
    await inboxRepo.reassignContact(trx, accountId, mergee.id, base.id);
    const labels = [
      ...new Set([
        ...(await labelsRepo.labelsOf(trx, accountId, base.id)),
        ...(await labelsRepo.labelsOf(trx, accountId, mergee.id)),
      ]),
    ].sort();
    await labelsRepo.replaceLabels(trx, accountId, base.id, labels);
    await labelsRepo.deleteLabels(trx, accountId, [mergee.id]);
    await repo.deleteContact(trx, accountId, mergee.id);
    const blank = (v: string | null) => v === null || v.trim() === '';
    const fill: ContactUpdateBody = {};
    if (blank(base.name) && !blank(mergee.name)) fill.name = mergee.name;
    if (blank(base.email) && !blank(mergee.email)) fill.email = mergee.email;
    if (blank(base.phone_number) && !blank(mergee.phone_number)) fill.phone_number = mergee.phone_number;
    if (blank(base.identifier) && !blank(mergee.identifier)) fill.identifier = mergee.identifier;
    fill.custom_attributes = preferFirst(
      parseJsonObject(base.custom_attributes),
      parseJsonObject(mergee.custom_attributes),
    );
    fill.additional_attributes = preferFirst(
      parseJsonObject(base.additional_attributes),
      parseJsonObject(mergee.additional_attributes),
    );
    return this.updateInTransaction(trx, ctx, base.id, fill);
  }

  private async page(ctx: AccountContext, filter: repo.ContactListFilter, page: number, sort: string | undefined) {
    assertStaff(ctx);
    const { rows, count } = await repo.listContacts(this.deps.db, ctx.accountId, filter, {
      ...parseSort(sort),
      limit: CONTACTS_PER_PAGE,
      offset: (page - 1) * CONTACTS_PER_PAGE,
    });
    const contactInboxes = await this.contactInboxesOf(
      ctx.accountId,
      rows.map((c) => c.id),
    );
    return { contacts: rows, count, currentPage: page, contactInboxes };
  }

  /**
   * Updates the given fields; `custom_attributes` and `additional_attributes` merge into the
   * stored objects (as Chatwoot does). Records `contact_updated` with the changed keys in the same
   * transaction; when nothing changes, nothing is written and no event is recorded.
   */
  async update(
    ctx: AccountContext,
    id: number,
    body: ContactUpdateBody,
  ): Promise<{ contact: Contact; contactInboxes: ContactInboxRow[] }> {
    const contact = await this.deps.db.transaction().execute((trx) => this.updateInTransaction(trx, ctx, id, body));
    return {
      contact,
      contactInboxes: (await this.contactInboxesOf(ctx.accountId, [contact.id])).get(contact.id) ?? [],
    };
  }

  /** `update` in the caller's transaction (the public interface checks identity in the same one). */
  async updateInTransaction(trx: Trx, ctx: AccountContext, id: number, body: ContactUpdateBody): Promise<Contact> {
    const current = await this.get(ctx, id, trx);
    const before = editable(current);
    const email = body.email === undefined ? undefined : (normalizeEmail(body.email) ?? null);
    await this.assertUnique(trx, ctx.accountId, { email, identifier: body.identifier }, id);
    const after = {
      name: body.name ?? before.name,
      email: email === undefined ? before.email : email,
      phone_number: body.phone_number === undefined ? before.phone_number : body.phone_number,
      identifier: body.identifier === undefined ? before.identifier : body.identifier,
      avatar_url: body.avatar_url === undefined ? before.avatar_url : body.avatar_url,
      blocked: body.blocked ?? before.blocked,
      additional_attributes: { ...before.additional_attributes, ...body.additional_attributes },
      custom_attributes: { ...before.custom_attributes, ...body.custom_attributes },
    };
    const changes = changedAttributes(before, after);
    if (changes.length === 0) return current;
    const updated = await repo.updateContact(trx, ctx.accountId, id, {
      ...after,
      blocked: after.blocked ? 1 : 0,
      additional_attributes: JSON.stringify(after.additional_attributes),
      custom_attributes: JSON.stringify(after.custom_attributes),
      updated_at: Date.now(),
    });
    if (!updated) throw notFound('Contact');
    await this.emitContactEvent(trx, 'contact_updated', updated, { changed_attributes: changes }, ctx);
    return updated;
  }

  /**
   * Deletes the contact with its labels; contact inboxes, conversations, messages and attachment
   * rows go with it (foreign keys). The attachment files are removed once the transaction has
   * committed (a rolled-back delete never loses a file). Returns their storage keys.
   */
  async delete(ctx: AccountContext, id: number): Promise<{ storageKeys: string[] }> {
    assertStaff(ctx);
    const result = await this.deps.db.transaction().execute(async (trx) => {
      await this.get(ctx, id, trx);
      const storageKeys = await this.attachmentFiles.keysOfContact(trx, ctx.accountId, id);
      await labelsRepo.deleteLabels(trx, ctx.accountId, [id]);
      await repo.deleteContact(trx, ctx.accountId, id);
      return { storageKeys };
    });
    await this.attachmentFiles.removeFiles(result.storageKeys);
    return result;
  }

  /** Puts the contact in an inbox the actor may see (`POST {A}/contacts/:id/contact_inboxes`). */
  async addToInbox(
    ctx: AccountContext,
    id: number,
    body: ContactInboxCreateBody,
  ): Promise<{ contactInbox: ContactInbox; inbox: Inbox }> {
    return this.deps.db.transaction().execute(async (trx) => {
      await this.get(ctx, id, trx);
      const inbox = await this.inboxes.get(ctx, body.inbox_id, trx);
      const contactInbox = await this.ensureContactInbox(trx, ctx.accountId, id, inbox.id, body.source_id);
      return { contactInbox, inbox };
    });
  }

  /** Records a contact event with the webhook payload, inside the caller's transaction; `ctx` sets its origin. */
  async emitContactEvent(
    trx: Trx,
    name: 'contact_created' | 'contact_updated',
    contact: Contact,
    extra: Record<string, unknown> = {},
    ctx?: AccountContext,
  ) {
    const account = await this.accounts.find(trx, contact.account_id);
    if (!account) throw notFound('Account');
    await emitChatEvent(trx, {
      accountId: contact.account_id,
      name,
      refs: { contactId: contact.id },
      snapshot: { event: name, ...contactWebhookData(contact, account), ...extra },
      origin: ctx ? eventOrigin(ctx) : null,
    });
  }

  /**
   * The contact's presence in an inbox: the one with `sourceId`, or the contact's existing one,
   * or a new one (with a random source id when none is given).
   */
  async ensureContactInbox(
    q: Q,
    accountId: number,
    contactId: number,
    inboxId: number,
    sourceId?: string,
  ): Promise<ContactInbox> {
    if (sourceId) {
      const existing = await inboxRepo.findBySource(q, accountId, inboxId, sourceId);
      if (existing) {
        if (existing.contact_id !== contactId) {
          throw conflict('source_id is already used by another contact in this inbox', [
            { field: 'source_id', message: 'is already used by another contact' },
          ]);
        }
        return existing;
      }
    } else {
      const existing = await inboxRepo.findForContact(q, accountId, contactId, inboxId);
      if (existing) return existing;
    }
    return inboxRepo.insertContactInbox(q, {
      account_id: accountId,
      contact_id: contactId,
      inbox_id: inboxId,
      source_id: sourceId ?? crypto.randomUUID(),
      pubsub_token: randomToken(24),
    });
  }

  /** Records whether the contact was identified in this contact inbox with a valid identifier_hash. */
  setHmacVerified(q: Q, accountId: number, contactInboxId: number, verified: boolean): Promise<ContactInbox> {
    return inboxRepo.setHmacVerified(q, accountId, contactInboxId, verified ? 1 : 0);
  }

  /** The contact inbox with this source id in the inbox, if any. */
  findContactInbox(q: Q, accountId: number, inboxId: number, sourceId: string) {
    return inboxRepo.findBySource(q, accountId, inboxId, sourceId);
  }

  /** Marks the contact active (an incoming message), inside the caller's transaction. */
  touchActivity(q: Q, accountId: number, contactId: number, at: number) {
    return repo.touchContactActivity(q, accountId, contactId, at);
  }

  /** Contact inboxes of several contacts (one query), grouped by contact id. */
  async contactInboxesOf(accountId: number, contactIds: number[], q: Q = this.deps.db) {
    const rows = await inboxRepo.listForContacts(q, accountId, contactIds);
    const byContact = new Map<number, typeof rows>();
    for (const row of rows) {
      const list = byContact.get(row.contact_id) ?? [];
      list.push(row);
      byContact.set(row.contact_id, list);
    }
    return byContact;
  }
}
