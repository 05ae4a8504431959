import type { Insertable, Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { AgentBotsTable } from '../../db/schema.js';

export async function insertBot(q: Q, values: Insertable<AgentBotsTable>) {
  return q.insertInto('agent_bots').values(values).returningAll().executeTakeFirstOrThrow();
}

/** A bot of the account (account_id = accountId), or a global bot when accountId is null. */
export async function findBot(q: Q, accountId: number | null, id: number) {
  let query = q.selectFrom('agent_bots').selectAll().where('id', '=', id);
  query = accountId === null ? query.where('account_id', 'is', null) : query.where('account_id', '=', accountId);
  return query.executeTakeFirst();
}

/** A bot usable in the account: its own bots and the global ones. */
export async function findUsableBot(q: Q, accountId: number, id: number) {
  return q
    .selectFrom('agent_bots')
    .selectAll()
    .where('id', '=', id)
    .where((eb) => eb.or([eb('account_id', '=', accountId), eb('account_id', 'is', null)]))
    .executeTakeFirst();
}

export async function listBots(q: Q, accountId: number) {
  return q.selectFrom('agent_bots').selectAll().where('account_id', '=', accountId).orderBy('id').limit(1000).execute();
}

export async function listBotsByIds(q: Q, ids: number[]) {
  if (ids.length === 0) return [];
  return q.selectFrom('agent_bots').selectAll().where('id', 'in', ids).orderBy('id').execute();
}

export async function updateBot(q: Q, id: number, values: Updateable<AgentBotsTable>) {
  return q.updateTable('agent_bots').set(values).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function deleteBot(q: Q, id: number) {
  await q.deleteFrom('access_tokens').where('owner_type', '=', 'AgentBot').where('owner_id', '=', id).execute();
  await q.updateTable('inboxes').set({ agent_bot_id: null }).where('agent_bot_id', '=', id).execute();
  await q.deleteFrom('agent_bots').where('id', '=', id).execute();
}

export async function setInboxBot(q: Q, accountId: number, inboxId: number, botId: number | null) {
  await q
    .updateTable('inboxes')
    .set({ agent_bot_id: botId, updated_at: Date.now() })
    .where('account_id', '=', accountId)
    .where('id', '=', inboxId)
    .execute();
}

/** A bot's delivery signing secret ('' for bots without one), or undefined when the bot is gone. */
export async function secretOf(q: Q, id: number): Promise<string | undefined> {
  const row = await q.selectFrom('agent_bots').select('secret').where('id', '=', id).executeTakeFirst();
  return row ? (row.secret ?? '') : undefined;
}
