import type { Q } from '../context.js';
import type { PlatformAppPermissiblesTable } from '../db/schema.js';

type PermissibleType = PlatformAppPermissiblesTable['permissible_type'];

export async function grant(q: Q, appId: number, type: PermissibleType, id: number) {
  await q
    .insertInto('platform_app_permissibles')
    .values({ platform_app_id: appId, permissible_type: type, permissible_id: id, created_at: Date.now() })
    .onConflict((oc) => oc.columns(['platform_app_id', 'permissible_type', 'permissible_id']).doNothing())
    .execute();
}

export async function isGranted(q: Q, appId: number, type: PermissibleType, id: number): Promise<boolean> {
  const row = await q
    .selectFrom('platform_app_permissibles')
    .select('id')
    .where('platform_app_id', '=', appId)
    .where('permissible_type', '=', type)
    .where('permissible_id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

export async function revokeAll(q: Q, type: PermissibleType, id: number) {
  await q
    .deleteFrom('platform_app_permissibles')
    .where('permissible_type', '=', type)
    .where('permissible_id', '=', id)
    .execute();
}

export async function insertPlatformApp(q: Q, name: string) {
  return q
    .insertInto('platform_apps')
    .values({ name, created_at: Date.now() })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The installation's first platform app (the lowest id), if any. */
export async function firstPlatformApp(q: Q) {
  return q.selectFrom('platform_apps').select(['id', 'name']).orderBy('id').limit(1).executeTakeFirst();
}

export async function countPlatformApps(q: Q): Promise<number> {
  const row = await q
    .selectFrom('platform_apps')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function grantedIds(q: Q, appId: number, type: PermissibleType): Promise<number[]> {
  const rows = await q
    .selectFrom('platform_app_permissibles')
    .select('permissible_id')
    .where('platform_app_id', '=', appId)
    .where('permissible_type', '=', type)
    .orderBy('permissible_id')
    .limit(10000)
    .execute();
  return rows.map((r) => r.permissible_id);
}
