import { sql } from 'kysely';
import type { PortableMigration } from '../../core/db/migrator.js';
import type { UntypedDb } from '../../core/db/untyped.js';

/**
 * Gives the installation's first platform app (the lowest id: the one whose token the first start
 * printed, or PLATFORM_TOKEN's) every account and user no app holds: those the command line made
 * before it acted as that app, and agents' users made inside accounts. The operator's platform
 * token can then set their plan and locale (decisions/0030). Also called when the command line
 * makes the first app itself (platform.service.ts `installationApp`).
 */
export async function grantUnheldToApp(db: UntypedDb, appId: number, now = Date.now()): Promise<void> {
  for (const [type, table] of [
    ['Account', 'accounts'],
    ['User', 'users'],
  ] as const) {
    await db
      .insertInto('platform_app_permissibles')
      .columns(['platform_app_id', 'permissible_type', 'permissible_id', 'created_at'])
      .expression(
        db
          .selectFrom(table)
          .select([
            sql.lit(appId).as('platform_app_id'),
            sql.lit(type).as('permissible_type'),
            `${table}.id as permissible_id`,
            sql.lit(now).as('created_at'),
          ])
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('platform_app_permissibles as held')
                  .select('held.id')
                  .where('held.permissible_type', '=', type)
                  .whereRef('held.permissible_id', '=', `${table}.id`),
              ),
            ),
          ),
      )
      .execute();
  }
}

async function up(db: UntypedDb): Promise<void> {
  const first = await db.selectFrom('platform_apps').select('id').orderBy('id').limit(1).executeTakeFirst();
  if (first) await grantUnheldToApp(db, Number(first.id));
}

export const migration0161InstallationApp: PortableMigration = { up };
