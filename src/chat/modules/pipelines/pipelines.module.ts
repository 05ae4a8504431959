import type { ChatModule } from '../../module.types.js';
import { cardAliasRoutes } from './card-aliases.routes.js';
import { cardAttachmentsRoutes } from './card-attachments.routes.js';
import { cardCsvRoutes } from './card-csv.routes.js';
import { CardCsvService } from './card-csv.service.js';
import { CardAttachmentsService } from './card-attachments.service.js';
import { CardDealsService } from './card-deals.service.js';
import { CardLifecycleService } from './card-lifecycle.service.js';
import { CardMovesService } from './card-moves.service.js';
import { CardReads } from './card-reads.js';
import { CardScoringService, type LeadScorer } from './card-scoring.service.js';
import { CardTimelineService } from './card-timeline.service.js';
import { cardWorkRoutes } from './card-work.routes.js';
import type { PipelineCardEvents } from './pipeline-cards.events.js';
import { CardQueries } from './pipeline-cards.queries.js';
import { CardRecords } from './pipeline-cards.records.js';
import { CardReferences } from './pipeline-cards.references.js';
import { pipelineCardsRoutes } from './pipeline-cards.routes.js';
import { PipelineCardsService } from './pipeline-cards.service.js';
import { migration0151TimelineFacts, migration0152OwnerCounts } from './deal-figures.migration.js';
import { DealFiguresService } from './deal-figures.service.js';
import { migration0020Pipelines, migration0150CardDeletedReason } from './pipelines.migration.js';
import { pipelinesRoutes } from './pipelines.routes.js';
import { PipelinesService } from './pipelines.service.js';
import type { PipelineTables } from './pipelines.tables.js';

declare module '../../module.types.js' {
  interface ChatExtensionPoints {
    /** How a card is scored (lead-scoring); without it, the checked checklist items' points. */
    leadScorer: LeadScorer;
  }
}
declare module '../../container.js' {
  interface ChatServices {
    pipelines: PipelinesService;
    /** Create, change, assign (and the building block other modules join: applyChange). */
    pipelineCards: PipelineCardsService;
    pipelineCardQueries: CardQueries;
    pipelineCardMoves: CardMovesService;
    pipelineDeals: CardDealsService;
    pipelineCardLifecycle: CardLifecycleService;
    pipelineCardTimeline: CardTimelineService;
    pipelineCardAttachments: CardAttachmentsService;
    /** The checklist and the score; lead scoring fills its scorer in (the leadScorer extension point). */
    pipelineCardScoring: CardScoringService;
    /** The read port other modules find cards through (ids and counts). */
    pipelineCardReads: CardReads;
    /** Win rate, conversion, velocity, the team's pipeline and lost reasons of a period. */
    pipelineDealFigures: DealFiguresService;
    /** Cards as CSV: export, template, import. */
    pipelineCardCsv: CardCsvService;
  }
}

declare module '../../db/schema.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the tables come from PipelineTables
  interface ChatDatabase extends PipelineTables {}
}

declare module '../../events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the events come from PipelineCardEvents
  interface ChatEvents extends PipelineCardEvents {}
}

/**
 * The sales pipeline (issue 11, docs/spec/decisions.md §7): pipelines and stages, cards (deals) with value,
 * owner, contact and deal status, their timeline, attachments and qualification checklist. Events
 * `pipeline_card_*` go through the outbox to webhooks, /cable, lead scoring and pipeline automations.
 */
const CARD_EVENTS = [
  'pipeline_card_created',
  'pipeline_card_updated',
  'pipeline_card_moved',
  'pipeline_card_won',
  'pipeline_card_lost',
  'pipeline_card_reopened',
  'pipeline_card_deleted',
] as const;

export const pipelinesModule: ChatModule = {
  name: 'pipelines',
  migrations: {
    '0020_pipelines': migration0020Pipelines,
    '0150_card_deleted_reason': migration0150CardDeletedReason,
    '0151_timeline_facts': migration0151TimelineFacts,
    '0152_pipeline_owner_counts': migration0152OwnerCounts,
  },
  offers: { leadScorer: (services, scorer) => services.pipelineCardScoring.useScorer(scorer) },
  // The sales pipeline's events (docs/spec/decisions.md §7): a superset of the spec's list. NooviChat calls a
  // card's move pipeline_card_stage_changed: its subscribers get pipeline_card_moved under that name.
  events: {
    webhooks: CARD_EVENTS,
    webhookAliases: { pipeline_card_stage_changed: 'pipeline_card_moved' },
    realtime: CARD_EVENTS,
  },
  services: (deps, built) => {
    const records = new CardRecords(deps, built.accounts);
    const references = new CardReferences({
      accounts: built.accounts,
      agents: built.agents,
      contacts: built.contacts,
      conversations: built.conversations,
    });
    const pipelines = new PipelinesService(deps, records);
    const pipelineCards = new PipelineCardsService(deps, records, pipelines, references);
    const pipelineCardTimeline = new CardTimelineService(deps, records);
    const pipelineCardAttachments = new CardAttachmentsService(deps, records);
    // Card files are served by the attachment file route, and go with their account.
    built.attachmentFiles.addSource(pipelineCardAttachments);
    const pipelineCardScoring = new CardScoringService(deps, records, pipelineCards);
    const pipelineCardQueries = new CardQueries(
      deps,
      records,
      pipelines,
      pipelineCardTimeline,
      pipelineCardAttachments,
      pipelineCardScoring,
    );
    return {
      pipelines,
      pipelineCards,
      pipelineCardQueries,
      pipelineCardCsv: new CardCsvService(deps, {
        queries: pipelineCardQueries,
        cards: pipelineCards,
        pipelines,
        references,
        agents: built.agents,
        contacts: built.contacts,
      }),
      pipelineCardMoves: new CardMovesService(deps, records, pipelines),
      pipelineDeals: new CardDealsService(deps, records),
      pipelineCardLifecycle: new CardLifecycleService(deps, records),
      pipelineCardTimeline,
      pipelineCardAttachments,
      pipelineCardScoring,
      pipelineCardReads: new CardReads(),
      pipelineDealFigures: new DealFiguresService(deps, pipelines, built.agents),
    };
  },
  routes: [pipelinesRoutes, pipelineCardsRoutes, cardWorkRoutes, cardAttachmentsRoutes, cardAliasRoutes, cardCsvRoutes],
};
