import { conflict, invalidField, notFound } from '../../core/http/errors.js';
import { randomToken } from '../../core/security/tokens.js';
import type { AccountContext, ChatDeps, Q, Trx } from '../context.js';
import { emitChatEvent } from '../events.js';
import type { Contact, ContactInbox, Conversation, Inbox } from '../db/schema.js';
import type { AccountsService } from '../modules/accounts/accounts.service.js';
import { contactWebhookData } from '../modules/contacts/contacts.events.js';
import type { ContactsService } from '../modules/contacts/contacts.service.js';
import type { ConversationChangesService } from '../modules/conversations/conversation-changes.service.js';
import { presentConversation } from '../modules/conversations/conversations.presenter.js';
import type { ConversationsService } from '../modules/conversations/conversations.service.js';
import type { StartConversation } from '../modules/conversations/start-conversation.js';
import type { InboxesService } from '../modules/inboxes/inboxes.service.js';
import type { ConversationMessagesService } from '../modules/messages/conversation-messages.service.js';
import type { MessageView } from '../modules/messages/messages.presenter.js';
import type { MessageListQuery } from '../modules/messages/messages.schema.js';
import type { MessagesService } from '../modules/messages/messages.service.js';
import { checkIdentity } from './public.hmac.js';
import type { PublicContactBody, PublicEventBody } from './public.schema.js';
import { t } from '../../core/i18n/catalogue.js';

/** A public contact body without its identifier_hash: the contact fields the services take. */
type ContactFields = Omit<PublicContactBody, 'identifier_hash'>;

/**
 * The widget event names that record `webwidget_triggered` (Chatwoot's spelling, and the event's).
 * `campaign.triggered` is one too, naming the campaign in `event_info.campaign_id` (the campaigns
 * module listens for it and starts the campaign's conversation).
 */
const WIDGET_TRIGGERED = new Set(['webwidget.triggered', 'webwidget_triggered', 'campaign.triggered']);
const MAX_EVENT_INFO_CHARS = 16_000;

export interface PublicServices {
  accounts: AccountsService;
  inboxes: InboxesService;
  contacts: ContactsService;
  conversations: ConversationsService;
  conversationChanges: ConversationChangesService;
  conversationMessages: ConversationMessagesService;
  messages: MessagesService;
  startConversation: StartConversation;
}

/** A contact as the public interface addresses it: inbox identifier + the contact inbox's source_id. */
export interface PublicContactView {
  contact: Contact;
  contactInbox: ContactInbox;
}

export interface PublicConversationView {
  conversation: Conversation;
  contact: Contact;
  messages: MessageView[];
}

interface Resolved extends PublicContactView {
  inbox: Inbox;
  ctx: AccountContext;
}

/** The context a contact acts in: its inbox, itself, and the conversations of its contact inbox. */
function contactContext(inbox: Inbox, contactInbox: ContactInbox): AccountContext {
  return {
    accountId: inbox.account_id,
    actor: { type: 'contact', contactId: contactInbox.contact_id, inboxId: inbox.id, contactInboxId: contactInbox.id },
    role: 'contact',
    userId: null,
  };
}

/**
 * The public interface (prefix /public/api/v1/inboxes/:inbox_identifier): no credential; the
 * inbox identifier of an API or web-widget inbox and the contact identifier (a contact inbox's
 * source_id) address everything. Resolves them, then acts through the module services with a
 * contact context, which sees only that inbox, that contact and its contact inbox's conversations.
 */
export class PublicService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly services: PublicServices,
  ) {}

  /** Inbox (inboxes_identifier_uidx) and contact inbox (contact_inboxes_source_uidx); 404 for either unknown. */
  private async resolve(inboxIdentifier: string, sourceId: string, q: Q = this.deps.db): Promise<Resolved> {
    const inbox = await this.services.inboxes.findPublic(inboxIdentifier, q);
    const contactInbox = await this.services.contacts.findContactInbox(q, inbox.account_id, inbox.id, sourceId);
    if (!contactInbox) throw notFound('Contact');
    const ctx = contactContext(inbox, contactInbox);
    const contact = await this.services.contacts.get(ctx, contactInbox.contact_id, q);
    return { inbox, contactInbox, contact, ctx };
  }

  /**
   * A new contact inbox with a random source_id and pubsub_token (192 bits each). With a verified
   * identity (a valid identifier_hash, see `checkIdentity`: 401 `hmac_failed`, nothing written) the
   * contact inbox joins the account's contact with that identifier, and is marked `hmac_verified`.
   * Without one, it always gets a new contact (`contact_created`): an unsigned identifier or e-mail
   * proves nothing, so it never reveals or reaches an existing contact (Chatwoot attaches by them;
   * see `unverifiedFields`).
   */
  async createContact(inboxIdentifier: string, body: PublicContactBody): Promise<PublicContactView> {
    const { identifier_hash: hash, ...fields } = body;
    return this.deps.db.transaction().execute(async (trx) => {
      const inbox = await this.services.inboxes.findPublic(inboxIdentifier, trx);
      const verified = checkIdentity(inbox, {
        hash,
        identifier: fields.identifier,
        namesIdentity: Boolean(fields.identifier || fields.email),
      });
      const contact = verified
        ? await this.identifyVerified(trx, inbox.account_id, fields)
        : await this.services.contacts.createInTransaction(
            trx,
            inbox.account_id,
            await this.unverifiedFields(trx, inbox.account_id, fields),
          );
      let contactInbox = await this.services.contacts.ensureContactInbox(
        trx,
        inbox.account_id,
        contact.id,
        inbox.id,
        randomToken(24),
      );
      if (verified)
        contactInbox = await this.services.contacts.setHmacVerified(trx, inbox.account_id, contactInbox.id, true);
      return { contact, contactInbox };
    });
  }

  /**
   * A verified identity attaches by identifier only: the e-mail is not signed, so a contact found
   * by e-mail alone (no identifier, or another one) is not the caller's to claim (409).
   */
  private async identifyVerified(trx: Trx, accountId: number, body: ContactFields): Promise<Contact> {
    const { byIdentifier, byEmail } = await this.services.contacts.findByIdentity(trx, accountId, body);
    if (byIdentifier) return byIdentifier;
    if (byEmail)
      throw conflict('Email has already been taken', [{ field: 'email', message: 'has already been taken' }]);
    return this.services.contacts.createInTransaction(trx, accountId, body);
  }

  /**
   * The fields an unverified visitor may store on its own contact. An identifier or e-mail that
   * already names another contact of the account is not taken over (those columns are unique and
   * that contact is not the caller's): it is kept as what the visitor claimed, in
   * `additional_attributes.claimed_identifier` / `claimed_email`, for agents to judge (and merge).
   */
  private async unverifiedFields(
    trx: Q,
    accountId: number,
    body: ContactFields,
    self?: number,
  ): Promise<ContactFields & { additional_attributes?: Record<string, unknown> }> {
    const { byIdentifier, byEmail } = await this.services.contacts.findByIdentity(trx, accountId, body);
    const claims: Record<string, unknown> = {};
    const fields: ContactFields = { ...body };
    if (byIdentifier && byIdentifier.id !== self) {
      claims.claimed_identifier = body.identifier;
      delete fields.identifier;
    }
    if (byEmail && byEmail.id !== self) {
      claims.claimed_email = byEmail.email;
      delete fields.email;
    }
    return Object.keys(claims).length > 0 ? { ...fields, additional_attributes: claims } : fields;
  }

  /** The inbox a widget or client addresses (GET /public/api/v1/inboxes/:inbox_identifier); 404 unless API or web widget. */
  inbox(inboxIdentifier: string): Promise<Inbox> {
    return this.services.inboxes.findPublic(inboxIdentifier);
  }

  async getContact(inboxIdentifier: string, sourceId: string): Promise<PublicContactView> {
    const { contact, contactInbox } = await this.resolve(inboxIdentifier, sourceId);
    return { contact, contactInbox };
  }

  /**
   * Updates the contact (custom_attributes merge); records `contact_updated` when something changed.
   * HMAC rules as for creation, the hash signing the identifier sent or else the contact's own; a
   * valid hash marks the contact inbox `hmac_verified`, an identifier changed without one unmarks it.
   * Without a verified identity, an identifier or e-mail of another contact becomes a claim
   * (`unverifiedFields`), never a 409 that would tell the visitor whose it is.
   */
  async updateContact(inboxIdentifier: string, sourceId: string, body: PublicContactBody): Promise<PublicContactView> {
    const { identifier_hash: hash, ...fields } = body;
    return this.deps.db.transaction().execute(async (trx) => {
      const { ctx, inbox, contact, contactInbox } = await this.resolve(inboxIdentifier, sourceId, trx);
      const identifier = fields.identifier === undefined ? contact.identifier : fields.identifier;
      const namesIdentity = fields.identifier !== undefined || fields.email !== undefined;
      const verified = checkIdentity(inbox, { hash, identifier, namesIdentity });
      const trusted = verified || contactInbox.hmac_verified === 1;
      const changes = trusted ? fields : await this.unverifiedFields(trx, inbox.account_id, fields, contact.id);
      const updated = await this.services.contacts.updateInTransaction(trx, ctx, contact.id, changes);
      const identifierChanged = updated.identifier !== contact.identifier;
      const hmacVerified = verified || (contactInbox.hmac_verified === 1 && !identifierChanged);
      if (hmacVerified === (contactInbox.hmac_verified === 1)) return { contact: updated, contactInbox };
      return {
        contact: updated,
        contactInbox: await this.services.contacts.setHmacVerified(
          trx,
          inbox.account_id,
          contactInbox.id,
          hmacVerified,
        ),
      };
    });
  }

  /** Starts a conversation of the contact in the inbox (`conversation_created`), open. */
  async startConversation(
    inboxIdentifier: string,
    sourceId: string,
    customAttributes?: Record<string, unknown>,
  ): Promise<PublicConversationView> {
    const { ctx, inbox, contact, contactInbox } = await this.resolve(inboxIdentifier, sourceId);
    const bundle = await this.services.startConversation.start(ctx, {
      inbox_id: inbox.id,
      source_id: contactInbox.source_id,
      custom_attributes: customAttributes,
    });
    return (await this.withLastMessages(ctx, contact, [bundle.conversation]))[0];
  }

  /** The conversations of this contact inbox, newest first, 25 per page, each with its last visible message. */
  async listConversations(inboxIdentifier: string, sourceId: string, page: number): Promise<PublicConversationView[]> {
    const { ctx, contact } = await this.resolve(inboxIdentifier, sourceId);
    return this.withLastMessages(ctx, contact, await this.services.conversations.listOfContact(ctx, page));
  }

  async getConversation(inboxIdentifier: string, sourceId: string, displayId: number): Promise<PublicConversationView> {
    const { ctx, contact } = await this.resolve(inboxIdentifier, sourceId);
    const conversation = await this.services.conversations.get(ctx, displayId);
    return (await this.withLastMessages(ctx, contact, [conversation]))[0];
  }

  /** The contact ends the chat: resolved (`conversation_status_changed`); already resolved changes nothing. */
  async resolveConversation(
    inboxIdentifier: string,
    sourceId: string,
    displayId: number,
  ): Promise<PublicConversationView> {
    const { ctx, contact } = await this.resolve(inboxIdentifier, sourceId);
    const conversation = await this.services.conversationChanges.toggleStatus(ctx, displayId, { status: 'resolved' });
    return (await this.withLastMessages(ctx, contact, [conversation]))[0];
  }

  /** contact_last_seen_at becomes now. */
  async markSeen(inboxIdentifier: string, sourceId: string, displayId: number): Promise<void> {
    const { ctx } = await this.resolve(inboxIdentifier, sourceId);
    await this.services.conversationChanges.markSeen(ctx, displayId);
  }

  /** The messages the contact sees (no private notes, no activities): latest 20, oldest first, or a window. */
  async listMessages(
    inboxIdentifier: string,
    sourceId: string,
    displayId: number,
    query: MessageListQuery,
  ): Promise<MessageView[]> {
    const { ctx } = await this.resolve(inboxIdentifier, sourceId);
    const conversation = await this.services.conversations.get(ctx, displayId);
    return this.services.messages.window(this.deps.db, conversation, query, { contactVisible: true });
  }

  /** An incoming message from the contact; activity, reopening and `message_created` as for any message. */
  async createMessage(
    inboxIdentifier: string,
    sourceId: string,
    displayId: number,
    body: { content: string; echo_id?: string | null },
  ): Promise<MessageView> {
    const { ctx } = await this.resolve(inboxIdentifier, sourceId);
    return this.services.conversationMessages.create(ctx, displayId, {
      content: body.content,
      echo_id: body.echo_id ?? null,
      message_type: 'incoming',
    });
  }

  /** Stores submitted_values (`message_updated`) and marks the conversation read. */
  async updateMessage(
    inboxIdentifier: string,
    sourceId: string,
    displayId: number,
    messageId: number,
    submitted: unknown,
  ) {
    const { ctx } = await this.resolve(inboxIdentifier, sourceId);
    return this.services.conversationMessages.updateByContact(ctx, displayId, messageId, submitted);
  }

  /**
   * The widget was opened on a site: records `webwidget_triggered` with Chatwoot's payload (the
   * contact, inbox, account, source_id, the contact inbox's latest conversation, event_info).
   */
  async trigger(inboxIdentifier: string, sourceId: string, body: PublicEventBody): Promise<void> {
    if (!WIDGET_TRIGGERED.has(body.name))
      throw invalidField('name', 'must be webwidget.triggered or campaign.triggered');
    const eventInfo = body.event_info ?? {};
    const campaignId = eventInfo.campaign_id;
    if (body.name === 'campaign.triggered' && !(Number.isInteger(campaignId) && (campaignId as number) > 0))
      throw invalidField('event_info.campaign_id', 'must be the number of a campaign');
    if (JSON.stringify(eventInfo).length > MAX_EVENT_INFO_CHARS) {
      throw invalidField(
        'event_info',
        t('is too large (maximum is %{max} characters as JSON)', { max: MAX_EVENT_INFO_CHARS }),
      );
    }
    await this.deps.db.transaction().execute(async (trx) => {
      await this.recordTriggered(trx, await this.resolve(inboxIdentifier, sourceId, trx), eventInfo);
    });
  }

  private async recordTriggered(
    trx: Trx,
    { ctx, inbox, contact, contactInbox }: Resolved,
    eventInfo: Record<string, unknown>,
  ) {
    const [latest] = await this.services.conversations.listOfContact(ctx, 1, trx);
    const [account, bundle] = await Promise.all([
      this.services.accounts.find(trx, inbox.account_id),
      latest ? this.services.conversations.bundles.loadOne(trx, latest) : Promise.resolve(null),
    ]);
    if (!account) throw notFound('Inbox');
    await emitChatEvent(trx, {
      accountId: inbox.account_id,
      name: 'webwidget_triggered',
      refs: {
        contactId: contact.id,
        inboxId: inbox.id,
        contactInboxId: contactInbox.id,
        displayId: latest?.display_id ?? null,
      },
      snapshot: {
        event: 'webwidget_triggered',
        id: contact.id,
        contact: contactWebhookData(contact, account),
        inbox: { id: inbox.id, name: inbox.name },
        account: { id: account.id, name: account.name },
        source_id: contactInbox.source_id,
        current_conversation: bundle ? presentConversation(bundle) : null,
        event_info: eventInfo,
      },
    });
  }

  /** Conversations with the last message the contact sees in each (one query for the page). */
  private async withLastMessages(
    ctx: AccountContext,
    contact: Contact,
    conversations: Conversation[],
  ): Promise<PublicConversationView[]> {
    const last = await this.services.messages.lastContactVisibleFor(this.deps.db, ctx.accountId, conversations);
    return conversations.map((conversation) => {
      const message = last.get(conversation.id);
      return { conversation, contact, messages: message ? [message] : [] };
    });
  }
}
