import { notFound, unprocessable } from '../../../core/http/errors.js';
import { timeRange, type Timestamp } from '../../../core/http/timestamps.js';
import type { AccountContext, ChatDeps, Trx } from '../../context.js';
import type { ChatEvents, ConversationRefs, MessageRefs } from '../../events.js';
import type { AgentsService } from '../agents/agents.service.js';
import type { ConversationsService } from '../conversations/conversations.service.js';
import type { InboxesService } from '../inboxes/inboxes.service.js';
import type { LabelsService } from '../labels/labels.service.js';
import { businessTimeBetween } from '../sla/sla.hours.js';
import type { TeamsService } from '../teams/teams.service.js';
import * as live from './reports-live.repository.js';
import type { ReportingEvent, ReportingEventName } from './reports.migration.js';
import * as repo from './reports.repository.js';
import type { ReportScope } from './reports.repository.js';
import type {
  ChannelQuery,
  ConversationsReportQuery,
  EventsQuery,
  ReportMetric,
  ReportType,
  SeriesQuery,
  SummaryQuery,
} from './reports.schema.js';
import { t } from '../../../core/i18n/catalogue.js';

const DAY = 86_400_000;
const EVENTS_PER_PAGE = 25;
/** The most buckets a time series answers (about 2.7 years by day). */
const MAX_BUCKETS = 1000;

/** The conversation object events carry (conversations.presenter.ts), as far as reports read it. */
type ConversationView = ChatEvents['conversation_created']['snapshot'];

const seconds = (ms: number) => Math.max(0, Math.round(ms / 1000));
const round2 = (n: number) => Math.round(n * 100) / 100;

/** What the metric counts or averages, and over which event. */
const METRICS: Record<ReportMetric, { name: ReportingEventName; average: boolean }> = {
  conversations_count: { name: 'conversation_created', average: false },
  incoming_messages_count: { name: 'incoming_message', average: false },
  outgoing_messages_count: { name: 'outgoing_message', average: false },
  avg_first_response_time: { name: 'first_response', average: true },
  avg_resolution_time: { name: 'conversation_resolved', average: true },
  resolutions_count: { name: 'conversation_resolved', average: false },
};
const SUMMARY_NAMES: ReportingEventName[] = [
  'conversation_created',
  'incoming_message',
  'outgoing_message',
  'first_response',
  'conversation_resolved',
];

export interface SummaryFigures {
  conversations_count: number;
  incoming_messages_count: number;
  outgoing_messages_count: number;
  avg_first_response_time: number;
  avg_resolution_time: number;
  resolutions_count: number;
}

export interface ReportsServices {
  agents: AgentsService;
  inboxes: InboxesService;
  teams: TeamsService;
  labels: LabelsService;
  conversations: ConversationsService;
}

/**
 * Reports (docs/spec/decisions.md §10): reporting events recorded by the listener as things happen, read
 * back with grouped, indexed queries on reporting_events; messages are never scanned. The live
 * queue (reports/conversations, channel summary) counts the conversations table as it is now.
 */
export class ReportsService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly services: ReportsServices,
  ) {}

  /* Recording (the listener, in the dispatch transaction) --------------------------------------- */

  private facts(view: ConversationView) {
    return {
      inbox_id: view.inbox_id,
      user_id: view.assignee?.id ?? null,
      team_id: view.team?.id ?? null,
      labels: Array.isArray(view.labels) ? view.labels : [],
      createdAt: Date.parse(view.created_at),
    };
  }

  private async state(trx: Trx, accountId: number, refs: ConversationRefs, createdAt: number) {
    const found = await repo.findConversationState(trx, accountId, refs.conversationId);
    return (
      found ?? {
        conversation_id: refs.conversationId,
        account_id: accountId,
        created_at: Number.isFinite(createdAt) ? createdAt : Date.now(),
        waiting_since: null,
        first_response_at: null,
      }
    );
  }

  private async write(
    trx: Trx,
    accountId: number,
    refs: ConversationRefs,
    facts: ReturnType<ReportsService['facts']>,
    event: { name: ReportingEventName; value: number | null; start: number; end: number; userId?: number | null },
  ): Promise<void> {
    await repo.insertEvent(
      trx,
      {
        account_id: accountId,
        name: event.name,
        value: event.value,
        value_in_business_hours:
          event.value === null ? null : await this.inBusinessHours(trx, accountId, facts.inbox_id, event),
        conversation_id: refs.conversationId,
        display_id: refs.displayId,
        inbox_id: facts.inbox_id,
        user_id: event.userId !== undefined ? event.userId : facts.user_id,
        team_id: facts.team_id,
        event_start: event.start,
        event_end: event.end,
        created_at: Date.now(),
      },
      facts.labels,
    );
  }

  /**
   * A duration's seconds counted only within the inbox's working hours, in its time zone (the SLA
   * deadlines' calendar); the wall-clock value when the inbox does not use working hours.
   */
  private async inBusinessHours(
    trx: Trx,
    accountId: number,
    inboxId: number | null,
    event: { value: number | null; start: number; end: number },
  ): Promise<number | null> {
    const calendar = inboxId === null ? null : await this.services.inboxes.workingHoursOf(trx, accountId, inboxId);
    if (!calendar) return event.value;
    return seconds(businessTimeBetween(event.start, event.end, calendar.days, calendar.timeZone));
  }

  async recordCreated(trx: Trx, accountId: number, refs: ConversationRefs, view: ConversationView, at: number) {
    const facts = this.facts(view);
    const state = await this.state(trx, accountId, refs, facts.createdAt);
    await repo.saveConversationState(trx, state);
    await this.write(trx, accountId, refs, facts, { name: 'conversation_created', value: null, start: at, end: at });
  }

  async recordStatus(
    trx: Trx,
    accountId: number,
    refs: ConversationRefs,
    view: ChatEvents['conversation_status_changed']['snapshot'],
    at: number,
  ) {
    const facts = this.facts(view);
    const change = view.changed_attributes?.find((c) => 'status' in c)?.status;
    const previous = change?.previous_value;
    if (view.status === 'resolved') {
      const state = await this.state(trx, accountId, refs, facts.createdAt);
      const value = seconds(at - state.created_at);
      await this.write(trx, accountId, refs, facts, {
        name: 'conversation_resolved',
        value,
        start: state.created_at,
        end: at,
      });
    } else if (view.status === 'open' && previous !== 'open') {
      await this.write(trx, accountId, refs, facts, { name: 'conversation_opened', value: null, start: at, end: at });
    }
  }

  async recordMessage(
    trx: Trx,
    accountId: number,
    refs: MessageRefs,
    snapshot: ChatEvents['message_created']['snapshot'],
    at: number,
  ) {
    const facts = this.facts(snapshot.conversation as unknown as ConversationView);
    if (refs.messageType === 0) {
      const state = await this.state(trx, accountId, refs, facts.createdAt);
      await this.write(trx, accountId, refs, facts, { name: 'incoming_message', value: null, start: at, end: at });
      if (state.waiting_since === null) await repo.saveConversationState(trx, { ...state, waiting_since: at });
      return;
    }
    if (refs.messageType !== 1 || refs.private) return;
    const human = refs.senderType === 'user';
    const replier = human ? refs.senderId : facts.user_id;
    await this.write(trx, accountId, refs, facts, {
      name: 'outgoing_message',
      value: null,
      start: at,
      end: at,
      userId: replier,
    });
    if (!human) return;
    const state = await this.state(trx, accountId, refs, facts.createdAt);
    if (state.first_response_at === null) {
      const value = seconds(at - state.created_at);
      await this.write(trx, accountId, refs, facts, {
        name: 'first_response',
        value,
        start: state.created_at,
        end: at,
        userId: replier,
      });
      await repo.saveConversationState(trx, { ...state, first_response_at: at, waiting_since: null });
    } else if (state.waiting_since !== null) {
      const value = seconds(at - state.waiting_since);
      await this.write(trx, accountId, refs, facts, {
        name: 'reply_time',
        value,
        start: state.waiting_since,
        end: at,
        userId: replier,
      });
      await repo.saveConversationState(trx, { ...state, waiting_since: null });
    }
  }

  /* Reading ------------------------------------------------------------------------------------- */

  /** since/until as a range, until included (core/http/timestamps.ts); 422 naming what is missing or inverted. */
  private range(query: { since?: Timestamp; until?: Timestamp }): repo.Range {
    const { from, to } = timeRange(query.since, query.until, { required: true });
    return { from: from!, to: to! };
  }

  /** The events a report reads for its type and id (404 for an id of another account). */
  private async scope(ctx: AccountContext, type: ReportType, id: number | undefined): Promise<ReportScope> {
    if (type === 'account') return { kind: 'account' };
    if (id === undefined)
      throw unprocessable(t('id is required for type %{type}', { type }), [{ field: 'id', message: 'is required' }]);
    switch (type) {
      case 'agent': {
        const [agent] = await this.services.agents.byIds(this.deps.db, ctx.accountId, [id]);
        if (!agent) throw notFound('Agent');
        return { kind: 'user', id };
      }
      case 'inbox':
        await this.services.inboxes.get(ctx, id);
        return { kind: 'inbox', id };
      case 'team':
        await this.services.teams.get(ctx, id);
        return { kind: 'team', id };
      case 'label':
        return { kind: 'label', label: (await this.services.labels.get(ctx, id)).title };
    }
  }

  private async figures(ctx: AccountContext, scope: ReportScope, range: repo.Range): Promise<SummaryFigures> {
    const t = await repo.totals(this.deps.db, ctx.accountId, scope, SUMMARY_NAMES, range);
    const of = (name: ReportingEventName) => t.get(name) ?? { count: 0, sum: 0 };
    const avg = (name: ReportingEventName) => (of(name).count === 0 ? 0 : round2(of(name).sum / of(name).count));
    return {
      conversations_count: of('conversation_created').count,
      incoming_messages_count: of('incoming_message').count,
      outgoing_messages_count: of('outgoing_message').count,
      avg_first_response_time: avg('first_response'),
      avg_resolution_time: avg('conversation_resolved'),
      resolutions_count: of('conversation_resolved').count,
    };
  }

  /** The spec's summary for the range, and `previous` for the period of the same length before it. */
  async summary(ctx: AccountContext, query: SummaryQuery): Promise<SummaryFigures & { previous: SummaryFigures }> {
    const range = this.range(query);
    const scope = await this.scope(ctx, query.type, query.id);
    const length = range.to - range.from;
    const [current, previous] = await Promise.all([
      this.figures(ctx, scope, range),
      this.figures(ctx, scope, { from: range.from - length, to: range.from }),
    ]);
    return { ...current, previous };
  }

  /** One metric as a series of buckets (day, week or month in the client's offset), empty ones included. */
  async series(ctx: AccountContext, query: SeriesQuery) {
    const range = this.range(query);
    const scope = await this.scope(ctx, query.type, query.id);
    const metric = METRICS[query.metric];
    const offset = Math.round((query.timezone_offset ?? 0) * 3_600_000);
    const groupBy = query.group_by ?? 'day';
    const bucketOf = (day: number) => {
      if (groupBy === 'week') return day - ((((day + 3) % 7) + 7) % 7); // weeks start on Monday
      if (groupBy === 'month') {
        const d = new Date(day * DAY);
        return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / DAY;
      }
      return day;
    };
    const firstDay = Math.floor((range.from + offset) / DAY);
    const lastDay = Math.floor((range.to - 1 + offset) / DAY);
    const buckets = new Map<number, { count: number; sum: number }>();
    for (let day = firstDay; day <= lastDay; day++) {
      buckets.set(bucketOf(day), { count: 0, sum: 0 });
      if (buckets.size > MAX_BUCKETS)
        throw unprocessable(
          t('The range has more than %{max} buckets of group_by %{group}', { max: MAX_BUCKETS, group: groupBy }),
          [{ field: 'until', message: t('is too far from since for group_by %{group}', { group: groupBy }) }],
        );
    }
    for (const row of await repo.daily(this.deps.db, ctx.accountId, scope, metric.name, range, offset)) {
      const bucket = buckets.get(bucketOf(row.day));
      if (!bucket) continue;
      bucket.count += row.count;
      bucket.sum += row.sum;
    }
    return [...buckets.entries()].map(([day, b]) => ({
      value: metric.average ? (b.count === 0 ? 0 : round2(b.sum / b.count)) : b.count,
      timestamp: Math.floor((day * DAY - offset) / 1000),
      count: b.count,
    }));
  }

  /** The live queue: the account's counts, or per agent, inbox, team or label (`id` narrows to one). */
  async conversations(ctx: AccountContext, query: ConversationsReportQuery) {
    this.range(query);
    const db = this.deps.db;
    const none: live.QueueCounts = { open: 0, unattended: 0, unassigned: 0, pending: 0 };
    const id = query.id ?? query.user_id;
    if (query.type === 'account') return (await live.queueCounts(db, ctx.accountId, 'account')).get(null) ?? none;
    if (id !== undefined) await this.scope(ctx, query.type, id);
    const keep = <T extends { id: number }>(rows: T[]) => (id === undefined ? rows : rows.filter((r) => r.id === id));
    switch (query.type) {
      case 'agent': {
        const counts = await live.queueCounts(db, ctx.accountId, 'assignee_id');
        return keep(await this.services.agents.list(ctx)).map((a) => {
          const c = counts.get(a.id) ?? none;
          return {
            id: a.id,
            name: a.name,
            email: a.email,
            thumbnail: a.avatar_url ?? '',
            availability: a.availability ?? 'offline',
            metric: { open: c.open, unattended: c.unattended, pending: c.pending },
          };
        });
      }
      case 'inbox': {
        const counts = await live.queueCounts(db, ctx.accountId, 'inbox_id');
        return keep(await this.services.inboxes.list(ctx)).map((i) => ({
          id: i.id,
          name: i.name,
          metric: counts.get(i.id) ?? none,
        }));
      }
      case 'team': {
        const counts = await live.queueCounts(db, ctx.accountId, 'team_id');
        return keep((await this.services.teams.list(ctx)).map((v) => v.team)).map((t) => ({
          id: t.id,
          name: t.name,
          metric: counts.get(t.id) ?? none,
        }));
      }
      case 'label': {
        const counts = await live.queueCountsByLabel(db, ctx.accountId);
        return keep(await this.services.labels.list(ctx)).map((l) => ({
          id: l.id,
          name: l.title,
          metric: counts.get(l.title) ?? none,
        }));
      }
    }
  }

  /** Conversations created in the range (all time without one) per channel type and status. */
  async channels(ctx: AccountContext, query: ChannelQuery) {
    return live.channelCounts(this.deps.db, ctx.accountId, timeRange(query.since, query.until));
  }

  /** GET {A}/conversations/:id/reporting_events: the conversation's events, oldest first. */
  async ofConversation(ctx: AccountContext, displayId: number): Promise<ReportingEvent[]> {
    const conversation = await this.services.conversations.get(ctx, displayId);
    return repo.eventsOfConversation(this.deps.db, ctx.accountId, conversation.id);
  }

  /** GET {A}/reporting_events: the account's events, newest first, 25 a page. */
  async list(ctx: AccountContext, query: EventsQuery) {
    const page = query.page ?? 1;
    const { rows, total } = await repo.listEvents(
      this.deps.db,
      ctx.accountId,
      {
        name: query.name,
        inboxId: query.inbox_id,
        userId: query.user_id,
        range: timeRange(query.since, query.until),
      },
      { limit: EVENTS_PER_PAGE, offset: (page - 1) * EVENTS_PER_PAGE },
    );
    return { rows, total, page, pages: Math.ceil(total / EVENTS_PER_PAGE) };
  }
}
