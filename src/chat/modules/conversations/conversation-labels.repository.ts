import type { Q } from '../../context.js';
import * as taggings from '../../db/taggings.js';

/** Labels of conversations: the shared taggings with taggable_type 'Conversation'. */
const TYPE = 'Conversation' as const;

export const labelsOf = (q: Q, accountId: number, conversationId: number) =>
  taggings.labelsOf(q, accountId, TYPE, conversationId);

export const labelsOfMany = (q: Q, accountId: number, conversationIds: number[]) =>
  taggings.labelsOfMany(q, accountId, TYPE, conversationIds);

export const replaceLabels = (q: Q, accountId: number, conversationId: number, labels: string[]) =>
  taggings.replaceLabels(q, accountId, TYPE, conversationId, labels);

export const conversationsTaggedWith = (q: Q, accountId: number, labels?: string[]) =>
  taggings.taggedWith(q, accountId, TYPE, labels);
