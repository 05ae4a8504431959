import type { ApiError } from '../shared/api/errors.js';
import type { Language } from '../shared/i18n/language.js';
import type { FrameMessage, WidgetUser } from '../shared/widget/protocol.js';
import {
  MESSAGE_PAGE,
  isApiError,
  type ContactFields,
  type InboxApi,
  type PublicContact,
  type PublicInbox,
  type PublicMessage,
} from './api.js';
import type { CablePush } from './cable.js';
import { applyPush, forHost, fromServer, lastServerId, merge, unreadAfter, type Shown } from './timeline.js';

/**
 * The visitor's side of the chat, without the DOM: the inbox, the contact (created at the first
 * open or call that needs one, its identifier handed to the host page's cookie), the newest
 * conversation and its messages, the unread count while the panel is closed. Server calls run one
 * after another (a `setUser` then a message keep their order); the UI reads `state`.
 */

export type Problem = 'unreachable' | 'notFound' | 'identityRefused';

export interface WidgetState {
  loading: boolean;
  problem: Problem | null;
  inbox: PublicInbox | null;
  messages: Shown[];
  /** Status of the conversation shown (null: none yet). */
  status: string | null;
  open: boolean;
  unread: number;
  language: Language;
  /** The conversation has messages before the first one shown (a full page came back). */
  hasOlder: boolean;
}

export interface SessionDeps {
  api: InboxApi;
  /** Posts to the host page (the loader). */
  post: (message: FrameMessage) => void;
  /** Connects the realtime channel of a contact; returns how to close it. */
  /** `onConnected` runs at each subscription (the first and after a drop): the caller reads what it missed. */
  connect: (pubsubToken: string, onPush: (push: CablePush) => void, onConnected: () => void) => () => void;
  newEchoId: () => string;
  /** The newest message id this browser showed the visitor, per conversation (storage may be refused: null). */
  seen: { read: (conversationId: number) => number | null; write: (conversationId: number, id: number) => void };
}

export class Session {
  state: WidgetState;
  private contact: PublicContact | null = null;
  private conversationId: number | null = null;
  private lastSeenAt = 0;
  private disconnect: (() => void) | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private listeners = new Set<() => void>();

  constructor(
    private readonly deps: SessionDeps,
    language: Language,
  ) {
    this.state = {
      loading: true,
      problem: null,
      inbox: null,
      messages: [],
      status: null,
      open: false,
      unread: 0,
      language,
      hasOlder: false,
    };
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(patch: Partial<WidgetState>): void {
    const unreadBefore = this.state.unread;
    this.state = { ...this.state, ...patch };
    if (this.state.unread !== unreadBefore) this.deps.post({ type: 'unread', count: this.state.unread });
    for (const listener of this.listeners) listener();
  }

  /** Runs server work after what is already queued; a refusal becomes the state's problem. */
  private run<T>(work: () => Promise<T>): Promise<T | undefined> {
    const next = this.queue.then(work).catch((e: unknown) => {
      this.fail(e);
      return undefined;
    });
    this.queue = next;
    return next;
  }

  private fail(e: unknown): void {
    const error: ApiError | null = isApiError(e) ? e : null;
    if (error?.code === 'hmac_failed' || error?.status === 401) {
      this.deps.post({ type: 'error', code: 'hmac_failed', message: error?.message ?? '' });
      this.set({ problem: 'identityRefused' });
    } else this.set({ problem: error?.status === 404 ? 'notFound' : 'unreachable' });
  }

  setLanguage(language: Language): void {
    this.set({ language });
  }

  /** The loader's `init`: the inbox, and the returning visitor's conversation. */
  init(credential: string | null, open: boolean): Promise<unknown> {
    return this.run(async () => {
      const inbox = await this.deps.api.inbox();
      this.set({ inbox });
      if (credential) {
        try {
          this.useContact(await this.deps.api.getContact(credential));
        } catch (e) {
          if (!isApiError(e) || e.status !== 404) throw e;
          this.deps.post({ type: 'credential', credential: null });
        }
      }
      if (this.contact) await this.loadConversation();
      this.set({ loading: false });
      if (open) await this.opened();
    }).finally(() => this.set({ loading: false }));
  }

  private useContact(contact: PublicContact): void {
    const changed = this.contact?.pubsub_token !== contact.pubsub_token;
    this.contact = contact;
    if (!changed) return;
    this.disconnect?.();
    this.disconnect = this.deps.connect(
      contact.pubsub_token,
      (push) => this.onPush(push),
      () => void this.run(() => this.catchUp()),
    );
  }

  private async loadConversation(): Promise<void> {
    const contact = this.contact!;
    const [newest] = await this.deps.api.conversations(contact.source_id);
    if (!newest) return;
    this.conversationId = newest.id;
    this.lastSeenAt = newest.contact_last_seen_at ? Date.parse(newest.contact_last_seen_at) / 1000 : 0;
    const messages = (await this.deps.api.messages(contact.source_id, newest.id)).map(fromServer);
    this.set({
      hasOlder: messages.length >= MESSAGE_PAGE,
      messages,
      status: newest.status,
      unread: this.state.open ? 0 : unreadAfter(messages, this.lastSeenAt, this.deps.seen.read(newest.id)),
    });
  }

  /** The contact, created now when there is none (its identifier goes to the host's cookie). */
  private async ensureContact(fields: ContactFields = {}): Promise<PublicContact> {
    if (this.contact) return this.contact;
    const contact = await this.deps.api.createContact(fields);
    this.useContact(contact);
    this.deps.post({ type: 'credential', credential: contact.source_id });
    return contact;
  }

  open(): Promise<unknown> {
    return this.run(() => this.opened());
  }

  private async opened(): Promise<void> {
    const first = !this.state.open;
    this.set({ open: true, unread: 0 });
    const contact = await this.ensureContact();
    if (first)
      await this.deps.api.event(contact.source_id, 'webwidget.triggered', { referer: document.referrer || null });
    await this.markSeen();
  }

  close(): void {
    this.set({ open: false });
  }

  private async markSeen(): Promise<void> {
    if (!this.contact || this.conversationId === null) return;
    const conversationId = this.conversationId;
    const newest = lastServerId(this.state.messages);
    await this.deps.api.markSeen(this.contact.source_id, conversationId);
    this.lastSeenAt = Date.now() / 1000;
    if (newest !== null) this.deps.seen.write(conversationId, newest);
  }

  /** Sends the visitor's message (shown at once, then confirmed or marked failed). */
  send(content: string, echoId = this.deps.newEchoId()): Promise<unknown> {
    const text = content.trim();
    if (!text) return Promise.resolve();
    const pending: Shown = {
      key: echoId,
      id: null,
      echoId,
      content: text,
      mine: true,
      sender: null,
      createdAt: Date.now() / 1000,
      state: 'sending',
      attachments: [],
    };
    this.set({
      messages: merge(
        this.state.messages.filter((m) => m.key !== echoId),
        pending,
      ),
      problem: null,
    });
    return this.run(async () => {
      try {
        const contact = await this.ensureContact();
        if (this.conversationId === null || this.state.status === 'resolved') {
          const conversation = await this.deps.api.startConversation(contact.source_id);
          this.conversationId = conversation.id;
          this.set({ status: conversation.status, messages: this.state.messages.filter((m) => m.id === null) });
        }
        const sent = await this.deps.api.send(contact.source_id, this.conversationId!, text, echoId);
        this.set({ messages: merge(this.state.messages, fromServer(sent)) });
      } catch (e) {
        this.set({
          messages: this.state.messages.map((m) => (m.key === echoId ? { ...m, state: 'failed' as const } : m)),
        });
        throw e;
      }
    });
  }

  private onPush(push: CablePush): void {
    if (push.event === 'conversation.status_changed') {
      if (Number(push.data.id) === this.conversationId) this.set({ status: String(push.data.status) });
      return;
    }
    const message = push.data as unknown as PublicMessage;
    if (push.event === 'message.created' && this.conversationId === null && message.message_type !== 0) {
      // An agent started a conversation with this visitor (e.g. a proactive message).
      this.conversationId = message.conversation_id;
    }
    if (message.conversation_id !== this.conversationId) return;
    const { messages, added } = applyPush(this.state.messages, push.event, message);
    const fromAgent = added && message.message_type !== 0;
    this.set({ messages, unread: this.state.unread + (fromAgent && !this.state.open ? 1 : 0) });
    if (!fromAgent) return;
    this.deps.post({ type: 'message', message: forHost(message) });
    if (this.state.open) void this.run(() => this.markSeen());
  }

  /** Once subscribed (again): what was created meanwhile, or the conversation started meanwhile (a campaign's). */
  private async catchUp(): Promise<void> {
    if (!this.contact) return;
    if (this.conversationId === null) {
      await this.loadConversation();
      if (this.state.open) await this.markSeen();
      return;
    }
    const after = lastServerId(this.state.messages);
    const missed = await this.deps.api.messages(this.contact.source_id, this.conversationId, {
      after: after ?? undefined,
    });
    let messages = this.state.messages;
    for (const m of missed) messages = merge(messages, fromServer(m));
    const seenId = this.deps.seen.read(this.conversationId);
    this.set({ messages, unread: this.state.open ? 0 : unreadAfter(messages, this.lastSeenAt, seenId) });
  }

  /** The page of messages before the first one shown (the visitor scrolled to the top). */
  loadOlder(): Promise<unknown> {
    return this.run(async () => {
      const first = this.state.messages.find((m) => m.id !== null)?.id;
      if (!this.contact || this.conversationId === null || !this.state.hasOlder || first == null) return;
      const older = await this.deps.api.messages(this.contact.source_id, this.conversationId, { before: first });
      let messages = this.state.messages;
      for (const m of older) messages = merge(messages, fromServer(m));
      this.set({ messages, hasOlder: older.length >= MESSAGE_PAGE });
    });
  }

  /** setUser: the contact gets the identity (created with it when there is none yet). */
  setUser(identifier: string, user: WidgetUser): Promise<unknown> {
    const fields: ContactFields = { identifier, ...user };
    return this.run(async () => {
      if (this.contact) this.useContact(await this.deps.api.updateContact(this.contact.source_id, fields));
      else await this.ensureContact(fields);
      if (this.state.problem === 'identityRefused') this.set({ problem: null });
    });
  }

  setCustomAttributes(attributes: Record<string, unknown>): Promise<unknown> {
    return this.run(async () => {
      const contact = await this.ensureContact();
      this.useContact(await this.deps.api.updateContact(contact.source_id, { custom_attributes: attributes }));
    });
  }

  /** The public API merges attributes: the nearest to deleting one is clearing its value (decision 0042). */
  deleteCustomAttribute(key: string): Promise<unknown> {
    return this.setCustomAttributes({ [key]: null });
  }

  /** A campaign fired on the host page: the server starts its conversation, which arrives on the channel. */
  campaign(campaignId: number): Promise<unknown> {
    return this.run(async () => {
      const contact = await this.ensureContact();
      await this.deps.api.event(contact.source_id, 'campaign.triggered', { campaign_id: campaignId });
    });
  }

  /** Conversation labels need a public route the server does not have yet (decision 0042). */
  label(action: 'set-label' | 'remove-label'): void {
    this.deps.post({
      type: 'error',
      code: 'not_supported',
      message: `${action} needs the server's public labels route`,
    });
  }

  /** The host's reset: a new visitor from now on (the loader cleared its cookie). */
  reset(): void {
    this.disconnect?.();
    this.disconnect = null;
    this.contact = null;
    this.conversationId = null;
    this.lastSeenAt = 0;
    this.set({ messages: [], status: null, unread: 0, open: false, problem: null, hasOlder: false });
  }
}
