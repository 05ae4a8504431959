import type { Generated, Selectable } from 'kysely';

/**
 * Row types of the sales pipeline (migration 0020_pipelines). Timestamps are epoch milliseconds,
 * booleans 0/1, JSON documents text, money integer minor units of the card's currency.
 */

export interface PipelinesTable {
  id: Generated<number>;
  account_id: number;
  name: string;
  description: string | null;
  created_at: number;
  updated_at: number;
}

export interface PipelineStagesTable {
  id: Generated<number>;
  account_id: number;
  pipeline_id: number;
  /** The public id, `{pipeline_id}_{slug}`: fixed when the stage is created, kept across renames. */
  key: string;
  name: string;
  /** `#rrggbb` (or `#rgb`), or null. */
  color: string | null;
  /** 0 = first. */
  position: number;
  created_at: number;
  updated_at: number;
}

export type CardStatus = 'open' | 'won' | 'lost';

export interface PipelineCardsTable {
  id: Generated<number>;
  account_id: number;
  pipeline_id: number;
  stage_id: number;
  title: string;
  /** `item_details.title`: what is being sold, when the client names it. */
  item_title: string | null;
  /** The value in minor units of `currency` (cents for BRL, yen for JPY): never a binary float. */
  value_minor: number;
  currency: string;
  status: CardStatus;
  /** Order inside the stage (ascending; ties by id). */
  position: number;
  /** Incremented by every stage change: `expected_version` on a move compares against it. */
  stage_version: number;
  stage_entered_at: number;
  contact_id: number | null;
  conversation_id: number | null;
  owner_id: number | null;
  /** YYYY-MM-DD. */
  expected_close_date: string | null;
  custom_attributes: string;
  /** JSON object: criterion id -> {id, name, checked, points, required, category, notes, checked_at, checked_by}. */
  qualification_checklist: string;
  /** 0..100; filled by lead scoring (or a manual override). */
  lead_score: number;
  lead_score_overridden: number;
  won_note: string | null;
  lost_reason: string | null;
  /** When the deal was won or lost (null while open). */
  closed_at: number | null;
  /** Soft delete: set while the card is discarded. */
  deleted_at: number | null;
  /** Why it was discarded, when the client said (migration 0150); cleared on restore. */
  deleted_reason: Generated<string | null>;
  created_by: number | null;
  created_at: number;
  updated_at: number;
}

/** Live cards of one stage with one status and currency, and their summed value (see the migration). */
export interface PipelineStageCountsTable {
  id: Generated<number>;
  account_id: number;
  pipeline_id: number;
  stage_id: number;
  status: CardStatus;
  currency: string;
  cards: number;
  /** Sum of value_minor div 1,000,000. */
  value_high: number;
  /** Sum of value_minor mod 1,000,000. */
  value_low: number;
}

export type TimelineEntryType =
  | 'created'
  | 'stage_change'
  | 'note_added'
  | 'deal_won'
  | 'deal_lost'
  | 'deal_reopened'
  | 'owner_changed'
  | 'value_changed'
  | 'attachment_added'
  | 'attachment_removed'
  | 'score_overridden';

export type PerformerType = 'user' | 'agent_bot' | 'automation' | 'system';

export interface PipelineCardTimelineTable {
  id: Generated<number>;
  account_id: number;
  card_id: number;
  type: TimelineEntryType;
  /** JSON object: the entry's facts (from_stage and to_stage, content, lost_reason...). */
  data: string;
  performer_type: PerformerType;
  performer_id: number | null;
  /** The performer's name at the time, so history reads the same after a user leaves. */
  performer_name: string | null;
  created_at: number;
  /* The entry's facts as columns, for analytics (migration 0151): the card after the change. */
  pipeline_id: number | null;
  /** The stage a `created` or `stage_change` entry entered; null for other types. */
  stage_id: number | null;
  owner_id: number | null;
  /** The value and currency a deal closed with (`deal_won`, `deal_lost`). */
  value_minor: number | null;
  currency: string | null;
  /** The lost reason of a `deal_lost` entry. */
  reason: string | null;
}

/** Live cards per pipeline, owner (owner_key 0: none), status and currency (migration 0152, kept by triggers). */
export interface PipelineOwnerCountsTable {
  account_id: number;
  pipeline_id: number;
  owner_key: number;
  status: CardStatus;
  currency: string;
  cards: number;
  value_high: number;
  value_low: number;
}

export interface PipelineCardAttachmentsTable {
  id: Generated<number>;
  account_id: number;
  card_id: number;
  file_name: string;
  content_type: string;
  file_type: string;
  extension: string | null;
  file_size: number;
  storage_key: string;
  uploaded_by: number | null;
  created_at: number;
}

export interface PipelineTables {
  pipelines: PipelinesTable;
  pipeline_stages: PipelineStagesTable;
  pipeline_cards: PipelineCardsTable;
  pipeline_stage_counts: PipelineStageCountsTable;
  pipeline_card_timeline: PipelineCardTimelineTable;
  pipeline_card_attachments: PipelineCardAttachmentsTable;
  pipeline_owner_counts: PipelineOwnerCountsTable;
}

export type Pipeline = Selectable<PipelinesTable>;
export type PipelineStage = Selectable<PipelineStagesTable>;
export type PipelineCard = Selectable<PipelineCardsTable>;
export type TimelineEntry = Selectable<PipelineCardTimelineTable>;
export type CardAttachment = Selectable<PipelineCardAttachmentsTable>;
