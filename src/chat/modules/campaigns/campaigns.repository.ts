import type { Insertable, Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { Campaign, CampaignsTable } from './campaigns.migration.js';

/** Reserves the account's next campaign number (a counter row per account, incremented in the caller's transaction). */
export async function nextCampaignDisplayId(q: Q, accountId: number): Promise<number> {
  const row = await q
    .insertInto('campaign_counters')
    .values({ account_id: accountId, last_display_id: 1 })
    .onConflict((oc) =>
      oc
        .column('account_id')
        .doUpdateSet((eb) => ({ last_display_id: eb('campaign_counters.last_display_id', '+', 1) })),
    )
    .returning('last_display_id')
    .executeTakeFirstOrThrow();
  return Number(row.last_display_id);
}

export async function insertCampaign(q: Q, values: Insertable<CampaignsTable>): Promise<Campaign> {
  return q.insertInto('campaigns').values(values).returningAll().executeTakeFirstOrThrow();
}

/** A campaign of the account by its number. */
export async function findCampaign(q: Q, accountId: number, displayId: number): Promise<Campaign | undefined> {
  return q
    .selectFrom('campaigns')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('display_id', '=', displayId)
    .executeTakeFirst();
}

/** A campaign by its internal id (jobs carry it). */
export async function findCampaignById(q: Q, accountId: number, id: number): Promise<Campaign | undefined> {
  return q
    .selectFrom('campaigns')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function listCampaigns(q: Q, accountId: number): Promise<Campaign[]> {
  return q.selectFrom('campaigns').selectAll().where('account_id', '=', accountId).orderBy('display_id').execute();
}

/** The inbox's enabled ongoing campaigns that are still active (the widget's list). */
export async function listActiveOngoing(q: Q, accountId: number, inboxId: number): Promise<Campaign[]> {
  return q
    .selectFrom('campaigns')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('inbox_id', '=', inboxId)
    .where('campaign_type', '=', 'ongoing')
    .where('enabled', '=', 1)
    .where('campaign_status', '=', 'active')
    .orderBy('display_id')
    .execute();
}

export async function updateCampaign(
  q: Q,
  accountId: number,
  id: number,
  values: Updateable<CampaignsTable>,
): Promise<Campaign> {
  return q
    .updateTable('campaigns')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteCampaign(q: Q, accountId: number, id: number): Promise<void> {
  await q.deleteFrom('campaigns').where('account_id', '=', accountId).where('id', '=', id).execute();
}

/** The inboxes (id, name, channel type) of a page of campaigns, in one query. */
export async function inboxesOf(q: Q, accountId: number, inboxIds: number[]) {
  if (inboxIds.length === 0) return [];
  return q
    .selectFrom('inboxes')
    .select(['id', 'name', 'channel_type'])
    .where('account_id', '=', accountId)
    .where('id', 'in', [...new Set(inboxIds)])
    .execute();
}

/**
 * Starts sending a one-off campaign, once: only the first caller whose clock has reached
 * `scheduled_at` finds it unstarted, enabled and active; it sets `sending_started_at` and opens
 * the first link of the batch chain. Everyone else (another instance, a job run again) gets nothing.
 */
export async function claimStart(q: Q, accountId: number, id: number, now: number): Promise<Campaign | undefined> {
  return q
    .updateTable('campaigns')
    .set((eb) => ({ sending_started_at: now, send_batch: eb('send_batch', '+', 1), updated_at: now }))
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('campaign_type', '=', 'one_off')
    .where('enabled', '=', 1)
    .where('campaign_status', '=', 'active')
    .where('sending_started_at', 'is', null)
    .where('scheduled_at', 'is not', null)
    .where('scheduled_at', '<=', now)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Takes link `batch` of the chain: only the job carrying the current number goes on (and moves the
 * number on, so a duplicate or stale job finds nothing). Disabled or finished campaigns stop here.
 * On PostgreSQL the row stays locked until the batch commits, so two batches of one campaign never overlap.
 */
export async function claimBatch(
  q: Q,
  accountId: number,
  id: number,
  batch: number,
  now: number,
): Promise<Campaign | undefined> {
  return q
    .updateTable('campaigns')
    .set({ send_batch: batch + 1, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('send_batch', '=', batch)
    .where('enabled', '=', 1)
    .where('campaign_status', '=', 'active')
    .where('sending_started_at', 'is not', null)
    .returningAll()
    .executeTakeFirst();
}

/** Opens a new link of the chain (resuming a paused campaign); returns its number. */
export async function bumpBatch(q: Q, accountId: number, id: number, now: number): Promise<number> {
  const row = await q
    .updateTable('campaigns')
    .set((eb) => ({ send_batch: eb('send_batch', '+', 1), updated_at: now }))
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returning('send_batch')
    .executeTakeFirstOrThrow();
  return Number(row.send_batch);
}

export async function markCompleted(q: Q, accountId: number, id: number, now: number): Promise<void> {
  await q
    .updateTable('campaigns')
    .set({ campaign_status: 'completed', completed_at: now, updated_at: now })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('campaign_status', '=', 'active')
    .execute();
}
