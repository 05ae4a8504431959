import { defineStore } from 'pinia';
import { computed, shallowRef } from 'vue';
import type { ApiError } from '../../shared/api/errors.js';
import {
  api,
  sendForm,
  settle,
  type Conversation,
  type ConversationStatus,
  type Message,
  type Priority,
} from '../api.js';
import {
  dropPending,
  enqueue,
  newEchoId,
  newestId,
  oldestId,
  receive,
  updatePending,
  type PendingMessage,
  type Timeline,
} from '../conversations/message-timeline.js';
import type { ServerEvent } from '../conversations/server-events.js';
import { errorSentence } from '../errors.js';
import { applyServerEvent, onServerEvent } from './server-events.js';

/** The API's page of messages (the latest, or those before a message). */
const MESSAGE_PAGE = 20;
/** The API's most messages after a message. */
const CATCH_UP_PAGE = 100;

export interface Draft {
  content: string;
  private: boolean;
  files: readonly File[];
}

/** A change an agent makes to a conversation from its screen. */
export type ConversationChange =
  | { kind: 'assignee'; agent: Conversation['assignee'] }
  | { kind: 'team'; team: Conversation['team'] }
  | { kind: 'priority'; priority: Priority }
  | { kind: 'labels'; labels: string[] }
  | { kind: 'status'; status: ConversationStatus; snoozedUntil?: number | null };

const EMPTY: Timeline<Message> = { messages: [], pending: [] };

/**
 * The conversation on screen: the conversation, its messages (the newest page, older pages on
 * request, each message once) and what this device is sending. It owns its requests and applies
 * server events (`apply`). A change (assign, labels, priority, status) is shown at once as an
 * event, sent, and then replaced by the server's answer, or undone with the server's reason.
 */
export const useConversationStore = defineStore('conversation', () => {
  const accountId = shallowRef<number | null>(null);
  const conversation = shallowRef<Conversation | null>(null);
  const timeline = shallowRef<Timeline<Message>>(EMPTY);
  const hasOlder = shallowRef(false);
  const loading = shallowRef(false);
  const loadingOlder = shallowRef(false);
  const error = shallowRef<ApiError | null>(null);
  let generation = 0;

  const id = computed(() => conversation.value?.id ?? null);
  const path = (conversationId: number) => ({ accountId: accountId.value ?? 0, id: conversationId });
  const messagesUrl = (conversationId: number) =>
    `/api/v1/accounts/${accountId.value}/conversations/${conversationId}/messages`;

  /** Opens a conversation: it and its newest messages, read together. */
  async function open(account: number, conversationId: number): Promise<void> {
    const mine = ++generation;
    accountId.value = account;
    if (conversation.value?.id !== conversationId) {
      conversation.value = null;
      timeline.value = EMPTY;
    }
    loading.value = true;
    error.value = null;
    const [c, m] = await Promise.all([
      settle(api.GET('/api/v1/accounts/{accountId}/conversations/{id}', { params: { path: path(conversationId) } })),
      settle(
        api.GET('/api/v1/accounts/{accountId}/conversations/{id}/messages', { params: { path: path(conversationId) } }),
      ),
    ]);
    if (mine !== generation) return;
    loading.value = false;
    if (!c.ok || !m.ok) {
      error.value = !c.ok ? c.error : m.ok ? null : m.error;
      return;
    }
    conversation.value = c.data;
    timeline.value = receive({ messages: [], pending: timeline.value.pending }, m.data.payload);
    hasOlder.value = m.data.payload.length >= MESSAGE_PAGE;
    // Read now: the server resets the unread count (the list follows through markOpen).
    void settle(
      api.POST('/api/v1/accounts/{accountId}/conversations/{id}/update_last_seen', {
        params: { path: path(conversationId) },
      }),
    );
  }

  /** Closes the conversation (the list is alone on screen). */
  function close(): void {
    generation++;
    conversation.value = null;
    timeline.value = EMPTY;
    error.value = null;
  }

  /** The page of messages before the oldest one on screen (scrolling up). */
  async function loadOlder(): Promise<void> {
    const current = id.value;
    const before = oldestId(timeline.value);
    if (current === null || before === undefined || !hasOlder.value || loadingOlder.value) return;
    loadingOlder.value = true;
    const outcome = await settle(
      api.GET('/api/v1/accounts/{accountId}/conversations/{id}/messages', {
        params: { path: path(current), query: { before } },
      }),
    );
    loadingOlder.value = false;
    if (!outcome.ok || id.value !== current) return;
    timeline.value = receive(timeline.value, outcome.data.payload);
    hasOlder.value = outcome.data.payload.length >= MESSAGE_PAGE;
  }

  /** Messages newer than the newest on screen (after a change, the server's activity line with them). */
  async function catchUp(): Promise<void> {
    const current = id.value;
    let after = newestId(timeline.value);
    while (current !== null && after !== undefined) {
      const outcome = await settle(
        api.GET('/api/v1/accounts/{accountId}/conversations/{id}/messages', {
          params: { path: path(current), query: { after } },
        }),
      );
      if (!outcome.ok || id.value !== current) return;
      timeline.value = receive(timeline.value, outcome.data.payload);
      if (outcome.data.payload.length < CATCH_UP_PAGE) return;
      after = newestId(timeline.value);
    }
  }

  async function post(conversationId: number, pending: PendingMessage) {
    const fields = { content: pending.content, private: pending.private, echo_id: pending.echoId };
    if (pending.files.length === 0) {
      return settle(
        api.POST('/api/v1/accounts/{accountId}/conversations/{id}/messages', {
          params: { path: path(conversationId) },
          body: fields,
        }),
      );
    }
    const form = new FormData();
    if (fields.content) form.append('content', fields.content);
    form.append('private', String(fields.private));
    form.append('echo_id', fields.echo_id);
    for (const file of pending.files) form.append('attachments[]', file, file.name);
    return sendForm<Message>(messagesUrl(conversationId), form, (progress) => {
      if (id.value === conversationId) timeline.value = updatePending(timeline.value, pending.echoId, { progress });
    });
  }

  async function deliver(conversationId: number, pending: PendingMessage): Promise<boolean> {
    const outcome = await post(conversationId, pending);
    if (id.value !== conversationId) return outcome.ok;
    if (!outcome.ok) {
      timeline.value = updatePending(timeline.value, pending.echoId, {
        state: 'failed',
        error: errorSentence(outcome.error),
      });
      return false;
    }
    applyServerEvent({ event: 'message.created', data: outcome.data });
    return true;
  }

  /** Sends a reply or a private note (with files); it shows at once and once. */
  async function send(draft: Draft): Promise<boolean> {
    const current = id.value;
    if (current === null) return false;
    const pending: PendingMessage = {
      echoId: newEchoId(),
      content: draft.content.trim(),
      private: draft.private,
      files: draft.files,
      progress: draft.files.length ? 0 : 1,
      state: 'sending',
      createdAt: Math.floor(Date.now() / 1000),
    };
    timeline.value = enqueue(timeline.value, pending);
    return deliver(current, pending);
  }

  /** Sends a failed message again (same echo id, so it cannot appear twice). */
  async function retry(echoId: string): Promise<void> {
    const current = id.value;
    const pending = timeline.value.pending.find((p) => p.echoId === echoId);
    if (current === null || !pending) return;
    timeline.value = updatePending(timeline.value, echoId, { state: 'sending', error: undefined, progress: 0 });
    await deliver(current, { ...pending, state: 'sending' });
  }

  function discard(echoId: string): void {
    timeline.value = dropPending(timeline.value, echoId);
  }

  function apply(event: ServerEvent): void {
    const current = conversation.value;
    if (!current || event.data.account_id !== accountId.value) return;
    if (event.event.startsWith('conversation.')) {
      if (event.data.id === current.id) conversation.value = event.data as Conversation;
      return;
    }
    const message = event.data as Message;
    if (message.conversation_id !== current.id) return;
    timeline.value = receive(timeline.value, [message]);
    conversation.value = { ...current, last_activity_at: Math.max(current.last_activity_at, message.created_at) };
  }
  onServerEvent(apply);

  /** The conversation as a change will leave it (shown before the server answers). */
  function expected(c: Conversation, change: ConversationChange): Conversation {
    switch (change.kind) {
      case 'assignee':
        return { ...c, assignee: change.agent, meta: { ...c.meta, assignee: change.agent } };
      case 'team':
        return { ...c, team: change.team, meta: { ...c.meta, team: change.team } };
      case 'priority':
        return { ...c, priority: change.priority };
      case 'labels':
        return { ...c, labels: change.labels };
      case 'status':
        return { ...c, status: change.status, snoozed_until: change.snoozedUntil ?? null };
    }
  }

  async function request(c: Conversation, change: ConversationChange) {
    const params = { path: path(c.id) };
    const patch = (body: { assignee_id?: number | null; team_id?: number | null; priority?: Priority }) =>
      settle(api.PATCH('/api/v1/accounts/{accountId}/conversations/{id}', { params, body }));
    const reread = async (outcome: { ok: true } | { ok: false; error: ApiError }) =>
      outcome.ok
        ? settle(api.GET('/api/v1/accounts/{accountId}/conversations/{id}', { params }))
        : { ok: false as const, error: outcome.error };
    switch (change.kind) {
      case 'assignee':
        return patch({ assignee_id: change.agent?.id ?? null });
      case 'team':
        return patch({ team_id: change.team?.id ?? null });
      case 'priority':
        return patch({ priority: change.priority });
      case 'labels':
        return reread(
          await settle(
            api.POST('/api/v1/accounts/{accountId}/conversations/{id}/labels', {
              params,
              body: { labels: change.labels },
            }),
          ),
        );
      case 'status':
        return reread(
          await settle(
            api.POST('/api/v1/accounts/{accountId}/conversations/{id}/toggle_status', {
              params,
              body: {
                status: change.status,
                ...(change.status === 'snoozed' ? { snoozed_until: change.snoozedUntil ?? null } : {}),
              },
            }),
          ),
        );
    }
  }

  /**
   * Changes the conversation: shown at once (header, list, counts), then the server's answer is
   * applied, or the change is undone. Returns the refusal, if any.
   */
  async function change(next: ConversationChange): Promise<ApiError | null> {
    const before = conversation.value;
    if (!before) return null;
    const shown = expected(before, next);
    applyServerEvent({ event: 'conversation.updated', data: shown }, before);
    const outcome = await request(before, next);
    if (!outcome.ok) {
      applyServerEvent({ event: 'conversation.updated', data: before }, shown);
      return outcome.error;
    }
    const event = next.kind === 'status' ? 'conversation.status_changed' : 'conversation.updated';
    applyServerEvent({ event, data: outcome.data }, shown);
    void catchUp();
    return null;
  }

  return {
    accountId,
    conversation,
    timeline,
    hasOlder,
    loading,
    loadingOlder,
    error,
    open,
    close,
    loadOlder,
    catchUp,
    send,
    retry,
    discard,
    apply,
    change,
  };
});
