import { enqueueEmail } from '../../../core/mail/outgoing-emails.js';
import type { ContactLabelsService } from '../contacts/contact-labels.service.js';
import type { AccountContext, ChatDeps, Q, Trx } from '../../context.js';
import { HttpError, unprocessable } from '../../../core/http/errors.js';
import { enqueueDelivery } from '../../../core/webhooks/deliveries.js';
import type { DestinationGuard } from '../../../core/webhooks/destination-guard.js';
import { checkOutboundAddress } from '../../../core/webhooks/outbound-policy.js';
import type { AgentsService } from '../agents/agents.service.js';
import type { ConversationsService } from '../conversations/conversations.service.js';
import type { ConversationMessagesService } from '../messages/conversation-messages.service.js';
import type { CardDealsService } from '../pipelines/card-deals.service.js';
import type { CardMovesService } from '../pipelines/card-moves.service.js';
import type { CardTimelineService } from '../pipelines/card-timeline.service.js';
import type { PipelineCardsService } from '../pipelines/pipeline-cards.service.js';
import type { PipelinesService } from '../pipelines/pipelines.service.js';
import type { CardSubject } from './automation-card.subject.js';
import * as repo from './pipeline-automations.repository.js';
import { renderTemplate, TEMPLATE_VARIABLES, unknownVariables } from './automation.template.js';
import { t, type Text } from '../../../core/i18n/catalogue.js';

/** A validation problem, addressed by its path in the automation (`actions.0.to`). */
export interface Problem {
  path: string;
  message: Text;
}

/** What checking an action may look up, and where it reports. */
export interface CheckContext {
  q: Q;
  accountId: number;
  path: string;
  errors: Problem[];
  warnings: Problem[];
  services: ActionServices;
}

/** The services actions run through (each call joins the run's transaction). */
export interface ActionServices {
  agents: AgentsService;
  pipelines: PipelinesService;
  pipelineCards: PipelineCardsService;
  pipelineCardMoves: CardMovesService;
  pipelineDeals: CardDealsService;
  pipelineCardTimeline: CardTimelineService;
  conversations: ConversationsService;
  conversationMessages: ConversationMessagesService;
  contactLabels: ContactLabelsService;
  /** Where send_webhook may deliver (WEBHOOK_ALLOWED_HOSTS, public addresses). */
  destinations: DestinationGuard;
}

export interface RunContext {
  trx: Trx;
  deps: ChatDeps;
  ctx: AccountContext;
  services: ActionServices;
  automation: { id: number; name: string };
}

/**
 * One kind of action: how its parameters are checked (every problem reported, nothing thrown),
 * what they become on a given card (templates rendered: what dry_run shows), and how it is applied
 * through the owning module's services, acting as the automation.
 */
export interface ActionDefinition {
  check(params: Record<string, unknown>, check: CheckContext): Promise<void>;
  resolve(params: Record<string, unknown>, subject: CardSubject): Record<string, unknown>;
  run(resolved: Record<string, unknown>, subject: CardSubject, run: RunContext): Promise<void>;
}

/** The delivery queue's subscriber type of send_webhook deliveries (the automation signs them). */
export const AUTOMATION_SUBSCRIBER = 'pipeline_automation';

const EMAIL = /^[^\s@<>(),;:"\\[\]]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9-]{1,63})+$/;
const MAX_TEXT = 5000;

const problem = (check: CheckContext, key: string, message: Text): void => {
  check.errors.push({ path: `${check.path}.${key}`, message });
};

/** A required template text: present, not blank, not too long, naming only the known variables. */
function checkText(params: Record<string, unknown>, key: string, check: CheckContext, required = true): void {
  const value = params[key];
  if (value === undefined || value === null) {
    if (required) problem(check, key, 'is required');
    return;
  }
  if (typeof value !== 'string') return problem(check, key, 'must be a string');
  if (required && value.trim() === '') return problem(check, key, "can't be blank");
  if (value.length > MAX_TEXT) return problem(check, key, t('must be at most %{max} characters', { max: MAX_TEXT }));
  const unknown = unknownVariables(value);
  if (unknown.length > 0)
    problem(
      check,
      key,
      t('names unknown variables %{names} (use %{variables})', {
        names: unknown.join(', '),
        variables: TEMPLATE_VARIABLES.join(', '),
      }),
    );
}

const text = (params: Record<string, unknown>, key: string, subject: CardSubject) =>
  typeof params[key] === 'string' ? renderTemplate(params[key], subject.values) : null;

const isId = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 2147483647;

/** The action registry: `type` -> definition. Adding an action is one entry here. */
export const ACTIONS: Readonly<Record<string, ActionDefinition>> = {
  move_to_stage: {
    async check(params, check) {
      const to = params.to;
      if (typeof to !== 'string' || to.trim() === '') return problem(check, 'to', 'must name a stage id');
      if (!(await check.services.pipelines.stageByKey(check.q, check.accountId, to)))
        problem(check, 'to', t("'%{stage}' is not a stage of this account", { stage: to }));
    },
    resolve: (params) => ({ to: params.to }),
    async run(resolved, subject, { trx, ctx, services }) {
      await services.pipelineCardMoves.move(ctx, subject.id, { pipeline_stage: String(resolved.to) }, trx);
    },
  },

  assign_owner: {
    async check(params, check) {
      if (params.strategy !== undefined) {
        if (params.strategy !== 'round_robin') return problem(check, 'strategy', 'must be round_robin');
        if (!isId(params.team_id)) return problem(check, 'team_id', 'must be an id');
        const team = await check.services.conversations
          .checkTeam(check.q, check.accountId, params.team_id)
          .catch(() => null);
        if (!team)
          return problem(check, 'team_id', t('%{id} is not a team of this account', { id: String(params.team_id) }));
        const agents = await repo.teamAgentIds(check.q, check.accountId, params.team_id);
        if (agents.length === 0)
          check.warnings.push({ path: `${check.path}.team_id`, message: 'the team has no agents' });
        return;
      }
      if (!isId(params.owner_id)) return problem(check, 'owner_id', 'must be an id');
      const [agent] = await check.services.agents.byIds(check.q, check.accountId, [params.owner_id]);
      if (!agent)
        problem(check, 'owner_id', t('%{id} is not an agent of this account', { id: String(params.owner_id) }));
    },
    resolve: (params) =>
      params.strategy === 'round_robin'
        ? { strategy: 'round_robin', team_id: params.team_id }
        : { owner_id: params.owner_id },
    async run(resolved, subject, { trx, ctx, services, automation }) {
      let ownerId = Number(resolved.owner_id);
      if (resolved.strategy === 'round_robin') {
        const agents = await repo.teamAgentIds(trx, ctx.accountId, Number(resolved.team_id));
        const next = await repo.advanceRoundRobin(trx, ctx.accountId, automation.id, agents);
        if (next === null) throw unprocessable('The team has no agents to assign');
        ownerId = next;
      }
      await services.pipelineCards.assign(ctx, subject.id, ownerId, trx);
    },
  },

  add_note: {
    check: async (params, check) => checkText(params, 'content', check),
    resolve: (params, subject) => ({ content: text(params, 'content', subject) }),
    async run(resolved, subject, { trx, ctx, services }) {
      await services.pipelineCardTimeline.addNote(ctx, subject.id, String(resolved.content), trx);
    },
  },

  mark_won: {
    check: async (params, check) => checkText(params, 'won_note', check, false),
    resolve: (params, subject) => ({ won_note: text(params, 'won_note', subject) }),
    async run(resolved, subject, { trx, ctx, services }) {
      await services.pipelineDeals.markWon(ctx, subject.id, { won_note: resolved.won_note as string | null }, trx);
    },
  },

  mark_lost: {
    check: async (params, check) => checkText(params, 'lost_reason', check, false),
    resolve: (params, subject) => ({ lost_reason: text(params, 'lost_reason', subject) }),
    async run(resolved, subject, { trx, ctx, services }) {
      const reason = (resolved.lost_reason as string | null) ?? undefined;
      await services.pipelineDeals.markLost(ctx, subject.id, { lost_reason: reason }, trx);
    },
  },

  update_custom_attribute: {
    async check(params, check) {
      if (typeof params.key !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(params.key))
        problem(check, 'key', 'must be 1-64 letters, digits, _ or -');
      const v = params.value;
      if (!(v === null || ['string', 'number', 'boolean'].includes(typeof v)))
        problem(check, 'value', 'must be a string, a number, a boolean or null');
      else if (typeof v === 'string') checkText(params, 'value', check, false);
    },
    resolve: (params, subject) => ({
      key: params.key,
      value: typeof params.value === 'string' ? text(params, 'value', subject) : params.value,
    }),
    async run(resolved, subject, { trx, ctx, services }) {
      const current = subject.view.card.custom_attributes;
      const attributes = { ...(JSON.parse(current || '{}') as Record<string, unknown>) };
      attributes[String(resolved.key)] = resolved.value;
      await services.pipelineCards.update(ctx, subject.id, { custom_attributes: attributes }, trx);
    },
  },

  add_label: {
    async check(params, check) {
      const labels = params.labels;
      if (!Array.isArray(labels) || labels.length === 0 || labels.length > 20)
        return problem(check, 'labels', 'must be 1 to 20 labels');
      labels.forEach((label, i) => {
        if (typeof label !== 'string' || label.trim() === '') problem(check, `labels.${i}`, "can't be blank");
        else if (label.trim().length > 255) problem(check, `labels.${i}`, 'must be at most 255 characters');
        else if (label.includes(',')) problem(check, `labels.${i}`, 'must not contain commas');
      });
    },
    resolve: (params) => ({ labels: (params.labels as string[]).map((l) => l.trim().toLowerCase()) }),
    async run(resolved, subject, { trx, ctx, services }) {
      const contactId = subject.view.card.contact_id;
      if (contactId === null) throw unprocessable('The card has no contact to label');
      await services.contactLabels.add(trx, ctx, contactId, resolved.labels as string[]);
    },
  },

  send_message: {
    async check(params, check) {
      checkText(params, 'content', check);
      if (params.private !== undefined && typeof params.private !== 'boolean')
        problem(check, 'private', 'must be true or false');
    },
    resolve: (params, subject) => ({ content: text(params, 'content', subject), private: params.private === true }),
    async run(resolved, subject, { trx, ctx, services }) {
      const displayId = subject.view.conversation?.id;
      if (displayId === undefined) throw unprocessable('The card has no linked conversation to send a message to');
      const conversation = await services.conversations.get(ctx, displayId, trx);
      await services.conversationMessages.createInTransaction(trx, ctx, conversation, {
        content: String(resolved.content),
        message_type: 'outgoing',
        private: resolved.private === true,
      });
    },
  },

  send_webhook: {
    async check(params, check) {
      if (typeof params.url !== 'string' || params.url.length > 2048) return problem(check, 'url', 'must be a URL');
      try {
        checkOutboundAddress(check.services.destinations, 'url', params.url);
      } catch (err) {
        if (!(err instanceof HttpError)) throw err;
        problem(check, 'url', err.details?.[0]?.message ?? err.text);
      }
    },
    resolve: (params) => ({ url: typeof params.url === 'string' ? params.url.trim() : params.url }),
    async run(resolved, subject, { trx, ctx, automation }) {
      const { view } = subject;
      await enqueueDelivery(trx, {
        accountId: ctx.accountId,
        subscriberType: AUTOMATION_SUBSCRIBER,
        subscriberId: automation.id,
        url: String(resolved.url),
        eventName: 'pipeline_automation_triggered',
        eventId: null,
        payload: {
          event: 'pipeline_automation_triggered',
          automation: { id: automation.id, name: automation.name },
          card: {
            id: view.card.id,
            title: view.card.title,
            pipeline: view.pipeline,
            stage: view.stage,
            status: view.card.status,
            value: subject.attributes.value,
            currency: view.card.currency,
            lead_score: view.card.lead_score,
            owner: view.owner,
            contact: view.contact,
            conversation: view.conversation,
          },
          account: { id: ctx.accountId },
        },
      });
    },
  },

  send_email: {
    async check(params, check) {
      const to = params.to;
      const list = typeof to === 'string' ? [to] : to;
      if (!Array.isArray(list) || list.length === 0 || list.length > 10)
        problem(check, 'to', 'must be 1 to 10 e-mail addresses');
      else
        for (const address of list)
          if (typeof address !== 'string' || address.length > 254 || !EMAIL.test(address.trim()))
            problem(check, 'to', t("'%{address}' is not a valid e-mail address", { address: String(address) }));
      checkText(params, 'subject', check);
      checkText(params, 'body', check);
    },
    resolve: (params, subject) => ({
      to: (typeof params.to === 'string' ? [params.to] : (params.to as string[])).map((a) => a.trim()),
      subject: text(params, 'subject', subject),
      body: text(params, 'body', subject),
    }),
    async run(resolved, _subject, { trx, ctx, automation }) {
      await enqueueEmail(trx, {
        accountId: ctx.accountId,
        source: `pipeline_automation:${automation.id}`,
        to: resolved.to as string[],
        subject: String(resolved.subject).replace(/[\r\n]+/g, ' '),
        text: String(resolved.body),
      });
    },
  },
};

export const ACTION_TYPES = Object.keys(ACTIONS);

/** The parameters of an action as stored: everything but `type`. */
export function paramsOf(action: Record<string, unknown>): Record<string, unknown> {
  const { type: _type, ...params } = action;
  return params;
}
