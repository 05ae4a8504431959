import { conflict, notFound } from '../../../core/http/errors.js';
import { assertStaff, type AccountContext, type ChatDeps, type Q } from '../../context.js';
import * as repo from './labels.repository.js';
import type { Label } from './labels.repository.js';
import { DEFAULT_LABEL_COLOR, type LabelCreateBody, type LabelUpdateBody } from './labels.schema.js';

const normalizeTitle = (title: string) => title.trim().toLowerCase();

const duplicate = () =>
  conflict('Title has already been taken', [{ field: 'title', message: 'has already been taken' }]);

/**
 * The account's label catalogue ({A}/labels). Contacts and conversations carry labels as strings
 * whether or not a label here describes them; renaming a label renames it on them too (as
 * Chatwoot does), deleting one leaves them as they are.
 */
export class LabelsService {
  constructor(private readonly deps: ChatDeps) {}

  async list(ctx: AccountContext): Promise<Label[]> {
    assertStaff(ctx);
    return repo.listLabels(this.deps.db, ctx.accountId);
  }

  async get(ctx: AccountContext, id: number, q: Q = this.deps.db): Promise<Label> {
    assertStaff(ctx);
    const label = await repo.findLabel(q, ctx.accountId, id);
    if (!label) throw notFound('Label');
    return label;
  }

  async create(ctx: AccountContext, body: LabelCreateBody): Promise<Label> {
    assertStaff(ctx);
    const title = normalizeTitle(body.title);
    return this.deps.db.transaction().execute(async (trx) => {
      if (await repo.findLabelByTitle(trx, ctx.accountId, title)) throw duplicate();
      const now = Date.now();
      return repo.insertLabel(trx, {
        account_id: ctx.accountId,
        title,
        description: body.description ?? null,
        color: body.color ?? DEFAULT_LABEL_COLOR,
        show_on_sidebar: body.show_on_sidebar ? 1 : 0,
        created_at: now,
        updated_at: now,
      });
    });
  }

  /** Updates the given fields; a new title is renamed on the contacts and conversations that carry the old one. */
  async update(ctx: AccountContext, id: number, body: LabelUpdateBody): Promise<Label> {
    return this.deps.db.transaction().execute(async (trx) => {
      const current = await this.get(ctx, id, trx);
      const title = body.title === undefined ? current.title : normalizeTitle(body.title);
      if (title !== current.title) {
        if (await repo.findLabelByTitle(trx, ctx.accountId, title)) throw duplicate();
        await repo.renameTaggings(trx, ctx.accountId, current.title, title);
      }
      return repo.updateLabel(trx, ctx.accountId, id, {
        title,
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.color !== undefined ? { color: body.color } : {}),
        ...(body.show_on_sidebar !== undefined ? { show_on_sidebar: body.show_on_sidebar ? 1 : 0 } : {}),
        updated_at: Date.now(),
      });
    });
  }

  async delete(ctx: AccountContext, id: number): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      await this.get(ctx, id, trx);
      await repo.deleteLabel(trx, ctx.accountId, id);
    });
  }
}
