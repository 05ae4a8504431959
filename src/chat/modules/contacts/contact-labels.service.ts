import { fieldSentence, unprocessable, type FieldIssue } from '../../../core/http/errors.js';
import type { AccountContext, ChatDeps, Trx } from '../../context.js';
import * as labelsRepo from './contact-labels.repository.js';
import type { ContactsService } from './contacts.service.js';
import { t } from '../../../core/i18n/catalogue.js';

/** Labels are stored trimmed and lower-cased (Chatwoot's taggings force lower case). */
const normalizeLabel = (raw: string) => raw.trim().toLowerCase();

/**
 * Validates and normalizes a label set to store: each label trimmed, lower-cased, 1..255
 * characters, no commas (the list delimiter); duplicates collapse. Sorted. 422 naming each bad item.
 */
export function normalizeLabels(labels: readonly string[], field = 'labels'): string[] {
  const out = new Set<string>();
  const problems: FieldIssue[] = [];
  labels.forEach((raw, i) => {
    const label = normalizeLabel(raw);
    if (label === '') problems.push({ field: `${field}.${i}`, message: "can't be blank" });
    else if (label.length > 255)
      problems.push({ field: `${field}.${i}`, message: 'is too long (maximum is 255 characters)' });
    else if (label.includes(',')) problems.push({ field: `${field}.${i}`, message: 'must not contain commas' });
    else out.add(label);
  });
  if (problems.length > 0)
    throw unprocessable(t('Invalid labels: %{problems}', { problems: problems.map(fieldSentence) }), problems);
  return [...out].sort();
}

/**
 * Labels used as a list filter, leniently: `labels=a,b` splits on commas, blanks are dropped,
 * case is ignored. `undefined` when nothing is left (no filter).
 */
export function normalizeLabelFilter(labels: readonly string[] | undefined): string[] | undefined {
  if (!labels) return undefined;
  const out = new Set(
    labels
      .flatMap((l) => l.split(','))
      .map(normalizeLabel)
      .filter((l) => l !== ''),
  );
  return out.size > 0 ? [...out] : undefined;
}

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
