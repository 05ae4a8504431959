import { toIso } from '../../../core/time.js';
import type { LeadScoreBulkJob, LeadScoreLog } from './lead-scoring.tables.js';

/** A log row as the API shows it (docs/spec/decisions.md §8). */
export function presentLog(log: LeadScoreLog) {
  return {
    id: log.id,
    pipeline_card_id: log.card_id,
    contact_id: log.contact_id,
    rule_id: log.rule_id,
    rule_name: log.rule_name,
    event_type: log.event_type,
    event_subtype: log.event_subtype,
    points: log.points,
    old_score: log.old_score,
    new_score: log.new_score,
    old_category: log.old_category,
    new_category: log.new_category,
    reason: log.reason,
    created_at: toIso(log.created_at),
  };
}

export function presentBulkJob(job: LeadScoreBulkJob) {
  return {
    job_id: job.id,
    status: job.status,
    processed: job.processed,
    total: job.total,
    error: job.error,
    created_at: toIso(job.created_at),
    started_at: toIso(job.started_at),
    finished_at: toIso(job.finished_at),
  };
}
