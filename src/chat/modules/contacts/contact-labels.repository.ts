import type { Q } from '../../context.js';
import * as taggings from '../../db/taggings.js';

/** Labels of contacts: the shared taggings with taggable_type 'Contact'. */
const TYPE = 'Contact' as const;

export const labelsOf = (q: Q, accountId: number, contactId: number) =>
  taggings.labelsOf(q, accountId, TYPE, contactId);

export const replaceLabels = (q: Q, accountId: number, contactId: number, labels: string[]) =>
  taggings.replaceLabels(q, accountId, TYPE, contactId, labels);

export const deleteLabels = (q: Q, accountId: number, contactIds: number[]) =>
  taggings.deleteTaggings(q, accountId, TYPE, contactIds);

export const contactsTaggedWith = (q: Q, accountId: number, labels: string[]) =>
  taggings.taggedWith(q, accountId, TYPE, labels);
