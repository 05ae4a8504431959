import type { PortableMigration } from '../../../core/db/migrator.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * Paying a bill records its expense: `transactions.bill_id` names the bill whose payment a
 * transaction records (null for every other transaction). The unique index keeps it to one
 * expense per bill and serves the look-up by bill; deleting a bill takes its expense with it.
 *
 * Bills paid before this migration get no expense here: people may already have typed those
 * payments in by hand, and an automatic one would count them twice.
 */
async function up(db: UntypedDb): Promise<void> {
  await db.schema
    .alterTable('transactions')
    .addColumn('bill_id', 'bigint', (c) => c.references('bills.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('transactions_bill_uidx').on('transactions').column('bill_id').unique().execute();
}

export const migration0008BillExpenses: PortableMigration = { up };
