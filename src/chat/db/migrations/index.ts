import type { PortableMigration } from '../../../core/db/migrator.js';
import { pushDeliveriesMigration } from '../../../core/push/push.migration.js';
import { migration0001 } from './0001_core.js';
import { migration0002Contacts } from './0002_contacts.js';
import { migration0003Webhooks } from './0003_webhooks.js';
import { migration0004Automation } from './0004_automation.js';
import { migration0005HistoryIndexes } from './0005_history_indexes.js';
import { migration0006RateLimits } from './0006_rate_limits.js';
import { migration0007InboxHmac } from './0007_inbox_hmac.js';
import { migration0008ConversationCountsIndex } from './0008_conversation_counts_index.js';
import { migration0009Backbone } from './0009_backbone.js';
import { migration0013AutomationRuns } from './0013_automation_runs.js';
import { migration0014MessageStatsIndex } from './0014_message_stats_index.js';
import { migration0016ConversationCounts } from './0016_conversation_counts.js';
import { migration0017ContactCounts } from './0017_contact_counts.js';
import { migration0019ContactSearch } from './0019_contact_search.js';

/**
 * The migrations of the core module, in order (chat/modules.ts collects every module's). Names
 * never change once released; a new module numbers its own after the last one here.
 */
export const coreChatMigrations: Record<string, PortableMigration> = {
  '0001_core': migration0001,
  '0002_contacts': migration0002Contacts,
  '0003_webhooks': migration0003Webhooks,
  '0004_automation': migration0004Automation,
  '0005_history_indexes': migration0005HistoryIndexes,
  '0006_rate_limits': migration0006RateLimits,
  '0007_inbox_hmac': migration0007InboxHmac,
  '0008_conversation_counts_index': migration0008ConversationCountsIndex,
  '0009_backbone': migration0009Backbone,
  '0013_automation_runs': migration0013AutomationRuns,
  '0014_message_stats_index': migration0014MessageStatsIndex,
  '0016_conversation_counts': migration0016ConversationCounts,
  '0017_contact_counts': migration0017ContactCounts,
  '0019_contact_search': migration0019ContactSearch,
  '0190_push_deliveries': pushDeliveriesMigration,
};
