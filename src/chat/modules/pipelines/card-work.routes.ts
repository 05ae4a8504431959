import { Type } from '@sinclair/typebox';
import { ChatErrorBody, IdParam } from '../../../core/http/schemas.js';
import { invalidField } from '../../../core/http/errors.js';
import { ctxOf } from '../../auth/auth.plugin.js';
import type { ChatRoutes } from '../../module.types.js';
import { presentTimelineEntry } from './card-timeline.presenter.js';
import { TIMELINE_PAGE } from './card-timeline.service.js';
import { presentCard } from './pipeline-cards.presenter.js';
import {
  A,
  CardList,
  CardParams,
  cardTags as tags,
  errors,
  OneCard,
  presentPage,
  security,
} from './pipeline-cards.routes.js';
import {
  AssignBody,
  BulkAssignBody,
  CardSchema,
  LostBody,
  NoteBody,
  PageOnlyQuery,
  TimelineEntrySchema,
  WonBody,
} from './pipeline-cards.schema.js';
import { DeletedSchema, ListMeta } from './pipelines.schema.js';

const AccountParams = Type.Object({ accountId: IdParam });

/**
 * Working a card under `{A}/pipeline/cards` (the spec's second spelling): deal status, owner,
 * timeline and notes, and the data-protection endpoints. Permanent deletion is for administrators.
 */
export const cardWorkRoutes: ChatRoutes = async (app, { services }) => {
  const deals = services.pipelineDeals;
  const cards = services.pipelineCards;
  const timeline = services.pipelineCardTimeline;
  const lifecycle = services.pipelineCardLifecycle;
  const C = `${A}/pipeline/cards`;

  app.post(
    `${C}/:id/deal_status/mark_won`,
    {
      schema: {
        tags,
        security,
        summary: 'Mark a deal won (from any state); won_value becomes its value',
        params: CardParams,
        body: WonBody,
        response: { 200: OneCard, ...errors },
      },
    },
    async (req) => ({ data: presentCard(await deals.markWon(ctxOf(req), req.params.id, req.body)) }),
  );

  app.post(
    `${C}/:id/deal_status/mark_lost`,
    {
      schema: {
        tags,
        security,
        summary: 'Mark a deal lost (from any state), with lost_reason (or reason)',
        params: CardParams,
        body: LostBody,
        response: { 200: OneCard, ...errors },
      },
    },
    async (req) => ({ data: presentCard(await deals.markLost(ctxOf(req), req.params.id, req.body)) }),
  );

  app.post(
    `${C}/:id/deal_status/reopen`,
    {
      schema: {
        tags,
        security,
        summary: 'Reopen a won or lost deal in its stage (409 invalid_transition when it is open)',
        params: CardParams,
        response: { 200: OneCard, 409: ChatErrorBody, ...errors },
      },
    },
    async (req) => ({ data: presentCard(await deals.reopen(ctxOf(req), req.params.id)) }),
  );

  app.get(
    `${C}/:id/timeline`,
    {
      schema: {
        tags,
        security,
        summary: "A card's timeline, newest first (50 per page)",
        params: CardParams,
        querystring: PageOnlyQuery,
        response: { 200: Type.Object({ data: Type.Array(TimelineEntrySchema), meta: ListMeta }), ...errors },
      },
    },
    async (req) => {
      const page = req.query.page ?? 1;
      const perPage = req.query.per_page ?? TIMELINE_PAGE;
      const { entries, total } = await timeline.list(ctxOf(req), req.params.id, page, perPage);
      return { data: entries.map(presentTimelineEntry), meta: { total, page, per_page: perPage } };
    },
  );

  app.post(
    `${C}/:id/notes`,
    {
      schema: {
        tags,
        security,
        summary: 'Add a note to a card (a note_added timeline entry)',
        params: CardParams,
        body: NoteBody,
        response: { 200: Type.Object({ data: TimelineEntrySchema }), ...errors },
      },
    },
    async (req) => ({
      data: presentTimelineEntry(await timeline.addNote(ctxOf(req), req.params.id, req.body.content)),
    }),
  );

  app.patch(
    `${C}/:id/assign`,
    {
      schema: {
        tags,
        security,
        summary: "Set a card's owner (an agent of the account); null unassigns",
        params: CardParams,
        body: AssignBody,
        response: { 200: OneCard, ...errors },
      },
    },
    async (req) => ({ data: presentCard(await cards.assign(ctxOf(req), req.params.id, req.body.owner_id)) }),
  );

  app.post(
    `${C}/bulk_assign`,
    {
      schema: {
        tags,
        security,
        summary: 'Assign up to 200 cards to one owner, all or nothing (card_ids or item_ids)',
        params: AccountParams,
        body: BulkAssignBody,
        response: { 200: Type.Object({ data: Type.Array(CardSchema) }), ...errors },
      },
    },
    async (req) => {
      const ids = req.body.card_ids ?? req.body.item_ids;
      if (!ids) throw invalidField('card_ids', 'is required (or item_ids)');
      return { data: (await cards.bulkAssign(ctxOf(req), ids, req.body.owner_id)).map(presentCard) };
    },
  );

  app.get(
    `${C}/discarded`,
    {
      schema: {
        tags,
        security,
        summary: 'Discarded cards, most recently discarded first',
        params: AccountParams,
        querystring: PageOnlyQuery,
        response: { 200: CardList, ...errors },
      },
    },
    async (req) => presentPage(await services.pipelineCardQueries.discarded(ctxOf(req), req.query)),
  );

  app.post(
    `${C}/:id/restore`,
    {
      schema: {
        tags,
        security,
        summary: 'Restore a discarded card at the end of its stage (409 invalid_transition when it is not discarded)',
        params: CardParams,
        response: { 200: OneCard, 409: ChatErrorBody, ...errors },
      },
    },
    async (req) => ({ data: presentCard(await lifecycle.restore(ctxOf(req), req.params.id)) }),
  );

  app.delete(
    `${C}/:id/permanently_delete`,
    {
      config: { adminOnly: true },
      schema: {
        tags,
        security,
        summary: 'Delete a card for good, with its timeline and files (administrators)',
        params: CardParams,
        response: { 200: DeletedSchema, ...errors },
      },
    },
    async (req) => {
      await lifecycle.permanentlyDelete(ctxOf(req), req.params.id);
      return { data: { id: req.params.id, deleted: true } };
    },
  );
};
