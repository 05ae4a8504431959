import { notFound } from '../../../core/http/errors.js';
import { toIso } from '../../../core/time.js';
import { systemContext, type AccountContext, type ChatDeps, type Q, type Trx } from '../../context.js';
import type { Conversation, Inbox } from '../../db/schema.js';
import { emitChatEvent, type ConversationRefs } from '../../events.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { ConversationSla } from '../conversations/conversations.presenter.js';
import type { SlaChange, SlaPolicies } from '../conversations/conversations.service.js';
import { parseWorkingHours } from '../inboxes/inboxes.schema.js';
import type { InboxesService } from '../inboxes/inboxes.service.js';
import { addBusinessTime } from './sla.hours.js';
import type { AppliedSla, AppliedSlaStatus, BreachType, SlaEvent, SlaPolicy } from './sla.migration.js';
import { presentConversationSla } from './sla.presenter.js';
import * as repo from './sla.repository.js';
import { hasSlaPlan, planRequired } from './sla-policies.service.js';

/** How many applied SLAs one pass of the scheduler settles per transaction batch. */
const SWEEP_BATCH = 200;
/** How many applied SLAs a policy's edit reads (and locks) at a time. */
const RECOMPUTE_BATCH = 500;

/** The refs of `sla_missed`: the conversation and the breach. */
export interface SlaMissedRefs extends ConversationRefs {
  appliedSlaId: number;
  slaPolicyId: number;
  breach: BreachType;
}

/** The webhook body (and realtime `data`) of `sla_missed`. */
export interface SlaMissedSnapshot {
  event: 'sla_missed';
  id: number;
  sla_policy_id: number;
  event_type: BreachType;
  due_at: string;
  breached_at: string;
  inbox_id: number;
  account: { id: number };
  conversation: { id: number; inbox_id: number };
}

/**
 * What settling an applied SLA finds at `now`: the deadlines passed and not yet breached (to
 * record), the status (missed with a breach; else hit once resolved, active before) and the
 * earliest deadline still to check. Resolution stops the clocks.
 */
function evaluate(row: AppliedSla, now: number, recorded: readonly SlaEvent[]) {
  const keys = new Set(recorded.map((b) => `${b.event_type}:${b.due_at}`));
  const open = row.resolved_at === null;
  const deadlines: [BreachType, number][] = [];
  if (open && row.first_response_at === null) deadlines.push(['first_response', row.first_response_due]);
  if (open && row.next_response_due !== null) deadlines.push(['next_response', row.next_response_due]);
  if (open && row.resolution_due !== null) deadlines.push(['resolution', row.resolution_due]);
  const passed: [BreachType, number][] = [];
  let nextCheck: number | null = null;
  for (const [type, due] of deadlines) {
    if (keys.has(`${type}:${due}`)) continue;
    if (due < now) {
      keys.add(`${type}:${due}`);
      passed.push([type, due]);
    } else {
      nextCheck = nextCheck === null ? due : Math.min(nextCheck, due);
    }
  }
  const status: AppliedSlaStatus = keys.size > 0 ? 'missed' : open ? 'active' : 'hit';
  return { passed, status, nextCheck };
}

/**
 * SLA policies applied to conversations, and their deadlines (docs/spec/decisions.md §10): first response
 * and resolution from the conversation's creation, next response from the customer's oldest
 * unanswered message, each in working time when the policy counts only business hours. A deadline
 * that passes records one breach (sla_events, unique per deadline), found either by the
 * conversation's own events (a late reply, a late resolution) or by the scheduler's sweep, which
 * any instance may run: the unique key keeps the breach, and its `sla_missed` event, single.
 */
export class AppliedSlasService implements SlaPolicies {
  constructor(
    private readonly deps: ChatDeps,
    private readonly services: { accounts: AccountsService; inboxes: InboxesService },
  ) {}

  exists(q: Q, accountId: number, policyId: number): Promise<boolean> {
    return repo.findPolicy(q, accountId, policyId).then((p) => p !== undefined);
  }

  /** What conversations show of their applied SLAs (policy, deadlines, breaches): two queries for a page. */
  async appliedTo(q: Q, accountId: number, conversationIds: readonly number[]): Promise<Map<number, ConversationSla>> {
    if (conversationIds.length === 0) return new Map();
    const rows = await repo.appliedOfConversations(q, accountId, conversationIds);
    if (rows.length === 0) return new Map();
    const breaches = await repo.breachesOf(
      q,
      accountId,
      rows.map((r) => r.id),
    );
    return new Map(
      rows.map((r) => [
        r.conversation_id,
        presentConversationSla(
          r,
          breaches.filter((b) => b.applied_sla_id === r.id),
        ),
      ]),
    );
  }

  /**
   * Applies `policyId` to the conversation (null removes its applied SLA); 402 without the plan, 404
   * for another account's policy. Returns the conversation's policy before and after.
   */
  async apply(trx: Trx, ctx: AccountContext, conversation: Conversation, policyId: number | null): Promise<SlaChange> {
    if (!(await hasSlaPlan(this.services.accounts, trx, ctx.accountId))) throw planRequired(ctx.accountId);
    const existing = await repo.appliedOfConversation(trx, ctx.accountId, conversation.id);
    const previous = existing?.sla_policy_id ?? null;
    if (policyId === null) {
      if (existing) await repo.deleteApplied(trx, ctx.accountId, existing.id);
      return { previous, current: null };
    }
    // Shared lock (PostgreSQL): a concurrent edit of the policy waits for this, or this for it.
    const policy = await repo.findPolicy(trx, ctx.accountId, policyId, { share: this.deps.dialect === 'postgres' });
    if (!policy) throw notFound('SLA policy');
    if (previous === policyId) return { previous, current: policyId };
    if (existing) await repo.deleteApplied(trx, ctx.accountId, existing.id);
    const now = Date.now();
    const inbox = await this.services.inboxes.get(systemContext(ctx.accountId), conversation.inbox_id, trx);
    const deadline = this.deadlineFn(policy, inbox);
    const firstResponseAt = conversation.first_reply_created_at;
    const waiting = firstResponseAt !== null ? conversation.waiting_since : null;
    const resolved = conversation.status === 'resolved' ? conversation.updated_at : null;
    const applied = await repo.insertApplied(trx, {
      account_id: ctx.accountId,
      sla_policy_id: policy.id,
      conversation_id: conversation.id,
      contact_id: conversation.contact_id,
      display_id: conversation.display_id,
      inbox_id: conversation.inbox_id,
      team_id: conversation.team_id,
      assignee_id: conversation.assignee_id,
      status: 'active',
      conversation_created_at: conversation.created_at,
      first_response_due: deadline(conversation.created_at, policy.first_response_time_threshold),
      first_response_at: firstResponseAt,
      waiting_since: waiting,
      next_response_due:
        waiting !== null && policy.next_response_time_threshold !== null
          ? deadline(waiting, policy.next_response_time_threshold)
          : null,
      resolution_due:
        policy.resolution_time_threshold !== null
          ? deadline(conversation.created_at, policy.resolution_time_threshold)
          : null,
      resolved_at: resolved,
      next_check_at: null,
      created_at: now,
      updated_at: now,
    });
    await this.settle(trx, applied, resolved ?? now);
    return { previous, current: policy.id };
  }

  /**
   * A policy's thresholds or business-hours flag changed (in the transaction of the change): the
   * deadlines of its applied SLAs that are still running follow the new policy. Per deadline kind,
   * running means not met and not breached: the first response before it happened, the current
   * wait of a next response, the resolution, of conversations not resolved. Recorded breaches stay;
   * a deadline the change puts in the past is breached now; the scheduler's next check
   * (`next_check_at`, its sweep's index) moves with the deadlines.
   */
  async recomputeForPolicy(trx: Trx, policy: SlaPolicy, now: number = Date.now()): Promise<number> {
    const accountId = policy.account_id;
    const postgres = this.deps.dialect === 'postgres';
    // The policy's row is locked by its update: nobody applies it (findPolicy FOR SHARE) until this commits.
    const ids = await repo.openAppliedIdsOfPolicy(trx, accountId, policy.id);
    if (ids.length === 0) return 0;
    await repo.bumpVersion(trx, accountId);
    const inboxes = new Map<number, Inbox>();
    let changed = 0;
    for (let i = 0; i < ids.length; i += RECOMPUTE_BATCH) {
      const rows = await repo.openAppliedByIds(trx, accountId, ids.slice(i, i + RECOMPUTE_BATCH), postgres);
      const breaches = await repo.breachesOf(
        trx,
        accountId,
        rows.map((r) => r.id),
      );
      const updates: repo.DeadlineUpdate[] = [];
      for (const { conversation_waiting_since, ...row } of rows) {
        let inbox = inboxes.get(row.inbox_id);
        if (!inbox) {
          inbox = await this.services.inboxes.get(systemContext(accountId), row.inbox_id, trx);
          inboxes.set(row.inbox_id, inbox);
        }
        const recorded = breaches.filter((b) => b.applied_sla_id === row.id);
        const next = this.recomputed(policy, inbox, row, recorded, conversation_waiting_since);
        if (
          next.first_response_due === row.first_response_due &&
          next.waiting_since === row.waiting_since &&
          next.next_response_due === row.next_response_due &&
          next.resolution_due === row.resolution_due
        )
          continue;
        const { passed, status, nextCheck } = evaluate(next, now, recorded);
        for (const [type, due] of passed) await this.breach(trx, next, type, due, now);
        updates.push({
          id: row.id,
          status,
          next_check_at: nextCheck,
          first_response_due: next.first_response_due,
          waiting_since: next.waiting_since,
          next_response_due: next.next_response_due,
          resolution_due: next.resolution_due,
        });
      }
      // One statement for the batch: a policy may be applied to many open conversations.
      await repo.updateDeadlines(trx, accountId, updates, now);
      changed += updates.length;
    }
    return changed;
  }

  /** The deadlines of an applied SLA under `policy`, keeping those already met or breached. */
  private recomputed(
    policy: SlaPolicy,
    inbox: Inbox,
    row: AppliedSla,
    recorded: readonly SlaEvent[],
    conversationWaitingSince: number | null,
  ): AppliedSla {
    const deadline = this.deadlineFn(policy, inbox);
    const breached = (type: BreachType, due?: number | null) =>
      recorded.some((b) => b.event_type === type && (due === undefined || b.due_at === due));
    const next = { ...row };
    if (row.first_response_at === null && !breached('first_response'))
      next.first_response_due = deadline(row.conversation_created_at, policy.first_response_time_threshold);
    if (!breached('resolution'))
      next.resolution_due =
        policy.resolution_time_threshold === null
          ? null
          : deadline(row.conversation_created_at, policy.resolution_time_threshold);
    // The current wait, unless its deadline is already breached. A policy that had no next response
    // threshold kept no wait: the conversation's own says since when the customer waits.
    if (row.next_response_due === null || !breached('next_response', row.next_response_due)) {
      const waiting =
        row.waiting_since ??
        (row.first_response_at !== null &&
        conversationWaitingSince !== null &&
        conversationWaitingSince >= row.first_response_at
          ? conversationWaitingSince
          : null);
      const threshold = policy.next_response_time_threshold;
      next.waiting_since = threshold === null ? row.waiting_since : waiting;
      next.next_response_due = threshold === null || waiting === null ? null : deadline(waiting, threshold);
    }
    return next;
  }

  /** `from` plus a threshold in seconds: working time of the inbox when the policy says so. */
  private deadlineFn(policy: SlaPolicy, inbox: Inbox) {
    const business = policy.only_during_business_hours === 1 && inbox.working_hours_enabled === 1;
    const hours = parseWorkingHours(inbox.working_hours);
    return (from: number, seconds: number) =>
      business ? addBusinessTime(from, seconds * 1000, hours, inbox.timezone) : from + seconds * 1000;
  }

  /**
   * Records a breach for every deadline passed by `now` and not yet breached, then sets the status
   * (missed with a breach; else hit once resolved, active before) and the next time to check.
   */
  private async settle(trx: Trx, row: AppliedSla, now: number): Promise<AppliedSla> {
    const { passed, status, nextCheck } = evaluate(row, now, await repo.breachesOf(trx, row.account_id, [row.id]));
    for (const [type, due] of passed) await this.breach(trx, row, type, due, now);
    const updated = { ...row, status, next_check_at: nextCheck, updated_at: now } as AppliedSla;
    await repo.updateApplied(trx, row.account_id, row.id, {
      status,
      next_check_at: nextCheck,
      first_response_at: row.first_response_at,
      waiting_since: row.waiting_since,
      next_response_due: row.next_response_due,
      resolved_at: row.resolved_at,
      team_id: row.team_id,
      assignee_id: row.assignee_id,
      updated_at: now,
    });
    return updated;
  }

  /** One breach, once: the insert that wins the unique key records `sla_missed` (webhooks, realtime). */
  private async breach(trx: Trx, row: AppliedSla, type: BreachType, due: number, now: number): Promise<void> {
    const first = await repo.insertBreach(trx, {
      account_id: row.account_id,
      applied_sla_id: row.id,
      event_type: type,
      due_at: due,
      created_at: now,
    });
    if (!first) return;
    await emitChatEvent(trx, {
      accountId: row.account_id,
      name: 'sla_missed',
      refs: {
        conversationId: row.conversation_id,
        displayId: row.display_id,
        inboxId: row.inbox_id,
        contactId: row.contact_id,
        appliedSlaId: row.id,
        slaPolicyId: row.sla_policy_id,
        breach: type,
      },
      snapshot: {
        event: 'sla_missed',
        id: row.id,
        sla_policy_id: row.sla_policy_id,
        event_type: type,
        due_at: toIso(due),
        breached_at: toIso(now),
        inbox_id: row.inbox_id,
        account: { id: row.account_id },
        conversation: { id: row.display_id, inbox_id: row.inbox_id },
      },
      origin: null,
    });
  }

  /** The applied SLA of a conversation, locked for this transaction. */
  private async current(trx: Trx, accountId: number, conversationId: number): Promise<AppliedSla | undefined> {
    const found = await repo.appliedOfConversation(trx, accountId, conversationId);
    return found && (await repo.lockApplied(trx, accountId, found.id, this.deps.dialect === 'postgres'));
  }

  /* The conversation's own events (the SLA listener) ------------------------------------------- */

  async onMessage(
    trx: Trx,
    accountId: number,
    conversationId: number,
    message: { type: number; private: boolean; human: boolean },
    at: number,
  ): Promise<void> {
    let row = await this.current(trx, accountId, conversationId);
    if (!row) return;
    // Whatever passed before this message was missed, reply or not.
    row = await this.settle(trx, row, at);
    if (message.type === 0) {
      if (row.first_response_at === null || row.waiting_since !== null || row.resolved_at !== null) return;
      const policy = await repo.findPolicy(trx, accountId, row.sla_policy_id);
      if (!policy?.next_response_time_threshold) return;
      const inbox = await this.services.inboxes.get(systemContext(accountId), row.inbox_id, trx);
      const due = this.deadlineFn(policy, inbox)(at, policy.next_response_time_threshold);
      await this.settle(trx, { ...row, waiting_since: at, next_response_due: due }, at);
      return;
    }
    if (message.type !== 1 || message.private || !message.human) return;
    if (row.first_response_at === null) {
      await this.settle(trx, { ...row, first_response_at: at, waiting_since: null, next_response_due: null }, at);
    } else if (row.waiting_since !== null) {
      await this.settle(trx, { ...row, waiting_since: null, next_response_due: null }, at);
    }
  }

  async onStatus(trx: Trx, accountId: number, conversationId: number, status: string, at: number): Promise<void> {
    let row = await this.current(trx, accountId, conversationId);
    if (!row) return;
    if (status === 'resolved' && row.resolved_at === null) {
      row = await this.settle(trx, row, at);
      await this.settle(trx, { ...row, resolved_at: at, waiting_since: null, next_response_due: null }, at);
    } else if (status !== 'resolved' && row.resolved_at !== null) {
      await this.settle(trx, { ...row, resolved_at: null }, at);
    }
  }

  /** Keeps the list's filters (assignee, team) as the conversation is now. */
  async onUpdated(
    trx: Trx,
    accountId: number,
    conversationId: number,
    facts: { assigneeId: number | null; teamId: number | null },
  ): Promise<void> {
    const row = await repo.appliedOfConversation(trx, accountId, conversationId);
    if (!row || (row.assignee_id === facts.assigneeId && row.team_id === facts.teamId)) return;
    await repo.updateApplied(trx, accountId, row.id, { assignee_id: facts.assigneeId, team_id: facts.teamId });
  }

  /* The scheduler ------------------------------------------------------------------------------- */

  /** Settles every applied SLA whose next deadline has passed by `now`; returns how many. */
  async sweep(now: number): Promise<number> {
    let total = 0;
    for (;;) {
      const due = await repo.dueForCheck(this.deps.db, now - 1, SWEEP_BATCH);
      if (due.length === 0) return total;
      await this.deps.db.transaction().execute(async (trx) => {
        // Locked in id order, as a policy's edit locks them (recomputeForPolicy): no deadlock between them.
        for (const { id, account_id } of [...due].sort((a, b) => a.id - b.id)) {
          const row = await repo.lockApplied(trx, account_id, id, this.deps.dialect === 'postgres');
          if (row && row.next_check_at !== null && row.next_check_at < now) await this.settle(trx, row, now);
        }
      });
      total += due.length;
      if (due.length < SWEEP_BATCH) return total;
    }
  }
}
