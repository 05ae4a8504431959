import type { PortableMigration } from '../../../core/db/migrator.js';
import { pushDeliveriesMigration } from '../../../core/push/push.migration.js';
import { migration0001 } from './0001_core.js';
import { migration0002 } from './0002_identity.js';
import { migration0003 } from './0003_finance_data.js';
import { migration0004 } from './0004_notifications.js';
import { migration0005 } from './0005_history_indexes.js';
import { migration0006 } from './0006_invitations.js';
import { migration0007Backbone } from './0007_backbone.js';
import { migration0008BillExpenses } from './0008_bill_expenses.js';
import { migration0009AccountLocale } from './0009_account_locale.js';

/**
 * The migrations of the finance core module, in order (finance/modules.ts collects every module's).
 * Names never change once released.
 */
export const coreFinanceMigrations: Record<string, PortableMigration> = {
  '0001_core': migration0001,
  '0002_identity': migration0002,
  '0003_finance_data': migration0003,
  '0004_notifications': migration0004,
  '0005_history_indexes': migration0005,
  '0006_invitations': migration0006,
  '0007_backbone': migration0007Backbone,
  '0008_bill_expenses': migration0008BillExpenses,
  '0009_account_locale': migration0009AccountLocale,
  '0035_push_deliveries': pushDeliveriesMigration,
};
