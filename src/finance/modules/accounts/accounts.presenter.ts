import { toIso } from '../../../core/time.js';
import type { Account } from '../../db/schema.js';

export const presentAccount = (a: Account) => ({
  id: String(a.id),
  name: a.name,
  locale: a.locale,
  createdAt: toIso(Number(a.created_at)),
  updatedAt: toIso(Number(a.updated_at)),
});
