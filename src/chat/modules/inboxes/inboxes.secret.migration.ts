import type { PortableMigration } from '../../../core/db/migrator.js';
import { randomToken } from '../../../core/security/tokens.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * API inboxes deliver their events to `channel.webhook_url`, signed with the inbox's own secret
 * (kept in its channel settings as `secret`, as Chatwoot keeps it on the API channel). New API
 * inboxes get one when created; this gives one to the API inboxes created before.
 */
async function up(db: UntypedDb): Promise<void> {
  const rows: { id: number; channel: string }[] = await db
    .selectFrom('inboxes')
    .select(['id', 'channel'])
    .where('channel_type', '=', 'Channel::Api')
    .execute();
  for (const row of rows) {
    let channel: Record<string, unknown> = {};
    try {
      const parsed = JSON.parse(row.channel);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) channel = parsed;
    } catch {
      /* an unreadable document gets a fresh one */
    }
    if (typeof channel.secret === 'string' && channel.secret !== '') continue;
    await db
      .updateTable('inboxes')
      .set({ channel: JSON.stringify({ ...channel, secret: randomToken(24) }) })
      .where('id', '=', row.id)
      .execute();
  }
}

export const migration0011ApiInboxSecrets: PortableMigration = { up };
