import { randomUUID } from 'node:crypto';
import { invalidField, notFound } from '../../../core/http/errors.js';
import { rangeOf } from '../../../core/http/timestamps.js';
import { enqueueJob, type JobDefinition, type RunningJob } from '../../../core/jobs/jobs.js';
import { assertStaff, systemContext, type AccountContext, type ChatDeps, type Trx } from '../../context.js';
import type { ContactsService } from '../contacts/contacts.service.js';
import type { CardScoringService } from '../pipelines/card-scoring.service.js';
import type { CardReads } from '../pipelines/card-reads.js';
import type { PipelineCardsService } from '../pipelines/pipeline-cards.service.js';
import { scoreCategory } from '../pipelines/pipeline-cards.presenter.js';
import type { LeadScoringEngine } from './lead-score.engine.js';
import * as bulkRepo from './lead-score-bulk.repository.js';
import * as logsRepo from './lead-score-logs.repository.js';
import * as rulesRepo from './lead-score-rules.repository.js';
import type { CustomEventBody, LogsQuery } from './lead-score.schema.js';
import type { LeadScoreBulkJob, LeadScoreLog } from './lead-scoring.tables.js';

export const BULK_JOB = 'lead_scoring.bulk_recalculate';
export const STALE_JOB = 'lead_scoring.stale_in_stage';
const DAY = 24 * 60 * 60_000;
/** Waits before retrying a failed batch; after the last, the run is marked failed. */
const BULK_RETRY_DELAYS_MS = [10_000, 60_000, 300_000] as const;
/** Days in one stage after which the daily job records `stale_in_stage`. */
export const STALE_DAYS = 14;

interface BulkPayload {
  accountId: number;
  jobId: number;
  /** The job's `last_card_id` when this batch was queued: a batch runs once, in order. */
  after: number;
}

export interface LeadScoringOptions {
  clock?: () => number;
  /** Cards per bulk recalculation batch (one transaction each). */
  bulkBatchSize?: number;
  /** Wait between two batches (ms): lets other jobs run in between (default 0). */
  bulkBatchGapMs?: number;
}

/**
 * Lead scoring's use cases beyond rules: custom events, the change logs, bulk recalculation as a
 * chain of batch jobs with progress, and the daily `stale_in_stage` check.
 */
export class LeadScoringService {
  private readonly clock: () => number;
  private readonly batchSize: number;
  private readonly batchGapMs: number;

  constructor(
    private readonly deps: ChatDeps,
    private readonly services: {
      engine: LeadScoringEngine;
      pipelineCards: PipelineCardsService;
      pipelineCardScoring: CardScoringService;
      pipelineCardReads: CardReads;
      contacts: ContactsService;
    },
    options: LeadScoringOptions = {},
  ) {
    this.clock = options.clock ?? Date.now;
    this.batchSize = options.bulkBatchSize ?? 250;
    this.batchGapMs = options.bulkBatchGapMs ?? 0;
  }

  /**
   * `POST {A}/lead_score/events`: a `custom_event` for one card, or for every open card of a
   * contact. Unknown (or another account's) card or contact is 404; neither is 422.
   */
  async recordCustomEvent(ctx: AccountContext, body: CustomEventBody) {
    assertStaff(ctx);
    if (body.pipeline_card_id === undefined && body.contact_id === undefined)
      throw invalidField('pipeline_card_id', 'or contact_id is required');
    const subtype = body.event_subtype.trim();
    if (subtype === '') throw invalidField('event_subtype', "can't be blank");
    return this.deps.db.transaction().execute(async (trx) => {
      if (body.pipeline_card_id !== undefined) await this.services.pipelineCards.get(ctx, body.pipeline_card_id, trx);
      if (body.contact_id !== undefined) await this.services.contacts.get(ctx, body.contact_id, trx);
      const reach =
        body.pipeline_card_id !== undefined ? { cardId: body.pipeline_card_id } : { contactId: body.contact_id };
      const ids = await this.services.engine.handle(trx, ctx.accountId, {
        key: `custom:${randomUUID()}`,
        type: 'custom_event',
        subtype,
        attributes: { event_subtype: subtype, properties: body.properties ?? {} },
        occurredAt: this.clock(),
        reach,
        conversationId: null,
      });
      const views = await Promise.all(ids.map((id) => this.services.pipelineCards.get(ctx, id, trx)));
      return {
        event_type: 'custom_event' as const,
        event_subtype: subtype,
        pipeline_card_ids: ids,
        cards: views.map((v) => ({
          id: v.card.id,
          lead_score: v.card.lead_score,
          lead_score_category: scoreCategory(v.card.lead_score).category,
        })),
      };
    });
  }

  async logs(
    ctx: AccountContext,
    query: LogsQuery,
  ): Promise<{ rows: LeadScoreLog[]; total: number; page: number; perPage: number }> {
    assertStaff(ctx);
    const page = Math.max(1, query.page ?? 1);
    const perPage = query.per_page ?? 25;
    const { from, to } = rangeOf(query);
    const result = await logsRepo.listLogs(
      this.deps.db,
      ctx.accountId,
      {
        cardId: query.pipeline_card_id ?? query.card_id,
        contactId: query.contact_id,
        ruleId: query.rule_id,
        eventType: query.event_type,
        categoryChangesOnly: query.category_changes_only,
        from,
        to,
      },
      page,
      perPage,
    );
    return { ...result, page, perPage };
  }

  async log(ctx: AccountContext, id: number): Promise<LeadScoreLog> {
    assertStaff(ctx);
    const log = await logsRepo.findLog(this.deps.db, ctx.accountId, id);
    if (!log) throw notFound('Lead score log');
    return log;
  }

  /** Starts recalculating every live card of the account in the background; answers the job at once. */
  async bulkRecalculate(ctx: AccountContext): Promise<LeadScoreBulkJob> {
    assertStaff(ctx);
    const now = this.clock();
    return this.deps.db.transaction().execute(async (trx) => {
      const job = await bulkRepo.insertBulkJob(trx, {
        account_id: ctx.accountId,
        status: 'queued',
        total: await this.services.pipelineCardReads.countLive(trx, ctx.accountId),
        processed: 0,
        last_card_id: 0,
        error: null,
        created_by: ctx.userId,
        created_at: now,
        started_at: null,
        finished_at: null,
      });
      await this.enqueueBatch(trx, { accountId: ctx.accountId, jobId: job.id, after: 0 }, now);
      return job;
    });
  }

  async bulkJob(ctx: AccountContext, id: number): Promise<LeadScoreBulkJob> {
    assertStaff(ctx);
    const job = await bulkRepo.findBulkJob(this.deps.db, ctx.accountId, id);
    if (!job) throw notFound('Bulk recalculation');
    return job;
  }

  private enqueueBatch(trx: Trx, payload: BulkPayload, now: number, runAt = now) {
    return enqueueJob(
      trx,
      { name: BULK_JOB, payload, runAt, dedupeKey: `lead-score-bulk:${payload.jobId}:${payload.after}` },
      now,
    );
  }

  /**
   * One batch of a bulk recalculation, in one transaction with its progress and the next batch's
   * job: a crash repeats the batch, a second run of a finished batch does nothing.
   */
  async runBulkBatch(payload: BulkPayload): Promise<void> {
    const now = this.clock();
    const ctx = systemContext(payload.accountId);
    await this.deps.db.transaction().execute(async (trx) => {
      const job = await bulkRepo.findBulkJob(trx, payload.accountId, payload.jobId);
      if (!job || job.status === 'completed' || job.status === 'failed' || job.last_card_id !== payload.after) return;
      const ids = await this.services.pipelineCardReads.liveIds(trx, payload.accountId, payload.after, this.batchSize);
      for (const id of ids) await this.services.pipelineCardScoring.recalculate(ctx, id, trx);
      const done = ids.length < this.batchSize;
      const processed = job.processed + ids.length;
      await bulkRepo.updateBulkJob(trx, payload.accountId, job.id, {
        status: done ? 'completed' : 'running',
        processed,
        total: done ? processed : Math.max(job.total, processed),
        last_card_id: ids.length > 0 ? ids[ids.length - 1] : job.last_card_id,
        started_at: job.started_at ?? now,
        finished_at: done ? now : null,
      });
      if (!done) await this.enqueueBatch(trx, { ...payload, after: ids[ids.length - 1] }, now, now + this.batchGapMs);
    });
  }

  private async failBulkJob(payload: BulkPayload, err: unknown): Promise<void> {
    const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    await bulkRepo.updateBulkJob(this.deps.db, payload.accountId, payload.jobId, {
      status: 'failed',
      error: message,
      finished_at: this.clock(),
    });
  }

  /**
   * The daily check: every open card that has been STALE_DAYS in its stage gets one
   * `custom_event` `stale_in_stage` per stay in a stage (keyed by stage and entry time).
   */
  async recordStaleCards(now = this.clock()): Promise<number> {
    let after = 0;
    let recorded = 0;
    for (;;) {
      const cards = await this.services.pipelineCardReads.idle(this.deps.db, now - STALE_DAYS * DAY, after, 200);
      if (cards.length === 0) return recorded;
      for (const c of cards) {
        await this.deps.db.transaction().execute(async (trx) => {
          const days = Math.floor((now - Number(c.stage_entered_at)) / DAY);
          const rules = await rulesRepo.enabledRulesFor(trx, c.account_id, 'custom_event');
          const ctx = systemContext(c.account_id);
          const view = await this.services.pipelineCards.get(ctx, c.id, trx).catch(() => null);
          if (!view) return;
          const applied = await this.services.engine.applyToCard(
            trx,
            ctx,
            view,
            {
              key: `stale:${c.stage_id}:${c.stage_entered_at}`,
              type: 'custom_event',
              subtype: 'stale_in_stage',
              attributes: { event_subtype: 'stale_in_stage', days_in_stage: days },
              occurredAt: now,
              reach: { cardId: c.id },
              conversationId: null,
            },
            rules,
          );
          if (applied) recorded++;
        });
      }
      after = cards[cards.length - 1].id;
    }
  }

  jobs(): JobDefinition[] {
    return [
      {
        name: BULK_JOB,
        retryDelaysMs: BULK_RETRY_DELAYS_MS,
        handle: async (job: RunningJob<BulkPayload>) => {
          try {
            await this.runBulkBatch(job.payload);
          } catch (err) {
            // The last attempt: the progress endpoint says failed instead of running for ever.
            if (job.attempts > BULK_RETRY_DELAYS_MS.length) await this.failBulkJob(job.payload, err);
            throw err;
          }
        },
      },
      {
        name: STALE_JOB,
        schedule: { daily: '03:00' },
        handle: async (_job, context) => {
          await this.recordStaleCards(context.now);
        },
      },
    ];
  }
}
