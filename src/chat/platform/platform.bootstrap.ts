import { randomToken } from '../../core/security/tokens.js';
import { issueAccessToken, ownerOfToken } from '../auth/access-tokens.js';
import type { Q } from '../context.js';
import * as repo from './platform.repository.js';

/**
 * Makes sure a platform app exists. With a configured token, that token is registered (once).
 * Without one, a token is generated the first time only and returned so the caller can print it.
 */
export async function ensurePlatformApp(
  db: Q,
  configuredToken?: string,
): Promise<{ token?: string; created: boolean }> {
  return db.transaction().execute(async (trx) => {
    if (configuredToken) {
      const owner = await ownerOfToken(trx, configuredToken);
      if (owner?.owner_type === 'PlatformApp') return { created: false };
      const app = await repo.insertPlatformApp(trx, 'Configured platform app');
      await issueAccessToken(trx, 'PlatformApp', app.id, configuredToken);
      return { created: true };
    }
    if ((await repo.countPlatformApps(trx)) > 0) return { created: false };
    const app = await repo.insertPlatformApp(trx, 'Default platform app');
    const token = randomToken(32);
    await issueAccessToken(trx, 'PlatformApp', app.id, token);
    return { token, created: true };
  });
}
