import { HttpError, invalidField, unprocessable } from '../../../core/http/errors.js';
import { enqueueEmail } from '../../../core/mail/outgoing-emails.js';
import type { AccountContext, ChatDeps, Q, Trx } from '../../context.js';
import type { AgentsService } from '../agents/agents.service.js';
import { normalizeLabels } from '../labels/labels.names.js';
import type { ConversationChangesService } from '../conversations/conversation-changes.service.js';
import { MAX_LABELS, PRIORITIES, type PriorityName } from '../conversations/conversations.schema.js';
import type { ConversationsService } from '../conversations/conversations.service.js';
import type { MessagesService } from '../messages/messages.service.js';
import { ACTION_NAMES, type ActionName, type RuleAction } from './automation-rules.schema.js';
import { composeRuleEmail } from './automation.email.js';
import { t, type Text } from '../../../core/i18n/catalogue.js';
import { languageOfLocale } from '../../../core/i18n/language.js';
import type { AccountsService } from '../accounts/accounts.service.js';

/** An action as stored: a known name and params checked and normalized for it. */
export interface StoredAction {
  action_name: ActionName;
  action_params: (string | number)[];
}

export const RULE_STATUSES = ['open', 'resolved', 'pending'] as const;
export const MAX_EMAIL_RECIPIENTS = 10;
const EMAIL =
  /^[^\s@<>(),;:"\\[\]]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)+$/;

/** What validating an action may look up. */
export interface ActionCheckServices {
  agents: AgentsService;
  conversations: ConversationsService;
}

/**
 * Checks every action (422 naming `actions.<i>.action_name` or `actions.<i>.action_params`) and
 * returns them normalized: ids as numbers, labels trimmed and lower-cased, e-mails trimmed.
 * Referenced agents and teams must belong to the account.
 */
export async function validateActions(
  q: Q,
  accountId: number,
  actions: readonly RuleAction[],
  services: ActionCheckServices,
): Promise<StoredAction[]> {
  const out: StoredAction[] = [];
  for (const [i, action] of actions.entries()) {
    const field = `actions.${i}.action_params`;
    const name = action.action_name as ActionName;
    if (!(ACTION_NAMES as readonly string[]).includes(name)) {
      throw invalidField(
        `actions.${i}.action_name`,
        t("'%{name}' is not an action (use %{names})", { name: action.action_name, names: ACTION_NAMES.join(', ') }),
      );
    }
    const params = action.action_params ?? [];
    const fail = (message: Text): never => {
      throw invalidField(field, message);
    };
    const one = () => (params.length === 1 ? params[0] : fail('must hold exactly one value'));
    const strings = () => params.map((p) => (typeof p === 'string' ? p.trim() : fail('must be strings')));
    const oneOf = (allowed: readonly string[]) => {
      const v = String(one()).trim().toLowerCase();
      return allowed.includes(v)
        ? v
        : fail(t("'%{value}' is not one of %{allowed}", { value: String(one()), allowed: allowed.join(', ') }));
    };
    switch (name) {
      case 'assign_agent': {
        const id = idOf(one(), fail);
        const [agent] = await services.agents.byIds(q, accountId, [id]);
        if (!agent) fail(t('%{id} is not an agent of this account', { id }));
        out.push({ action_name: name, action_params: [id] });
        break;
      }
      case 'assign_team': {
        const id = idOf(one(), fail);
        await services.conversations.checkTeam(q, accountId, id).catch((err) => {
          throw err instanceof HttpError && err.statusCode === 422
            ? invalidField(field, t('%{id} is not a team of this account', { id }))
            : err;
        });
        out.push({ action_name: name, action_params: [id] });
        break;
      }
      case 'add_label':
      case 'remove_label': {
        if (params.length === 0) fail('must name at least one label');
        if (params.length > MAX_LABELS) fail(t('must name at most %{max} labels', { max: MAX_LABELS }));
        out.push({ action_name: name, action_params: normalizeLabels(strings(), field) });
        break;
      }
      case 'send_email': {
        if (params.length === 0) fail('must name at least one e-mail address');
        if (params.length > MAX_EMAIL_RECIPIENTS)
          fail(t('must name at most %{max} e-mail addresses', { max: MAX_EMAIL_RECIPIENTS }));
        const emails = strings();
        const bad = emails.find((e) => e.length > 254 || !EMAIL.test(e));
        if (bad !== undefined) fail(t("'%{address}' is not a valid e-mail address", { address: bad }));
        out.push({ action_name: name, action_params: [...new Set(emails)] });
        break;
      }
      case 'mute_conversation':
        if (params.length > 0) fail('must be empty');
        out.push({ action_name: name, action_params: [] });
        break;
      case 'change_status':
        out.push({ action_name: name, action_params: [oneOf(RULE_STATUSES)] });
        break;
      case 'change_priority':
        out.push({ action_name: name, action_params: [oneOf(PRIORITIES)] });
        break;
      case 'add_sla': {
        const id = idOf(one(), fail);
        if (!(await services.conversations.slaPolicyExists(q, accountId, id)))
          fail(t('%{id} is not an SLA policy of this account', { id }));
        out.push({ action_name: name, action_params: [id] });
        break;
      }
    }
  }
  return out;
}

function idOf(value: string | number, fail: (message: Text) => never): number {
  const n = typeof value === 'number' ? value : /^\d{1,10}$/.test(value.trim()) ? Number(value) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= 2147483647 ? n : fail('must be an id');
}

/** The services an action runs through (each call joins the event's transaction). */
export interface ActionServices {
  accounts: AccountsService;
  conversations: ConversationsService;
  conversationChanges: ConversationChangesService;
  messages: MessagesService;
}

export interface ActionTarget {
  ctx: AccountContext;
  displayId: number;
  rule: { id: number; name: string; event_name: string };
  /** The event that triggered the rule. */
  eventName: string;
}

/** Applies one kind of action to the target conversation, in the run's transaction. */
export type ConversationActionHandler = (
  trx: Trx,
  deps: ChatDeps,
  services: ActionServices,
  target: ActionTarget,
  params: StoredAction['action_params'],
) => Promise<void>;

/**
 * The conversation action registry (automation.runner.ts): one handler per action name, each
 * going through the module services (so each change records its events, with origin
 * 'automation'). Typed by ACTION_NAMES, so an action without a handler does not compile.
 * `send_email` only queues the e-mail (core/mail): it is sent by the mail worker after the
 * dispatch transaction commits.
 */
export const CONVERSATION_ACTIONS: Readonly<Record<ActionName, ConversationActionHandler>> = {
  async assign_agent(trx, _deps, services, { ctx, displayId }, params) {
    await services.conversationChanges.assign(ctx, displayId, { assignee_id: Number(params[0]) }, trx);
  },
  async assign_team(trx, _deps, services, { ctx, displayId }, params) {
    await services.conversationChanges.assign(ctx, displayId, { team_id: Number(params[0]) }, trx);
  },
  async add_label(trx, _deps, services, { ctx, displayId }, params) {
    const changes = services.conversationChanges;
    const current = await changes.labels(ctx, displayId, trx);
    const next = [...new Set([...current, ...params.map(String)])];
    if (next.length > MAX_LABELS)
      throw unprocessable(t('a conversation has at most %{max} labels', { max: MAX_LABELS }));
    await changes.replaceLabels(ctx, displayId, next, trx);
  },
  async remove_label(trx, _deps, services, { ctx, displayId }, params) {
    const changes = services.conversationChanges;
    const current = await changes.labels(ctx, displayId, trx);
    const removed = new Set(params.map(String));
    await changes.replaceLabels(
      ctx,
      displayId,
      current.filter((l) => !removed.has(l)),
      trx,
    );
  },
  async mute_conversation(trx, _deps, services, { ctx, displayId }) {
    await services.conversationChanges.mute(ctx, displayId, trx);
  },
  async change_status(trx, _deps, services, { ctx, displayId }, params) {
    await services.conversationChanges.toggleStatus(
      ctx,
      displayId,
      { status: String(params[0]) as (typeof RULE_STATUSES)[number] },
      trx,
    );
  },
  async change_priority(trx, _deps, services, { ctx, displayId }, params) {
    await services.conversationChanges.togglePriority(ctx, displayId, String(params[0]) as PriorityName, trx);
  },
  async add_sla(trx, _deps, services, { ctx, displayId }, params) {
    const conversation = await services.conversations.get(ctx, displayId, trx);
    await services.conversations.applySla(trx, ctx, conversation, Number(params[0]));
  },
  async send_email(trx, deps, services, target, params) {
    const { ctx, displayId } = target;
    const conversation = await services.conversations.get(ctx, displayId, trx);
    const [bundle, messages, account] = await Promise.all([
      services.conversations.bundles.loadOne(trx, conversation, { messages: false }),
      services.messages.window(trx, conversation, {}, { contactVisible: true }),
      services.accounts.find(trx, ctx.accountId),
    ]);
    const email = composeRuleEmail({
      rule: target.rule,
      eventName: target.eventName,
      bundle,
      messages,
      publicUrl: deps.config.chat.publicUrl,
      language: languageOfLocale(account?.locale),
    });
    await enqueueEmail(trx, {
      accountId: ctx.accountId,
      source: `automation_rule:${target.rule.id}`,
      to: params.map(String),
      subject: email.subject,
      text: email.text,
    });
  },
};

/** Applies one stored action to the conversation through its registry entry. */
export async function applyAction(
  trx: Trx,
  deps: ChatDeps,
  services: ActionServices,
  target: ActionTarget,
  action: StoredAction,
): Promise<void> {
  // Stored actions were validated on write; a name without a handler does nothing, as before.
  if (!Object.hasOwn(CONVERSATION_ACTIONS, action.action_name)) return;
  await CONVERSATION_ACTIONS[action.action_name](trx, deps, services, target, action.action_params);
}
