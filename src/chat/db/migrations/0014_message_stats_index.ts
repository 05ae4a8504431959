import type { PortableMigration } from '../../../core/db/migrator.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * The conversation list's unread count (incoming messages newer than the agent's last visit)
 * counts a range of this index per conversation, without visiting the table
 * (messages.repository.ts, conversationMessageStats). Before, a page's counts read every message
 * of its conversations.
 */
export const migration0014MessageStatsIndex: PortableMigration = {
  async up(db: UntypedDb) {
    await db.schema
      .createIndex('messages_unread_idx')
      .on('messages')
      .columns(['conversation_id', 'message_type', 'created_at'])
      .execute();
  },
};
