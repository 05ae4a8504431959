import type { AccountContext, ChatDeps } from '../../context.js';
import type { AttachmentsView, CardAttachmentsService } from './card-attachments.service.js';
import type { CardScoringService } from './card-scoring.service.js';
import type { CardTimelineService } from './card-timeline.service.js';
import type { ScoreFactor } from './pipeline-cards.presenter.js';
import type { CardRecords } from './pipeline-cards.records.js';
import * as repo from './pipeline-cards.repository.js';
import type { CardListQuery, PageOnlyQuery } from './pipeline-cards.schema.js';
import type { CardView } from './pipeline-cards.views.js';
import type { PipelinesService } from './pipelines.service.js';
import type { PipelineCard, TimelineEntry } from './pipelines.tables.js';

export const CARDS_PER_PAGE = 25;
export const MAX_PER_PAGE = 100;

export interface CardPage {
  views: CardView[];
  total: number;
  page: number;
  perPage: number;
}

export interface CardDetail {
  view: CardView;
  timeline: TimelineEntry[];
  attachments: AttachmentsView;
  factors: ScoreFactor[];
}

/**
 * Reading cards: the list (every filter, board order), one card's detail, the discarded cards.
 *
 * The list never sorts the matching cards as a whole. It reads the stages in board order (by
 * position, then pipeline), asks one grouped query how many cards of each stage match, and then
 * reads only the stages the requested page falls in, each through the (stage, position) index with
 * its own limit and offset. A page therefore costs the same with 1,000 or 100,000 cards; only the
 * grouped count grows with the number of matching cards, and it reads index entries alone.
 */
export class CardQueries {
  constructor(
    private readonly deps: ChatDeps,
    private readonly records: CardRecords,
    private readonly pipelines: PipelinesService,
    private readonly timeline: CardTimelineService,
    private readonly attachments: CardAttachmentsService,
    private readonly scoring: CardScoringService,
  ) {}

  /**
   * The list. NooviChat's names are read too: `pipeline_stage` for `stage_id`, and `limit` for
   * `per_page` (a page holds at most MAX_PER_PAGE cards whatever the limit; meta says how many).
   */
  async list(ctx: AccountContext, query: CardListQuery): Promise<CardPage> {
    const q = this.deps.db;
    const page = query.page ?? 1;
    const perPage = query.per_page ?? Math.min(query.limit ?? CARDS_PER_PAGE, MAX_PER_PAGE);
    const stageKey = query.stage_id ?? query.pipeline_stage;
    const empty: CardPage = { views: [], total: 0, page, perPage };
    const filter: repo.CardFilter = {
      pipelineId: query.pipeline_id,
      status: query.status,
      ownerId: query.owner_id,
      contactId: query.contact_id,
    };
    const term = query.q?.trim();
    if (term) filter.search = { term, operator: this.deps.dialect === 'postgres' ? 'ilike' : 'like' };
    let stages = await this.pipelines.stagesInListOrder(q, ctx.accountId, query.pipeline_id);
    if (stageKey !== undefined) {
      // A stage id that names no stage of the account (or of the pipeline asked for) matches nothing.
      const stage = await this.pipelines.stageByKey(q, ctx.accountId, stageKey.trim());
      if (!stage || (query.pipeline_id !== undefined && stage.pipeline_id !== query.pipeline_id)) return empty;
      filter.stageId = stage.id;
      stages = [stage];
    }
    const counts = await repo.countByStage(q, ctx.accountId, filter);
    const total = [...counts.values()].reduce((n, c) => n + c, 0);
    const rows: PipelineCard[] = [];
    let skip = (page - 1) * perPage;
    for (const stage of stages) {
      const need = perPage - rows.length;
      if (need === 0) break;
      const inStage = counts.get(stage.id) ?? 0;
      if (skip >= inStage) {
        skip -= inStage;
        continue;
      }
      rows.push(...(await repo.pageInStage(q, ctx.accountId, stage.id, filter, Math.min(need, inStage - skip), skip)));
      skip = 0;
    }
    return { views: await this.records.views(q, ctx.accountId, rows), total, page, perPage };
  }

  /** The cards of one pipeline of the account (`GET {A}/pipelines/{id}/pipeline_cards`): 404 for another's. */
  async listOfPipeline(ctx: AccountContext, pipelineId: number, query: CardListQuery): Promise<CardPage> {
    await this.pipelines.find(this.deps.db, ctx.accountId, pipelineId);
    return this.list(ctx, { ...query, pipeline_id: pipelineId });
  }

  /** A live card with its latest 50 timeline entries, its attachments and its score's factors. */
  async detail(ctx: AccountContext, id: number): Promise<CardDetail> {
    const q = this.deps.db;
    const card = await this.records.find(q, ctx, id);
    const [view, timeline, attachments, factors] = await Promise.all([
      this.records.view(q, ctx.accountId, card),
      this.timeline.latest(undefined, ctx.accountId, card.id),
      this.attachments.list(ctx, card.id, q),
      this.scoring.factors(q, card),
    ]);
    return { view, timeline, attachments, factors };
  }

  /** The detail of a card just written (the answer of checklist and score changes). */
  async detailOf(ctx: AccountContext, view: CardView): Promise<CardDetail> {
    const q = this.deps.db;
    const [timeline, attachments, factors] = await Promise.all([
      this.timeline.latest(undefined, ctx.accountId, view.card.id),
      this.attachments.list(ctx, view.card.id, q),
      this.scoring.factors(q, view.card),
    ]);
    return { view, timeline, attachments, factors };
  }

  /** Discarded cards, most recently discarded first. */
  async discarded(ctx: AccountContext, query: PageOnlyQuery): Promise<CardPage> {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? CARDS_PER_PAGE;
    const { rows, total } = await repo.discardedPage(this.deps.db, ctx.accountId, perPage, (page - 1) * perPage);
    return { views: await this.records.views(this.deps.db, ctx.accountId, rows), total, page, perPage };
  }
}
