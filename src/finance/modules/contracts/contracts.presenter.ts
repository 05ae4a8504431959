import { toIso } from '../../../core/time.js';
import { idString } from '../../context.js';
import type { Contract } from '../../db/schema.js';
import { fromCents } from '../../http/values.js';

/** A contract as the API and the `contract.*` events show it. */
export const presentContract = (c: Contract) => ({
  id: idString(c.id),
  party: c.party,
  description: c.description,
  value: fromCents(c.value_cents),
  currency: c.currency,
  startDate: c.start_date,
  endDate: c.end_date,
  status: c.status,
  cancelledAt: toIso(c.cancelled_at),
  createdAt: toIso(c.created_at),
  updatedAt: toIso(c.updated_at),
});

export type PresentedContract = ReturnType<typeof presentContract>;
