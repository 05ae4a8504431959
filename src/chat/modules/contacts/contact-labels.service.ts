import type { AccountContext, ChatDeps, Trx } from '../../context.js';
import * as labelsRepo from './contact-labels.repository.js';
import type { ContactsService } from './contacts.service.js';
import { normalizeLabels } from '../labels/labels.names.js';

/** A contact's labels (`GET`/`POST {A}/contacts/:id/labels`). */
export class ContactLabelsService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly contacts: ContactsService,
  ) {}

  async list(ctx: AccountContext, contactId: number): Promise<string[]> {
    await this.contacts.get(ctx, contactId);
    return labelsRepo.labelsOf(this.deps.db, ctx.accountId, contactId);
  }

  /**
   * Adds labels to the contact's set in the caller's transaction (pipeline automations' add_label);
   * returns the new set, sorted. 404 for a contact not of the account.
   */
  async add(trx: Trx, ctx: AccountContext, contactId: number, labels: readonly string[]): Promise<string[]> {
    await this.contacts.get(ctx, contactId, trx);
    const current = await labelsRepo.labelsOf(trx, ctx.accountId, contactId);
    const next = normalizeLabels([...current, ...labels]);
    await labelsRepo.replaceLabels(trx, ctx.accountId, contactId, next);
    return next;
  }

  /** Replaces all the contact's labels with `labels`; returns the new set, sorted. */
  async replace(ctx: AccountContext, contactId: number, labels: readonly string[]): Promise<string[]> {
    const normalized = normalizeLabels(labels);
    return this.deps.db.transaction().execute(async (trx) => {
      await this.contacts.get(ctx, contactId, trx);
      await labelsRepo.replaceLabels(trx, ctx.accountId, contactId, normalized);
      return normalized;
    });
  }
}
