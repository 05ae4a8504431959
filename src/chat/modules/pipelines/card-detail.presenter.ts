import { presentCardAttachment } from './card-attachments.presenter.js';
import type { AttachmentsView } from './card-attachments.service.js';
import { presentTimelineEntry } from './card-timeline.presenter.js';
import { presentCard, presentScore } from './pipeline-cards.presenter.js';
import type { CardDetail } from './pipeline-cards.queries.js';

export function presentAttachments(view: AttachmentsView, publicUrl: string) {
  return view.rows.map((row) => presentCardAttachment(row, publicUrl, view.uploaders));
}

/** A card with its latest timeline entries (newest first), its score and its attachments. */
export function presentCardDetail(detail: CardDetail, publicUrl: string) {
  return {
    ...presentCard(detail.view),
    timeline: detail.timeline.map(presentTimelineEntry),
    score: presentScore(detail.view, detail.factors),
    attachments: presentAttachments(detail.attachments, publicUrl),
  };
}
