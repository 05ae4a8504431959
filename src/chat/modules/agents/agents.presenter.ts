import type { AgentRow } from './agents.repository.js';

export function presentAgent(a: AgentRow) {
  return {
    id: a.id,
    account_id: a.account_id,
    availability_status: a.availability,
    auto_offline: a.auto_offline === 1,
    confirmed: true,
    email: a.email,
    provider: 'email',
    available_name: a.display_name || a.name,
    name: a.name,
    role: a.role,
    thumbnail: a.avatar_url ?? '',
    custom_role_id: null,
  };
}
