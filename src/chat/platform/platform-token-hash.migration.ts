import type { PortableMigration } from '../../core/db/migrator.js';
import { sha256Hex } from '../../core/security/tokens.js';
import type { UntypedDb } from '../../core/db/untyped.js';

/**
 * Platform app tokens were stored as they are; from this migration on only their SHA-256 is kept
 * (chat/auth/access-tokens.ts), as docs/SECURITY.md says. The tokens already given out keep
 * working: each stored token becomes its hash. User and bot tokens stay as they are (the profile
 * and the bot's page return them). Hashed in code, since SQLite has no SHA-256 function.
 */
async function up(db: UntypedDb): Promise<void> {
  const rows: { id: number; token: string }[] = await db
    .selectFrom('access_tokens')
    .select(['id', 'token'])
    .where('owner_type', '=', 'PlatformApp')
    .execute();
  for (const row of rows) {
    await db
      .updateTable('access_tokens')
      .set({ token: sha256Hex(row.token) })
      .where('id', '=', row.id)
      .execute();
  }
}

export const migration0160PlatformTokenHash: PortableMigration = { up };
