import { invalidField, notFound } from '../../../core/http/errors.js';
import type { AccountContext, ChatDeps, Q } from '../../context.js';
import type { AutomationRule, AutomationRuleRun } from '../../db/schema.js';
import { validateActions, type ActionCheckServices, type StoredAction } from './automation-rules.actions.js';
import { compileRuleConditions } from './automation-rules.conditions.js';
import { conditionsOf, type StoredCondition } from './automation-rules.presenter.js';
import * as repo from './automation-rules.repository.js';
import {
  RULE_EVENTS,
  type RuleAction,
  type RuleCondition,
  type RuleCreateBody,
  type RuleUpdateBody,
} from './automation-rules.schema.js';
import { t } from '../../../core/i18n/catalogue.js';

export const RULES_PER_PAGE = 100;
export const RUNS_PER_PAGE = 25;

interface RuleDefinition {
  event_name: string;
  conditions: readonly RuleCondition[];
  actions: readonly RuleAction[];
}

/**
 * Automation rules of an account (administrators only, by route): CRUD with every condition and
 * action checked before anything is written, and the log of their runs. The engine that runs
 * them is automation.engine.ts.
 */
export class AutomationRulesService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly services: ActionCheckServices,
  ) {}

  async get(ctx: AccountContext, id: number, q: Q = this.deps.db): Promise<AutomationRule> {
    const rule = await repo.findRule(q, ctx.accountId, id);
    if (!rule) throw notFound('Automation rule');
    return rule;
  }

  list(ctx: AccountContext, page: number): Promise<AutomationRule[]> {
    return repo.listRules(this.deps.db, ctx.accountId, { limit: RULES_PER_PAGE, offset: (page - 1) * RULES_PER_PAGE });
  }

  async create(ctx: AccountContext, body: RuleCreateBody): Promise<AutomationRule> {
    return this.deps.db.transaction().execute(async (trx) => {
      const checked = await this.check(trx, ctx, body);
      const now = Date.now();
      return repo.insertRule(trx, {
        account_id: ctx.accountId,
        name: body.name.trim() || body.name,
        description: body.description ?? null,
        event_name: checked.event_name,
        conditions: JSON.stringify(checked.conditions),
        actions: JSON.stringify(checked.actions),
        active: body.active === false ? 0 : 1,
        created_at: now,
        updated_at: now,
      });
    });
  }

  /**
   * Changes what the body names. New conditions, or a new event (which the stored conditions must
   * suit), are checked; stored actions are not re-checked, so a rule whose agent has left can still
   * be renamed or deactivated (it records a failed run when it runs).
   */
  async update(ctx: AccountContext, id: number, body: RuleUpdateBody): Promise<AutomationRule> {
    return this.deps.db.transaction().execute(async (trx) => {
      const current = await this.get(ctx, id, trx);
      const eventName = body.event_name ?? current.event_name;
      if (body.event_name !== undefined) this.checkEvent(eventName);
      const conditions =
        body.conditions !== undefined || body.event_name !== undefined
          ? this.checkConditions(ctx, eventName, body.conditions ?? conditionsOf(current))
          : undefined;
      const actions =
        body.actions !== undefined ? await validateActions(trx, ctx.accountId, body.actions, this.services) : undefined;
      const updated = await repo.updateRule(trx, ctx.accountId, current.id, {
        ...(body.name !== undefined ? { name: body.name.trim() || body.name } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.active !== undefined ? { active: body.active ? 1 : 0 } : {}),
        ...(body.event_name !== undefined ? { event_name: eventName } : {}),
        ...(conditions ? { conditions: JSON.stringify(conditions) } : {}),
        ...(actions ? { actions: JSON.stringify(actions) } : {}),
        updated_at: Date.now(),
      });
      if (!updated) throw notFound('Automation rule');
      return updated;
    });
  }

  async delete(ctx: AccountContext, id: number): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const rule = await this.get(ctx, id, trx);
      await repo.deleteRule(trx, ctx.accountId, rule.id);
    });
  }

  /** The runs of a rule, newest first, 25 per page. */
  async runs(ctx: AccountContext, id: number, page: number): Promise<AutomationRuleRun[]> {
    const rule = await this.get(ctx, id);
    return repo.listRuns(this.deps.db, ctx.accountId, rule.id, {
      limit: RUNS_PER_PAGE,
      offset: (page - 1) * RUNS_PER_PAGE,
    });
  }

  /** 422 naming the bad event, condition or action; returns the definition as stored. */
  private async check(q: Q, ctx: AccountContext, rule: RuleDefinition) {
    this.checkEvent(rule.event_name);
    const conditions = this.checkConditions(ctx, rule.event_name, rule.conditions);
    const actions: StoredAction[] = await validateActions(q, ctx.accountId, rule.actions, this.services);
    return { event_name: rule.event_name, conditions, actions };
  }

  private checkEvent(eventName: string) {
    if (!(RULE_EVENTS as readonly string[]).includes(eventName)) {
      throw invalidField(
        'event_name',
        t("'%{event}' is not supported (use %{events})", { event: eventName, events: RULE_EVENTS.join(', ') }),
      );
    }
  }

  /** The conditions compile for this event (conversations.filter.ts + message attributes), as stored. */
  private checkConditions(
    ctx: AccountContext,
    eventName: string,
    conditions: readonly RuleCondition[],
  ): StoredCondition[] {
    compileRuleConditions(conditions, {
      accountId: ctx.accountId,
      dialect: this.deps.dialect,
      eventName,
      messageId: null,
    });
    return conditions.map((c) => ({
      attribute_key: c.attribute_key,
      filter_operator: c.filter_operator,
      values: [...(c.values ?? [])],
      query_operator: c.query_operator ?? null,
    }));
  }
}
