import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { EventOf } from '../../../core/events/dispatcher.js';
import { HttpError } from '../../../core/http/errors.js';
import type { AccountContext, ChatDeps, Trx } from '../../context.js';
import type { ChatEvents } from '../../events.js';
import type { AutomationRule, AutomationRunOutcome } from '../../db/schema.js';
import { applyAction, type ActionServices } from './automation-rules.actions.js';
import { compileRuleConditions } from './automation-rules.conditions.js';
import { actionsOf, conditionsOf } from './automation-rules.presenter.js';
import * as repo from './automation-rules.repository.js';
import type { RuleEvent } from './automation-rules.schema.js';

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
 * Runs an account's automation rules for one outbox event, inside the dispatch transaction: the
 * active rules of the event (in id order) are evaluated against the conversation as it is now
 * (one SQL query compiled from the conditions), and a matching rule's actions are applied in order
 * through the module services, acting as the rule (`{type:'automation'}`: administrator powers,
 * no user). Each rule runs under its own savepoint: a failing rule is rolled back alone and
 * recorded as `failed`, the others still apply. Events caused by rule actions carry origin
 * 'automation' and are not evaluated again, so rules cannot trigger each other in a loop.
 */
export class AutomationEngine {
  constructor(
    private readonly deps: ChatDeps,
    private readonly services: ActionServices,
    private readonly logger?: FastifyBaseLogger,
  ) {}

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
    const conversation = await this.services.conversations.get(lookup, target.displayId, trx).catch((err) => {
      if (err instanceof HttpError && err.statusCode === 404) return null; // gone since the event
      throw err;
    });
    if (!conversation) return;
    for (const rule of rules) await this.runRule(trx, rule, event, target, conversation.id);
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
    const savepoint = sql.raw(`automation_rule_${Number(rule.id)}`);
    const applied: string[] = [];
    let outcome: AutomationRunOutcome = 'skipped';
    let error: string | null = null;
    let step = 'conditions';
    await sql`savepoint ${savepoint}`.execute(trx);
    try {
      const condition = compileRuleConditions(conditionsOf(rule), {
        accountId,
        dialect: this.deps.dialect,
        eventName: rule.event_name,
        messageId: target.messageId,
      });
      if (await repo.conversationMatches(trx, accountId, conversationId, condition)) {
        const actions = actionsOf(rule);
        for (const [i, action] of actions.entries()) {
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
        outcome = 'applied';
      }
      await sql`release savepoint ${savepoint}`.execute(trx);
    } catch (err) {
      await sql`rollback to savepoint ${savepoint}`.execute(trx);
      await sql`release savepoint ${savepoint}`.execute(trx);
      outcome = 'failed';
      error = `${step}: ${describe(err)}`;
      applied.length = 0; // rolled back with the rule
      if (!(err instanceof HttpError))
        this.logger?.error({ err, ruleId: rule.id, eventId: event.id }, 'automation rule crashed');
    }
    // Runs whose conditions did not match are not logged (they would be most events).
    if (outcome === 'skipped') return;
    await repo.insertRun(trx, {
      account_id: accountId,
      rule_id: rule.id,
      event_name: event.name,
      event_id: event.id,
      conversation_display_id: target.displayId,
      outcome,
      actions_applied: JSON.stringify(applied),
      error,
      created_at: Date.now(),
    });
  }
}
