import { enqueueJob, rescheduleJob } from '../../../core/jobs/jobs.js';
import type { Trx } from '../../context.js';

/** The job that starts sending a one-off campaign at its `scheduled_at` (one per campaign). */
export const START_JOB = 'campaigns.start';
/** One batch of a campaign's recipients; each batch queues the next. */
export const BATCH_JOB = 'campaigns.send_batch';

export interface StartPayload {
  accountId: number;
  campaignId: number;
}
export interface BatchPayload extends StartPayload {
  batch: number;
}

const startKey = (campaignId: number) => `campaign:${campaignId}`;
const batchKey = (campaignId: number, batch: number) => `campaign:${campaignId}:batch:${batch}`;

/**
 * Makes the campaign's start job due at `runAt`, in the caller's transaction: queued the first time
 * (dedupe key per campaign), moved when the campaign is rescheduled, and armed again after it has
 * run (a campaign disabled at its time and enabled later). A run in progress is left alone: it
 * re-reads the campaign and queues a job at the new time itself (CampaignSending.start).
 */
export async function armStartJob(trx: Trx, payload: StartPayload, runAt: number, now: number): Promise<void> {
  await rescheduleJob(trx, { name: START_JOB, payload, runAt, dedupeKey: startKey(payload.campaignId) }, now);
}

/** A start job for a time the campaign was moved to while its own job was running. */
export async function enqueueLateStart(trx: Trx, payload: StartPayload, runAt: number, now: number): Promise<void> {
  const dedupeKey = `${startKey(payload.campaignId)}:at:${runAt}`;
  await enqueueJob(trx, { name: START_JOB, payload, runAt, dedupeKey }, now);
}

/** Queues link `batch` of a campaign's chain (one job per link). */
export async function enqueueBatch(trx: Trx, payload: BatchPayload, runAt: number, now: number): Promise<void> {
  await enqueueJob(
    trx,
    { name: BATCH_JOB, payload, runAt, dedupeKey: batchKey(payload.campaignId, payload.batch) },
    now,
  );
}
