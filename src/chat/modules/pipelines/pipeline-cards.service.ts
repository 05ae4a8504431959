import { inTransaction } from '../../../core/db/transaction.js';
import { HttpError, invalidField } from '../../../core/http/errors.js';
import type { Timestamp } from '../../../core/http/timestamps.js';
import type { AccountContext, ChatDeps, Trx } from '../../context.js';
import { changedAttributes } from '../contacts/contacts.events.js';
import { fromMinorUnits, toMinorUnits } from './pipeline-cards.money.js';
import { presentCard } from './pipeline-cards.presenter.js';
import type { CardRecords, TimelineWrite } from './pipeline-cards.records.js';
import { closeDateOf, currencyOf, type CardReferences } from './pipeline-cards.references.js';
import * as repo from './pipeline-cards.repository.js';
import { userNames } from './card-views.repository.js';
import type { CardCreateBody, CardUpdateBody } from './pipeline-cards.schema.js';
import type { CardView } from './pipeline-cards.views.js';
import type { PipelinesService } from './pipelines.service.js';
import type { PipelineCard, PipelineCardsTable, PipelineStage } from './pipelines.tables.js';
import type { Insertable, Updateable } from 'kysely';
import { t } from '../../../core/i18n/catalogue.js';

const cleanTitle = (title: string) => {
  const trimmed = title.trim();
  if (trimmed === '') throw invalidField('title', "can't be blank");
  return trimmed;
};

/** The close date a body sets: `expected_close_date`, else the UTC date of `deadline`; null clears it. */
function closeDateFrom(body: {
  expected_close_date?: string | null;
  deadline?: Timestamp | null;
}): string | null | undefined {
  if (body.expected_close_date !== undefined) return body.expected_close_date;
  if (body.deadline === undefined || body.deadline === null) return body.deadline;
  return closeDateOf(body.deadline);
}

/** The value a body gives, and the field it came from: item_details.value, value, else expected_revenue. */
function valueOf(body: {
  item_details?: { value?: number | string };
  value?: number | string;
  expected_revenue?: number | string;
}): { value: number | string; field: string } | undefined {
  if (body.item_details?.value !== undefined) return { value: body.item_details.value, field: 'item_details.value' };
  if (body.value !== undefined) return { value: body.value, field: 'value' };
  if (body.expected_revenue !== undefined) return { value: body.expected_revenue, field: 'expected_revenue' };
  return undefined;
}

/** A card to create whose references are checked: its stage, owner, contact and conversation ids. */
export interface NewCard {
  stage: PipelineStage;
  title: string;
  itemTitle: string | null;
  valueMinor: number;
  currency: string;
  contactId: number | null;
  conversationId: number | null;
  ownerId: number | null;
  closeDate: string | null;
  attributes: Record<string, unknown>;
}

/** What changes on a card: the columns, and the timeline entries that record it. */
export interface CardChange {
  values: Updateable<PipelineCardsTable>;
  timeline: Omit<TimelineWrite, 'card'>[];
}

/**
 * Cards (deals): create, read, change, assign. Agents and administrators work cards; other modules
 * (pipeline automations, lead scoring) join their own transaction through the optional `trx`.
 * Each change writes its timeline entries and its event in the transaction of the change.
 */
export class PipelineCardsService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly records: CardRecords,
    private readonly pipelines: PipelinesService,
    private readonly references: CardReferences,
  ) {}

  /** A live card's view (404 for unknown, discarded, or another account's). */
  async get(ctx: AccountContext, id: number, trx?: Trx): Promise<CardView> {
    const q = trx ?? this.deps.db;
    return this.records.view(q, ctx.accountId, await this.records.find(q, ctx, id));
  }

  async create(ctx: AccountContext, body: CardCreateBody, trx?: Trx): Promise<CardView> {
    const title = cleanTitle(body.title);
    const closeDate = closeDateFrom(body) ?? null;
    return inTransaction(this.deps.db, trx, async (trx) => {
      const pipeline = await this.pipelines.find(trx, ctx.accountId, body.pipeline_id);
      const stage = await this.pipelines.stageByKey(trx, ctx.accountId, body.pipeline_stage);
      if (!stage || stage.pipeline_id !== pipeline.id)
        throw invalidField(
          'pipeline_stage',
          t('must be a stage of pipeline %{pipeline}, as {pipeline_id}_{slug}', { pipeline: pipeline.id }),
        );
      const conversation =
        body.conversation_display_id == null
          ? null
          : await this.references.conversation(trx, ctx, body.conversation_display_id);
      const contactId =
        body.contact_id != null
          ? await this.references.contact(trx, ctx, body.contact_id)
          : (conversation?.contactId ?? null);
      const ownerId = body.owner_id == null ? null : (await this.references.owner(trx, ctx, body.owner_id)).id;
      const currencyField = body.item_details?.currency !== undefined ? 'item_details.currency' : 'currency';
      const currencyInput = body.item_details?.currency ?? body.currency;
      const currency =
        currencyInput === undefined
          ? await this.references.defaultCurrency(trx, ctx.accountId)
          : currencyOf(currencyInput, currencyField);
      const given = valueOf(body);
      const [view] = await this.insertNew(trx, ctx, [
        {
          stage,
          title,
          itemTitle: body.item_details?.title ?? null,
          valueMinor: toMinorUnits(given?.value ?? 0, currency, given?.field),
          currency,
          contactId,
          conversationId: conversation?.id ?? null,
          ownerId,
          closeDate,
          attributes: body.custom_attributes ?? {},
        },
      ]);
      return view;
    });
  }

  /**
   * Creates many cards whose references are already checked in the account (a CSV import), each
   * at the end of its stage, in the caller's transaction: the same rows, timeline entries and
   * events as `create`, written a few statements for all of them instead of a dozen per card.
   */
  createMany(ctx: AccountContext, cards: NewCard[], trx: Trx): Promise<CardView[]> {
    return this.insertNew(
      trx,
      ctx,
      cards.map((c) => ({ ...c, title: cleanTitle(c.title) })),
    );
  }

  private async insertNew(trx: Trx, ctx: AccountContext, cards: NewCard[]): Promise<CardView[]> {
    const now = Date.now();
    const next = new Map<number, number>();
    const values: Insertable<PipelineCardsTable>[] = [];
    for (const c of cards) {
      const position = next.get(c.stage.id) ?? (await repo.nextPosition(trx, ctx.accountId, c.stage.id));
      next.set(c.stage.id, position + 1);
      values.push({
        account_id: ctx.accountId,
        pipeline_id: c.stage.pipeline_id,
        stage_id: c.stage.id,
        title: c.title,
        item_title: c.itemTitle,
        value_minor: c.valueMinor,
        currency: c.currency,
        status: 'open',
        position,
        stage_version: 1,
        stage_entered_at: now,
        contact_id: c.contactId,
        conversation_id: c.conversationId,
        owner_id: c.ownerId,
        expected_close_date: c.closeDate,
        custom_attributes: JSON.stringify(c.attributes),
        qualification_checklist: '{}',
        lead_score: 0,
        lead_score_overridden: 0,
        won_note: null,
        lost_reason: null,
        closed_at: null,
        deleted_at: null,
        created_by: ctx.userId,
        created_at: now,
        updated_at: now,
      });
    }
    const rows = await repo.insertCards(trx, values);
    const stageOf = new Map(cards.map((c) => [c.stage.id, c.stage]));
    const views = await this.records.views(trx, ctx.accountId, rows);
    const viewById = new Map(views.map((v) => [v.card.id, v]));
    await this.records.timeline(
      trx,
      ctx,
      rows.map((card) => ({
        card,
        type: 'created' as const,
        data: {
          stage: { id: stageOf.get(card.stage_id)!.key, name: stageOf.get(card.stage_id)!.name },
          value: fromMinorUnits(card.value_minor, card.currency),
          currency: card.currency,
        },
      })),
      now,
    );
    const ordered = rows.map((card) => viewById.get(card.id)!);
    await this.records.emit(
      trx,
      ctx,
      'pipeline_card_created',
      ordered.map((view) => ({ view, refs: {} })),
    );
    return ordered;
  }

  /**
   * Changes a card (PATCH). Writes `value_changed`, `owner_changed` and `score_overridden` entries
   * as they apply, and one `pipeline_card_updated` with `changed_attributes`; a request that changes
   * nothing writes nothing.
   */
  async update(ctx: AccountContext, id: number, body: CardUpdateBody, trx?: Trx): Promise<CardView> {
    const title = body.title === undefined ? undefined : cleanTitle(body.title);
    return inTransaction(this.deps.db, trx, async (trx) => {
      const card = await this.records.find(trx, ctx, id);
      const change: CardChange = { values: {}, timeline: [] };
      if (title !== undefined && title !== card.title) change.values.title = title;
      if (body.item_details?.title !== undefined && body.item_details.title !== card.item_title)
        change.values.item_title = body.item_details.title;
      this.changeValue(card, body, change);
      if (body.owner_id !== undefined) await this.changeOwner(trx, ctx, card, body.owner_id, change);
      if (body.contact_id !== undefined) {
        const contactId = body.contact_id === null ? null : await this.references.contact(trx, ctx, body.contact_id);
        if (contactId !== card.contact_id) change.values.contact_id = contactId;
      }
      if (body.conversation_display_id !== undefined) {
        const conversationId =
          body.conversation_display_id === null
            ? null
            : (await this.references.conversation(trx, ctx, body.conversation_display_id)).id;
        if (conversationId !== card.conversation_id) change.values.conversation_id = conversationId;
      }
      const closeDate = closeDateFrom(body);
      if (closeDate !== undefined && closeDate !== card.expected_close_date)
        change.values.expected_close_date = closeDate;
      if (body.custom_attributes !== undefined) {
        const attributes = JSON.stringify(body.custom_attributes);
        if (attributes !== card.custom_attributes) change.values.custom_attributes = attributes;
      }
      if (body.lead_score !== undefined && (body.lead_score !== card.lead_score || !card.lead_score_overridden)) {
        change.values.lead_score = body.lead_score;
        change.values.lead_score_overridden = 1;
        change.timeline.push({ type: 'score_overridden', data: { from: card.lead_score, to: body.lead_score } });
      }
      return this.applyChange(trx, ctx, card, change);
    });
  }

  /** Sets (or, with null, clears) a card's owner: `PATCH .../assign`. */
  async assign(ctx: AccountContext, id: number, ownerId: number | null, trx?: Trx): Promise<CardView> {
    return inTransaction(this.deps.db, trx, async (trx) => {
      const card = await this.records.find(trx, ctx, id);
      const change: CardChange = { values: {}, timeline: [] };
      await this.changeOwner(trx, ctx, card, ownerId, change);
      return this.applyChange(trx, ctx, card, change);
    });
  }

  /**
   * Assigns many cards to one owner, all or nothing: an id that is unknown, discarded or of another
   * account answers 404 and changes nothing. Cards already with that owner are left as they are.
   */
  async bulkAssign(ctx: AccountContext, ids: number[], ownerId: number | null, trx?: Trx): Promise<CardView[]> {
    const unique = [...new Set(ids)];
    return inTransaction(this.deps.db, trx, async (trx) => {
      const cards = await repo.findCards(trx, ctx.accountId, unique);
      if (cards.length !== unique.length) {
        const found = new Set(cards.map((c) => c.id));
        const missing = unique.filter((id) => !found.has(id));
        throw new HttpError(404, 'not_found', t('Pipeline cards not found: %{ids}', { ids: missing.join(', ') }));
      }
      const owner = ownerId === null ? null : await this.references.owner(trx, ctx, ownerId);
      const byId = new Map(cards.map((c) => [c.id, c]));
      const result: PipelineCard[] = [];
      for (const id of unique) {
        const card = byId.get(id)!;
        const change: CardChange = { values: {}, timeline: [] };
        await this.changeOwner(trx, ctx, card, owner?.id ?? null, change, owner);
        result.push((await this.applyChange(trx, ctx, card, change)).card);
      }
      return this.records.views(trx, ctx.accountId, result);
    });
  }

  private changeValue(card: PipelineCard, body: CardUpdateBody, change: CardChange) {
    const currencyInput = body.item_details?.currency ?? body.currency;
    const given = valueOf(body);
    if (currencyInput === undefined && given === undefined) return;
    const currency =
      currencyInput === undefined
        ? card.currency
        : currencyOf(currencyInput, body.item_details?.currency !== undefined ? 'item_details.currency' : 'currency');
    const minor =
      given === undefined
        ? toMinorUnits(fromMinorUnits(card.value_minor, card.currency), currency, 'currency')
        : toMinorUnits(given.value, currency, given.field);
    if (minor === card.value_minor && currency === card.currency) return;
    if (currency !== card.currency) change.values.currency = currency;
    if (minor !== card.value_minor) change.values.value_minor = minor;
    change.timeline.push({
      type: 'value_changed',
      data: {
        from: fromMinorUnits(card.value_minor, card.currency),
        to: fromMinorUnits(minor, currency),
        from_currency: card.currency,
        currency,
      },
    });
  }

  private async changeOwner(
    trx: Trx,
    ctx: AccountContext,
    card: PipelineCard,
    ownerId: number | null,
    change: CardChange,
    known?: { id: number; name: string } | null,
  ) {
    if (ownerId === card.owner_id) return;
    const owner = ownerId === null ? null : (known ?? (await this.references.owner(trx, ctx, ownerId)));
    const previous =
      card.owner_id === null
        ? null
        : { id: card.owner_id, name: (await userNames(trx, [card.owner_id])).get(card.owner_id) ?? null };
    change.values.owner_id = owner?.id ?? null;
    change.timeline.push({ type: 'owner_changed', data: { from_owner: previous, to_owner: owner } });
  }

  /**
   * Writes a change, its timeline entries and one `pipeline_card_updated` (with
   * `changed_attributes`); a change without values writes nothing. Returns the card's view.
   */
  async applyChange(trx: Trx, ctx: AccountContext, card: PipelineCard, change: CardChange): Promise<CardView> {
    if (Object.keys(change.values).length === 0) return this.records.view(trx, ctx.accountId, card);
    const now = Date.now();
    const before = await this.records.view(trx, ctx.accountId, card);
    const updated = await repo.updateCard(trx, card, { ...change.values, updated_at: now });
    const view = await this.records.view(trx, ctx.accountId, updated);
    await this.records.timeline(
      trx,
      ctx,
      change.timeline.map((t) => ({ ...t, card: updated })),
      now,
    );
    const previous = presentCard(before) as Record<string, unknown>;
    const current = presentCard(view) as Record<string, unknown>;
    const keys = Object.keys(current).filter((k) => k !== 'updated_at');
    const changed = changedAttributes(
      Object.fromEntries(keys.map((k) => [k, previous[k]])),
      Object.fromEntries(keys.map((k) => [k, current[k]])),
    );
    await this.records.emit(trx, ctx, 'pipeline_card_updated', [
      {
        view,
        refs: {
          changed: changed.flatMap((c) => Object.keys(c)),
          ...(change.values.owner_id !== undefined ? { previousOwnerId: card.owner_id } : {}),
        },
        extra: { changed_attributes: changed },
      },
    ]);
    return view;
  }
}
