import { instantOf } from '../../../core/http/timestamps.js';
import { forbidden, invalidField, unprocessable } from '../../../core/http/errors.js';
import { parseJsonObject } from '../../../core/time.js';
import { inTransaction } from '../../../core/db/transaction.js';
import { assertStaff, type AccountContext, type ChatDeps, type Q, type Trx } from '../../context.js';
import type { Conversation, ConversationPriority, ConversationUpdate } from '../../db/schema.js';
import type { AgentRow } from '../agents/agents.repository.js';
import { normalizeLabels } from '../labels/labels.names.js';
import type { TeamsService, TeamView } from '../teams/teams.service.js';
import * as labelsRepo from './conversation-labels.repository.js';
import { changedAttributes } from './conversations.events.js';
import { priorityName, type ConversationBundle } from './conversations.presenter.js';
import * as repo from './conversations.repository.js';
import type { AssignmentBody, ConversationUpdateBody, PriorityName, ToggleStatusBody } from './conversations.schema.js';
import type { ConversationsService } from './conversations.service.js';

export type AssignmentResult = { type: 'agent'; agent: AgentRow } | { type: 'team'; team: TeamView } | { type: 'none' };

const storedPriority = (p: PriorityName | null): ConversationPriority | null => (p === null || p === 'none' ? null : p);

/** The attributes whose changes `conversation_updated` reports. */
const tracked = (c: Conversation) => ({
  assignee_id: c.assignee_id,
  team_id: c.team_id,
  priority: priorityName(c),
  custom_attributes: parseJsonObject(c.custom_attributes),
  additional_attributes: parseJsonObject(c.additional_attributes),
});

/**
 * Changes to a conversation requested through the API: update, status, priority, labels and
 * assignment. Each runs in one transaction with its events (`conversation_status_changed` when
 * the status changed, `conversation_updated` with `changed_attributes` for the rest); a request
 * that changes nothing writes nothing and records no event.
 */
export class ConversationChangesService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly conversations: ConversationsService,
    private readonly teams: TeamsService,
  ) {}

  /**
   * PATCH: assignee, team, status (open|resolved|pending), priority, sla_policy_id (applied by the SLA
   * module); attributes merge into the stored ones.
   */
  async update(ctx: AccountContext, displayId: number, body: ConversationUpdateBody): Promise<ConversationBundle> {
    assertStaff(ctx);
    return this.deps.db.transaction().execute(async (trx) => {
      const current = await this.conversations.get(ctx, displayId, trx);
      // The applied policy lives in the SLA module (applied_slas); its change is reported with the rest.
      const sla =
        body.sla_policy_id !== undefined
          ? await this.conversations.applySla(trx, ctx, current, body.sla_policy_id)
          : undefined;
      const values: ConversationUpdate = {};
      if (body.assignee_id !== undefined) {
        if (body.assignee_id !== null)
          await this.conversations.checkAssignee(trx, ctx, body.assignee_id, current.inbox_id);
        values.assignee_id = body.assignee_id;
      }
      if (body.team_id !== undefined) {
        if (body.team_id !== null) await this.conversations.checkTeam(trx, ctx.accountId, body.team_id);
        values.team_id = body.team_id;
      }
      if (body.priority !== undefined) values.priority = storedPriority(body.priority);
      if (body.custom_attributes) {
        values.custom_attributes = JSON.stringify({
          ...parseJsonObject(current.custom_attributes),
          ...body.custom_attributes,
        });
      }
      if (body.additional_attributes) {
        values.additional_attributes = JSON.stringify({
          ...parseJsonObject(current.additional_attributes),
          ...body.additional_attributes,
        });
      }
      if (body.status !== undefined && body.status !== current.status) {
        values.status = body.status;
        values.snoozed_until = null;
      }
      const changed = changedAttributes(tracked(current), tracked({ ...current, ...values } as Conversation));
      if (sla && sla.previous !== sla.current)
        changed.push({ sla_policy_id: { previous_value: sla.previous, current_value: sla.current } });
      if (changed.length === 0 && values.status === undefined) return this.conversations.bundles.loadOne(trx, current);
      const updated = await repo.updateConversation(trx, ctx.accountId, current.id, {
        ...values,
        updated_at: Date.now(),
      });
      if (updated.status !== current.status)
        await this.conversations.emitStatusChanged(trx, current.status, updated, ctx);
      if (changed.length > 0) await this.conversations.emitEvent(trx, 'conversation_updated', updated, changed, ctx);
      return this.conversations.bundles.loadOne(trx, updated);
    });
  }

  /**
   * POST custom_attributes: replaces the conversation's custom attributes with `attributes` (as
   * Chatwoot does; PATCH merges instead) and records `conversation_updated` when they change.
   */
  async replaceCustomAttributes(
    ctx: AccountContext,
    displayId: number,
    attributes: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    assertStaff(ctx);
    return this.deps.db.transaction().execute(async (trx) => {
      const current = await this.conversations.get(ctx, displayId, trx);
      const before = parseJsonObject(current.custom_attributes);
      if (JSON.stringify(before) === JSON.stringify(attributes)) return before;
      const updated = await repo.updateConversation(trx, ctx.accountId, current.id, {
        custom_attributes: JSON.stringify(attributes),
        updated_at: Date.now(),
      });
      await this.conversations.emitEvent(
        trx,
        'conversation_updated',
        updated,
        [{ custom_attributes: { previous_value: before, current_value: attributes } }],
        ctx,
      );
      return attributes;
    });
  }

  /**
   * Sets the status, or without one flips open <-> resolved (any other status opens). `snoozed_until`
   * (UNIX seconds, in the future) goes with `snoozed`; snoozing without it lasts until the next
   * incoming message. A contact (public interface) may only resolve its conversation.
   */
  async toggleStatus(
    ctx: AccountContext,
    displayId: number,
    body: ToggleStatusBody,
    inTrx?: Trx,
  ): Promise<Conversation> {
    if (ctx.role === 'contact' && body.status !== 'resolved')
      throw forbidden('A contact may only resolve its conversation');
    if (body.snoozed_until != null && body.status !== 'snoozed') {
      throw invalidField('snoozed_until', 'is only accepted with status snoozed');
    }
    return inTransaction(this.deps.db, inTrx, async (trx) => {
      const current = await this.conversations.get(ctx, displayId, trx);
      const status = body.status ?? (current.status === 'open' ? 'resolved' : 'open');
      let snoozedUntil: number | null = null;
      if (status === 'snoozed' && body.snoozed_until != null) {
        snoozedUntil = instantOf(body.snoozed_until, 'snoozed_until');
        if (snoozedUntil <= Date.now()) throw invalidField('snoozed_until', 'must be in the future');
      }
      if (status === current.status && snoozedUntil === current.snoozed_until) return current;
      const updated = await repo.updateConversation(trx, ctx.accountId, current.id, {
        status,
        snoozed_until: snoozedUntil,
        updated_at: Date.now(),
      });
      if (updated.status !== current.status)
        await this.conversations.emitStatusChanged(trx, current.status, updated, ctx);
      return updated;
    });
  }

  async togglePriority(
    ctx: AccountContext,
    displayId: number,
    priority: PriorityName | null,
    inTrx?: Trx,
  ): Promise<void> {
    assertStaff(ctx);
    await inTransaction(this.deps.db, inTrx, async (trx) => {
      const current = await this.conversations.get(ctx, displayId, trx);
      const stored = storedPriority(priority);
      if (stored === current.priority) return;
      const updated = await repo.updateConversation(trx, ctx.accountId, current.id, {
        priority: stored,
        updated_at: Date.now(),
      });
      await this.conversations.emitEvent(
        trx,
        'conversation_updated',
        updated,
        changedAttributes(tracked(current), tracked(updated)),
        ctx,
      );
    });
  }

  /**
   * Mutes the conversation (`muted` = 1: an incoming message no longer reopens it); records
   * `conversation_updated` with the change. Muting a muted conversation changes nothing.
   */
  async mute(ctx: AccountContext, displayId: number, inTrx?: Trx): Promise<void> {
    assertStaff(ctx);
    await inTransaction(this.deps.db, inTrx, async (trx) => {
      const current = await this.conversations.get(ctx, displayId, trx);
      if (current.muted === 1) return;
      const updated = await repo.updateConversation(trx, ctx.accountId, current.id, {
        muted: 1,
        updated_at: Date.now(),
      });
      await this.conversations.emitEvent(
        trx,
        'conversation_updated',
        updated,
        [{ muted: { previous_value: false, current_value: true } }],
        ctx,
      );
    });
  }

  /**
   * The calling agent has read the conversation: agent_last_seen_at (and assignee_last_seen_at
   * when they are its assignee) become now, so `unread_count` counts only newer incoming messages.
   * For a contact (public interface) it is contact_last_seen_at instead.
   */
  async markSeen(ctx: AccountContext, displayId: number): Promise<void> {
    const conversation = await this.conversations.get(ctx, displayId);
    if (ctx.role === 'contact') {
      await this.conversations.markSeenByContact(this.deps.db, ctx, conversation);
      return;
    }
    const now = Date.now();
    await repo.updateConversation(this.deps.db, ctx.accountId, conversation.id, {
      agent_last_seen_at: now,
      ...(ctx.userId !== null && conversation.assignee_id === ctx.userId ? { assignee_last_seen_at: now } : {}),
    });
  }

  async labels(ctx: AccountContext, displayId: number, q: Q = this.deps.db): Promise<string[]> {
    assertStaff(ctx);
    const conversation = await this.conversations.get(ctx, displayId, q);
    return labelsRepo.labelsOf(q, ctx.accountId, conversation.id);
  }

  /** Replaces all labels (trimmed, lower-cased, de-duplicated); returns the new set, sorted. */
  async replaceLabels(
    ctx: AccountContext,
    displayId: number,
    labels: readonly string[],
    inTrx?: Trx,
  ): Promise<string[]> {
    assertStaff(ctx);
    const normalized = normalizeLabels(labels);
    return inTransaction(this.deps.db, inTrx, async (trx) => {
      const conversation = await this.conversations.get(ctx, displayId, trx);
      const before = await labelsRepo.labelsOf(trx, ctx.accountId, conversation.id);
      if (JSON.stringify(before) === JSON.stringify(normalized)) return normalized;
      await labelsRepo.replaceLabels(trx, ctx.accountId, conversation.id, normalized);
      await this.conversations.emitEvent(
        trx,
        'conversation_updated',
        conversation,
        [{ labels: { previous_value: before, current_value: normalized } }],
        ctx,
      );
      return normalized;
    });
  }

  /**
   * POST assignments: with `assignee_id` (null unassigns) assigns an agent and `team_id` is ignored,
   * as in Chatwoot; otherwise `team_id` (null removes the team). Returns what was assigned.
   */
  async assign(ctx: AccountContext, displayId: number, body: AssignmentBody, inTrx?: Trx): Promise<AssignmentResult> {
    assertStaff(ctx);
    const byAgent = body.assignee_id !== undefined;
    if (!byAgent && body.team_id === undefined) {
      throw unprocessable('assignee_id or team_id is required', [
        { field: 'assignee_id', message: 'or team_id is required' },
      ]);
    }
    const result = await inTransaction(this.deps.db, inTrx, async (trx) => {
      const current = await this.conversations.get(ctx, displayId, trx);
      let values: ConversationUpdate;
      let agent: AgentRow | null = null;
      if (byAgent) {
        if (body.assignee_id != null)
          agent = await this.conversations.checkAssignee(trx, ctx, body.assignee_id, current.inbox_id);
        values = { assignee_id: agent?.id ?? null };
      } else {
        // Chatwoot looks the team up and assigns what it finds: team 0 (no such team) removes it.
        const teamId = body.team_id ? body.team_id : null;
        if (teamId !== null) await this.conversations.checkTeam(trx, ctx.accountId, teamId);
        values = { team_id: teamId };
      }
      const changed = changedAttributes(tracked(current), tracked({ ...current, ...values } as Conversation));
      if (changed.length > 0) {
        const updated = await repo.updateConversation(trx, ctx.accountId, current.id, {
          ...values,
          updated_at: Date.now(),
        });
        await this.conversations.emitEvent(trx, 'conversation_updated', updated, changed, ctx);
      }
      return { agent, teamId: byAgent ? null : (values.team_id ?? null) };
    });
    if (result.agent) return { type: 'agent', agent: result.agent };
    if (result.teamId !== null) return { type: 'team', team: await this.teams.get(ctx, result.teamId, inTrx) };
    return { type: 'none' };
  }
}
