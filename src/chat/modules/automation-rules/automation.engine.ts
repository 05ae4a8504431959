import type { FastifyBaseLogger } from 'fastify';
import type { EventOf } from '../../../core/events/dispatcher.js';
import { HttpError } from '../../../core/http/errors.js';
import type { AccountContext, ChatDeps, Trx } from '../../context.js';
import type { ChatEvents } from '../../events.js';
import type { AutomationRule, AutomationRunOutcome } from '../../db/schema.js';
import { applyAction, type ActionServices, type StoredAction } from './automation-rules.actions.js';
import { compileRuleConditions } from './automation-rules.conditions.js';
import { actionsOf, conditionsOf } from './automation-rules.presenter.js';
import * as repo from './automation-rules.repository.js';
import type { RuleEvent } from './automation-rules.schema.js';
import { inSavepoint } from '../../../core/db/savepoint.js';
import type { SubjectAdapter } from './automation.runner.js';

/** What a rule runs against: the conversation (display id) and, for message_created, the message. */
interface Target {
  displayId: number;
  messageId: number | null;
}

/** The chat events automation rules listen to. */
export const RULE_TRIGGER_EVENTS = [
  'conversation_created',
  'conversation_updated',
  'conversation_status_changed',
  'message_created',
] as const;
export type RuleTriggerEvent = EventOf<ChatEvents, (typeof RULE_TRIGGER_EVENTS)[number]>;

/**
 * The rule events an event triggers: conversation_status_changed is a conversation_updated,
 * and also conversation_opened / conversation_resolved when the new status is open / resolved.
 */
export function ruleEventsFor(event: RuleTriggerEvent): RuleEvent[] {
  switch (event.name) {
    case 'conversation_created':
      return ['conversation_created'];
    case 'conversation_updated':
      return ['conversation_updated'];
    case 'conversation_status_changed': {
      const status = event.snapshot.status;
      if (status === 'open') return ['conversation_updated', 'conversation_opened'];
      if (status === 'resolved') return ['conversation_updated', 'conversation_resolved'];
      return ['conversation_updated'];
    }
    case 'message_created':
      return ['message_created'];
  }
}

/** What a rule runs against: the conversation (display id) and, for message_created, the message. */
function targetOf(event: RuleTriggerEvent): Target {
  return { displayId: event.refs.displayId, messageId: event.name === 'message_created' ? event.refs.messageId : null };
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 1000);

/**
 * The conversation subject adapter (automation.runner.ts): the subject is the conversation's
 * internal id; conditions compile to one SQL condition evaluated against the conversation as it is
 * now (and, in message_created rules, the triggering message).
 */
export function conversationSubjects(
  deps: ChatDeps,
  services: ActionServices,
): SubjectAdapter<AutomationRule, Target, number, StoredAction> {
  return {
    type: 'conversation',
    async load(trx, ctx, target) {
      const conversation = await services.conversations.get(ctx, target.displayId, trx).catch((err) => {
        if (err instanceof HttpError && err.statusCode === 404) return null; // gone since the event
        throw err;
      });
      return conversation ? conversation.id : null;
    },
    async matches(trx, rule, conversationId, target) {
      const condition = compileRuleConditions(conditionsOf(rule), {
        accountId: rule.account_id,
        dialect: deps.dialect,
        eventName: rule.event_name,
        messageId: target.messageId,
      });
      return repo.conversationMatches(trx, rule.account_id, conversationId, condition);
    },
    actions: (rule) => actionsOf(rule),
  };
}

/**
 * Runs an account's automation rules for one outbox event, inside the dispatch transaction: the
 * active rules of the event (in id order) are evaluated against the conversation as it is now
 * (one SQL query compiled from the conditions), and a matching rule's actions are applied in order
 * through the module services, acting as the rule (`{type:'automation'}`: administrator powers,
 * no user). Each rule runs under its own savepoint: a failing rule is rolled back alone and
 * recorded as `failed`, the others still apply. Events caused by rule actions carry origin
 * 'automation' and are not evaluated again, so rules cannot trigger each other in a loop.
 */
export class AutomationEngine {
  private readonly subjects: SubjectAdapter<AutomationRule, Target, number, StoredAction>;

  constructor(
    private readonly deps: ChatDeps,
    private readonly services: ActionServices,
    private readonly logger?: FastifyBaseLogger,
  ) {
    this.subjects = conversationSubjects(deps, services);
  }

  async handle(trx: Trx, event: RuleTriggerEvent): Promise<void> {
    if (event.accountId === null || event.origin === 'automation') return;
    const ruleEvents = ruleEventsFor(event);
    const target = targetOf(event);
    const rules = await repo.activeRulesFor(trx, event.accountId, ruleEvents);
    if (rules.length === 0) return;
    const lookup: AccountContext = {
      accountId: event.accountId,
      actor: { type: 'automation', ruleId: 0 },
      role: 'administrator',
      userId: null,
    };
    const conversationId = await this.subjects.load(trx, lookup, target);
    if (conversationId === null) return;
    for (const rule of rules) await this.runRule(trx, rule, event, target, conversationId);
  }

  private async runRule(
    trx: Trx,
    rule: AutomationRule,
    event: RuleTriggerEvent,
    target: Target,
    conversationId: number,
  ) {
    const accountId = rule.account_id;
    const ctx: AccountContext = {
      accountId,
      actor: { type: 'automation', ruleId: rule.id },
      role: 'administrator',
      userId: null,
    };
    const startedAt = Date.now();
    const applied: string[] = [];
    let step = 'conditions';
    const result = await inSavepoint(trx, `automation_rule_${Number(rule.id)}`, async () => {
      if (!(await this.subjects.matches(trx, rule, conversationId, target))) return 'skipped' as const;
      for (const [i, action] of this.subjects.actions(rule).entries()) {
        step = `action ${i} (${action.action_name})`;
        await applyAction(
          trx,
          this.deps,
          this.services,
          { ctx, displayId: target.displayId, rule, eventName: event.name },
          action,
        );
        applied.push(action.action_name);
      }
      return 'applied' as const;
    });
    let outcome: AutomationRunOutcome;
    let error: string | null = null;
    if (result.ok) outcome = result.value;
    else {
      outcome = 'failed';
      error = `${step}: ${describe(result.error)}`;
      applied.length = 0; // rolled back with the rule
      if (!(result.error instanceof HttpError))
        this.logger?.error({ err: result.error, ruleId: rule.id, eventId: event.id }, 'automation rule crashed');
    }
    // Runs whose conditions did not match are not logged (they would be most events).
    if (outcome === 'skipped') return;
    const finishedAt = Date.now();
    await repo.insertRun(trx, {
      account_id: accountId,
      automation_id: rule.id,
      subject_type: this.subjects.type,
      // The conversation as the event and the runs API name it: its display id.
      subject_id: target.displayId,
      trigger: event.name,
      status: outcome,
      actions: JSON.stringify(applied),
      error,
      event_id: event.id,
      dedupe_key: null,
      started_at: startedAt,
      finished_at: finishedAt,
      duration_ms: finishedAt - startedAt,
    });
  }
}
