import { toIso } from '../../../core/time.js';
import { idString } from '../../context.js';
import type { Transaction } from '../../db/schema.js';
import { fromCents } from '../../http/values.js';

/** A transaction as the API (and its events) show it. */
export const presentTransaction = (t: Transaction) => ({
  id: idString(t.id),
  kind: t.kind,
  amount: fromCents(t.amount_cents),
  currency: t.currency,
  date: t.date,
  category: t.category,
  description: t.description,
  status: t.status,
  billId: t.bill_id === null ? null : idString(t.bill_id),
  createdAt: toIso(t.created_at),
  updatedAt: toIso(t.updated_at),
});

export type PresentedTransaction = ReturnType<typeof presentTransaction>;
