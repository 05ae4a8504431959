import type { Updateable } from 'kysely';
import { invalidField, notFound } from '../../../core/http/errors.js';
import { assertStaff, type AccountContext, type ChatDeps } from '../../context.js';
import { EVENT_TYPES, isEventType, validateConditions } from './lead-score.conditions.js';
import * as repo from './lead-score-rules.repository.js';
import type { RuleCreateBody, RuleUpdateBody } from './lead-score-rules.schema.js';
import type { LeadScoreRule, LeadScoreRulesTable } from './lead-scoring.tables.js';
import { t } from '../../../core/i18n/catalogue.js';

/** The default rule set of docs/spec/decisions.md §8, each with a key so `create_defaults` is idempotent. */
interface DefaultRule {
  default_key: string;
  name: string;
  description: string;
  event_type: string;
  event_subtype?: string;
  conditions?: string;
  points: number;
  cooldown_minutes?: number;
}

export const DEFAULT_RULES: DefaultRule[] = [
  {
    default_key: 'deal_value',
    name: 'Deal value',
    description: 'A deal worth 10,000 or more when it is created',
    event_type: 'card_created',
    conditions: JSON.stringify({ value: { operator: 'gte', value: 10000 } }),
    points: 15,
  },
  {
    default_key: 'response_speed',
    name: 'Response speed',
    description: 'The first answer came within an hour',
    event_type: 'first_response',
    conditions: JSON.stringify({ response_minutes: { operator: 'lt', value: 60 } }),
    points: 10,
  },
  {
    default_key: 'engagement',
    name: 'Engagement',
    description: 'The contact wrote (at most once an hour)',
    event_type: 'message_received',
    points: 2,
    cooldown_minutes: 60,
  },
  {
    default_key: 'agent_replied',
    name: 'Agent replied',
    description: 'An agent answered (at most once an hour)',
    event_type: 'agent_replied',
    points: 1,
    cooldown_minutes: 60,
  },
  {
    default_key: 'stage_changed',
    name: 'Stage progression',
    description: 'The deal moved to another stage',
    event_type: 'stage_changed',
    points: 10,
  },
  {
    default_key: 'contact_email_added',
    name: 'E-mail added',
    description: 'The contact gave an e-mail address',
    event_type: 'contact_email_added',
    points: 5,
  },
  {
    default_key: 'contact_phone_added',
    name: 'Phone added',
    description: 'The contact gave a phone number',
    event_type: 'contact_phone_added',
    points: 5,
  },
  {
    default_key: 'conversation_resolved',
    name: 'Conversation resolved',
    description: 'A conversation of the deal was resolved',
    event_type: 'conversation_resolved',
    points: -5,
  },
  {
    default_key: 'time_in_stage',
    name: 'Time in stage',
    description: 'The deal has been 14 days in one stage (checked daily)',
    event_type: 'custom_event',
    event_subtype: 'stale_in_stage',
    points: -10,
  },
];

function checkPoints(points: number) {
  if (points < -100 || points > 100) throw invalidField('points', 'must be between -100 and 100');
}

function checkEventType(eventType: string) {
  if (!isEventType(eventType))
    throw invalidField('event_type', t('must be one of %{values}', { values: EVENT_TYPES.join(', ') }));
}

/**
 * Lead score rules: administrators write them, every member reads them. Meaning is checked here,
 * each refusal a 422 naming its field, before anything is written.
 */
export class LeadScoreRulesService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly clock: () => number = Date.now,
  ) {}

  list(ctx: AccountContext): Promise<LeadScoreRule[]> {
    assertStaff(ctx);
    return repo.listRules(this.deps.db, ctx.accountId);
  }

  async get(ctx: AccountContext, id: number): Promise<LeadScoreRule> {
    assertStaff(ctx);
    const rule = await repo.findRule(this.deps.db, ctx.accountId, id);
    if (!rule) throw notFound('Lead score rule');
    return rule;
  }

  async create(ctx: AccountContext, body: RuleCreateBody): Promise<LeadScoreRule> {
    assertStaff(ctx);
    checkEventType(body.event_type);
    checkPoints(body.points);
    const conditions = body.conditions ?? {};
    validateConditions(conditions);
    const name = body.name?.trim() || body.event_type;
    const now = this.clock();
    return repo.insertRule(this.deps.db, {
      account_id: ctx.accountId,
      name,
      description: body.description ?? null,
      event_type: body.event_type,
      event_subtype: body.event_subtype?.trim() || null,
      conditions: JSON.stringify(conditions),
      points: body.points,
      enabled: body.enabled === false ? 0 : 1,
      priority: body.priority ?? 0,
      cooldown_minutes: body.cooldown_minutes ?? 0,
      default_key: null,
      created_at: now,
      updated_at: now,
    });
  }

  async update(ctx: AccountContext, id: number, body: RuleUpdateBody): Promise<LeadScoreRule> {
    const rule = await this.get(ctx, id);
    const values: Updateable<LeadScoreRulesTable> = {};
    if (body.event_type !== undefined) {
      checkEventType(body.event_type);
      values.event_type = body.event_type;
    }
    if (body.points !== undefined) {
      checkPoints(body.points);
      values.points = body.points;
    }
    if (body.conditions !== undefined) {
      const conditions = body.conditions ?? {};
      validateConditions(conditions);
      values.conditions = JSON.stringify(conditions);
    }
    if (body.name !== undefined) {
      const name = body.name.trim();
      if (name === '') throw invalidField('name', "can't be blank");
      values.name = name;
    }
    if (body.description !== undefined) values.description = body.description;
    if (body.event_subtype !== undefined) values.event_subtype = body.event_subtype?.trim() || null;
    if (body.enabled !== undefined) values.enabled = body.enabled ? 1 : 0;
    if (body.priority !== undefined) values.priority = body.priority;
    if (body.cooldown_minutes !== undefined) values.cooldown_minutes = body.cooldown_minutes;
    if (Object.keys(values).length === 0) return rule;
    return repo.updateRule(this.deps.db, ctx.accountId, id, { ...values, updated_at: this.clock() });
  }

  /** Deletes a rule; its logs stay (they keep its id and name), and so do the points it gave until a recalculation. */
  async delete(ctx: AccountContext, id: number): Promise<void> {
    await this.get(ctx, id);
    await repo.deleteRule(this.deps.db, ctx.accountId, id);
  }

  /** Creates the default rules the account does not have yet; returns those it created (none the second time). */
  async createDefaults(ctx: AccountContext): Promise<LeadScoreRule[]> {
    assertStaff(ctx);
    const now = this.clock();
    return this.deps.db.transaction().execute(async (trx) => {
      const created: LeadScoreRule[] = [];
      for (const rule of DEFAULT_RULES) {
        const row = await repo.insertDefaultRule(trx, {
          ...rule,
          enabled: 1,
          priority: 0,
          cooldown_minutes: rule.cooldown_minutes ?? 0,
          event_subtype: rule.event_subtype ?? null,
          conditions: rule.conditions ?? '{}',
          account_id: ctx.accountId,
          created_at: now,
          updated_at: now,
        });
        if (row) created.push(row);
      }
      return created;
    });
  }
}
