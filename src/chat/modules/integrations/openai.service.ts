import { HttpError, invalidField, unprocessable } from '../../../core/http/errors.js';
import { parseJsonObject } from '../../../core/time.js';
import { DestinationGuard } from '../../../core/webhooks/destination-guard.js';
import { assertStaff, type AccountContext, type ChatDeps } from '../../context.js';
import type { Conversation } from '../../db/schema.js';
import type { ConversationsService } from '../conversations/conversations.service.js';
import type { MessagesService } from '../messages/messages.service.js';
import { OPENAI_APP, OPENAI_DEFAULT_BASE_URL, OPENAI_DEFAULT_MODEL } from './integrations.apps.js';
import { CONVERSATION_EVENTS, TEXT_EVENTS, type AssistantEvent, type ProcessBody } from './integrations.schema.js';
import type { IntegrationsService } from './integrations.service.js';
import { OpenAiClient, type ChatMessage } from './openai.client.js';
import { replySuggestionMessages, rewriteMessages, summaryMessages, type TranscriptLine } from './openai.prompts.js';
import { t } from '../../../core/i18n/catalogue.js';

/** The latest messages of a conversation sent as context, at most (read 20 at a time: MessagesService.window). */
export const CONTEXT_MESSAGES = 60;
const PAGE = 20;
/** And at most this many characters of them, the newest kept. */
export const CONTEXT_CHARACTERS = 24_000;

const EVENTS: readonly AssistantEvent[] = [...CONVERSATION_EVENTS, ...TEXT_EVENTS];
const isConversationEvent = (name: AssistantEvent): name is (typeof CONVERSATION_EVENTS)[number] =>
  (CONVERSATION_EVENTS as readonly string[]).includes(name);

export interface OpenAiAssistantServices {
  integrations: IntegrationsService;
  conversations: ConversationsService;
  messages: MessagesService;
}

/**
 * The openai app at work (`POST {A}/integrations/hooks/{id}/process`): reply suggestions and
 * summaries of a conversation, and rewrites of a text, by an OpenAI-compatible endpoint. Any member
 * of the account may use an enabled hook, on the conversations they may see. Nothing is written;
 * the call to the endpoint happens outside any transaction.
 */
export class OpenAiAssistant {
  private readonly client: OpenAiClient;

  constructor(
    private readonly deps: ChatDeps,
    private readonly services: OpenAiAssistantServices,
  ) {
    // The same guard as outgoing webhooks (WEBHOOK_ALLOWED_HOSTS), on every resolved address.
    this.client = new OpenAiClient({
      guard: new DestinationGuard(deps.config.webhooks.allowedHosts),
      timeoutMs: deps.config.integrations.timeoutMs,
    });
  }

  async process(ctx: AccountContext, hookId: number, body: ProcessBody): Promise<{ message: string }> {
    assertStaff(ctx);
    const name = body.event.name.trim() as AssistantEvent;
    if (!EVENTS.includes(name))
      throw invalidField('event.name', t('must be one of: %{values}', { values: EVENTS.join(', ') }));
    const { hook, settings, secrets } = await this.services.integrations.usable(ctx, hookId, OPENAI_APP.id);
    const data = body.event.data ?? {};
    let messages: ChatMessage[];
    if (isConversationEvent(name)) {
      const field = 'event.data.conversation_display_id';
      const displayId = data.conversation_display_id ?? data.conversation_id;
      if (displayId === undefined) throw invalidField(field, t('is required for %{event}', { event: name }));
      const conversation = await this.services.conversations.get(ctx, displayId);
      if (hook.inbox_id !== null && conversation.inbox_id !== hook.inbox_id)
        throw invalidField(
          field,
          t('is not in inbox %{inbox}, the only inbox hook %{hook} serves', { inbox: hook.inbox_id, hook: hook.id }),
        );
      const lines = await this.transcript(conversation);
      if (lines.length === 0)
        throw unprocessable('The conversation has no messages to work from', [
          { field, message: 'has no messages to work from' },
        ]);
      messages = name === 'summarize' ? summaryMessages(lines) : replySuggestionMessages(lines);
    } else {
      const content = data.content?.trim();
      if (!content) throw invalidField('event.data.content', t("can't be blank for %{event}", { event: name }));
      messages = rewriteMessages(name, content);
    }
    const apiKey = secrets.api_key;
    if (!apiKey)
      throw new HttpError(
        422,
        'secret_unreadable',
        t('Hook %{id} has no API key: save one with PATCH', { id: hook.id }),
      );
    const message = await this.client.complete({
      baseUrl: settings.base_url ?? OPENAI_DEFAULT_BASE_URL,
      apiKey,
      model: settings.model ?? OPENAI_DEFAULT_MODEL,
      messages,
    });
    return { message };
  }

  /**
   * The conversation as the customer saw it (no private notes, no activities, no deleted messages,
   * nothing without text): its latest CONTEXT_MESSAGES messages, oldest first, trimmed from the
   * oldest to CONTEXT_CHARACTERS. At most CONTEXT_MESSAGES / 20 pages of a few queries each.
   */
  private async transcript(conversation: Conversation): Promise<TranscriptLine[]> {
    const views = [];
    let before: number | undefined;
    while (views.length < CONTEXT_MESSAGES) {
      const page = await this.services.messages.window(
        this.deps.db,
        conversation,
        { before },
        { contactVisible: true },
      );
      views.unshift(...page);
      if (page.length < PAGE) break;
      before = page[0].message.id;
    }
    const lines: TranscriptLine[] = [];
    let budget = CONTEXT_CHARACTERS;
    for (const { message } of views.slice(-CONTEXT_MESSAGES).reverse()) {
      const content = message.content?.trim();
      if (!content || parseJsonObject(message.content_attributes).deleted === true) continue;
      if (message.message_type !== 0 && message.message_type !== 1 && message.message_type !== 3) continue;
      if (budget <= 0) break;
      const text = content.length > budget ? `${content.slice(0, budget)}...` : content;
      budget -= text.length;
      lines.push({ from: message.message_type === 0 ? 'customer' : 'agent', content: text });
    }
    return lines.reverse();
  }
}
