import type { Team } from '../../db/schema.js';

export function presentTeam(team: Team, isMember: boolean) {
  return {
    id: team.id,
    name: team.name,
    description: team.description,
    allow_auto_assign: team.allow_auto_assign === 1,
    account_id: team.account_id,
    is_member: isMember,
  };
}
