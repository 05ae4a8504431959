import { toIso } from '../../../core/time.js';
import { idString } from '../../context.js';
import type { Bill } from '../../db/schema.js';
import { fromCents } from '../../http/values.js';

/** A bill (payable) as the API and the `bill.paid` event show it. */
export const presentBill = (b: Bill) => ({
  id: idString(b.id),
  supplier: b.supplier,
  description: b.description,
  category: b.category,
  amount: fromCents(b.amount_cents),
  currency: b.currency,
  dueDate: b.due_date,
  status: b.status,
  paidAt: toIso(b.paid_at),
  createdAt: toIso(b.created_at),
  updatedAt: toIso(b.updated_at),
});

export type PresentedBill = ReturnType<typeof presentBill>;
