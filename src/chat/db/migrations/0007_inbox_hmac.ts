import type { PortableMigration } from '../../../core/db/migrator.js';
import { randomToken } from '../../../core/security/tokens.js';
import type { UntypedDb } from '../../../core/db/untyped.js';

/**
 * Identity validation of the public interface (Chatwoot's HMAC): each inbox gets a key,
 * `hmac_token`, with which the customer's backend signs a contact's identifier
 * (`identifier_hash = hex HMAC-SHA256(hmac_token, identifier)`); `hmac_mandatory` makes the inbox
 * refuse identification without a valid hash; `contact_inboxes.hmac_verified` records that a
 * contact inbox was identified with one.
 *
 * `hmac_token` stays nullable (SQLite cannot add a NOT NULL column without a default, and an
 * empty-string default would be a key anyone knows): every existing inbox gets its own random
 * token here, every new one at creation, and a null token verifies nothing.
 */
async function up(db: UntypedDb): Promise<void> {
  await db.schema.alterTable('inboxes').addColumn('hmac_token', 'text').execute();
  await db.schema
    .alterTable('inboxes')
    .addColumn('hmac_mandatory', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('contact_inboxes')
    .addColumn('hmac_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  const rows: { id: number | string }[] = await db.selectFrom('inboxes').select('id').execute();
  for (const row of rows) {
    await db
      .updateTable('inboxes')
      .set({ hmac_token: randomToken(24) })
      .where('id', '=', row.id)
      .execute();
  }
}

export const migration0007InboxHmac: PortableMigration = { up };
