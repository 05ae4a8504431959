import type { PortableMigration } from '../../../core/db/migrator.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * The conversation list's counts (all / unassigned / mine) for one status read only that status's
 * index entries, without visiting the table: (account_id, status, assignee_id) covers them. Before,
 * a status-filtered count walked every conversation of the account.
 */
export const migration0008ConversationCountsIndex: PortableMigration = {
  async up(db: UntypedDb) {
    await db.schema
      .createIndex('conversations_account_status_assignee_idx')
      .on('conversations')
      .columns(['account_id', 'status', 'assignee_id'])
      .execute();
  },
};
