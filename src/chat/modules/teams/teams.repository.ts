import type { Insertable, Updateable } from 'kysely';
import type { Q } from '../../context.js';
import type { TeamsTable } from '../../db/schema.js';

export async function insertTeam(q: Q, values: Insertable<TeamsTable>) {
  return q.insertInto('teams').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findTeam(q: Q, accountId: number, id: number) {
  return q.selectFrom('teams').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

/** A team of the account with the same name, compared case-insensitively by the database. */
export async function findTeamByName(q: Q, accountId: number, name: string) {
  return q
    .selectFrom('teams')
    .selectAll()
    .where('account_id', '=', accountId)
    .where((eb) => eb(eb.fn('lower', ['name']), '=', eb.fn('lower', [eb.val(name)])))
    .executeTakeFirst();
}

export async function listTeams(q: Q, accountId: number) {
  return q.selectFrom('teams').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
}

export async function updateTeam(q: Q, accountId: number, id: number, values: Updateable<TeamsTable>) {
  return q
    .updateTable('teams')
    .set(values)
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the team with its memberships; its conversations become unassigned from any team. */
export async function deleteTeam(q: Q, accountId: number, id: number) {
  await q
    .updateTable('conversations')
    .set({ team_id: null, updated_at: Date.now() })
    .where('account_id', '=', accountId)
    .where('team_id', '=', id)
    .execute();
  await q.deleteFrom('team_members').where('account_id', '=', accountId).where('team_id', '=', id).execute();
  await q.deleteFrom('teams').where('account_id', '=', accountId).where('id', '=', id).execute();
}

/** Ids of the teams a user belongs to in an account. */
export async function teamIdsOfUser(q: Q, accountId: number, userId: number): Promise<number[]> {
  const rows = await q
    .selectFrom('team_members')
    .select('team_id')
    .where('account_id', '=', accountId)
    .where('user_id', '=', userId)
    .execute();
  return rows.map((r) => r.team_id);
}

/** User ids of a team's members. */
export async function teamMemberIds(q: Q, accountId: number, teamId: number): Promise<number[]> {
  const rows = await q
    .selectFrom('team_members')
    .select('user_id')
    .where('account_id', '=', accountId)
    .where('team_id', '=', teamId)
    .execute();
  return rows.map((r) => r.user_id);
}

/** Adds members; those already in the team are left as they are. */
export async function addTeamMembers(q: Q, accountId: number, teamId: number, userIds: number[]) {
  if (userIds.length === 0) return;
  const now = Date.now();
  await q
    .insertInto('team_members')
    .values(userIds.map((userId) => ({ account_id: accountId, team_id: teamId, user_id: userId, created_at: now })))
    .onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
    .execute();
}

export async function removeTeamMembers(q: Q, accountId: number, teamId: number, userIds: number[]) {
  if (userIds.length === 0) return;
  await q
    .deleteFrom('team_members')
    .where('account_id', '=', accountId)
    .where('team_id', '=', teamId)
    .where('user_id', 'in', userIds)
    .execute();
}
