import { toIso } from '../../../core/time.js';
import { idString } from '../../context.js';
import type { Invoice } from '../../db/schema.js';
import { fromCents } from '../../http/values.js';

/** An invoice (receivable) as the API and the `invoice.*` events show it. */
export const presentInvoice = (i: Invoice) => ({
  id: idString(i.id),
  customer: i.customer,
  description: i.description,
  amount: fromCents(i.amount_cents),
  currency: i.currency,
  dueDate: i.due_date,
  status: i.status,
  issuedAt: toIso(i.issued_at),
  paidAt: toIso(i.paid_at),
  overdueAt: toIso(i.overdue_at),
  createdAt: toIso(i.created_at),
  updatedAt: toIso(i.updated_at),
});

export type PresentedInvoice = ReturnType<typeof presentInvoice>;
