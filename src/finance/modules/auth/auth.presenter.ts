import { idString } from '../../context.js';
import type { MembershipRole, User } from '../../db/schema.js';
import type { TokenPair } from '../sessions/sessions.service.js';

export interface SessionView {
  pair: TokenPair;
  user: User;
  role: MembershipRole;
  account: { id: number; name: string };
}

export const presentUserSummary = (user: User, role: MembershipRole) => ({
  id: idString(user.id),
  email: user.email,
  fullName: user.full_name,
  role,
});

export const presentAccountRef = (account: { id: number; name: string }) => ({
  id: idString(account.id),
  name: account.name,
});

export function presentSession(s: SessionView) {
  return { ...s.pair, user: presentUserSummary(s.user, s.role), account: presentAccountRef(s.account) };
}

export function presentProfile(user: User, role: MembershipRole, account: { id: number; name: string }) {
  return {
    ...presentUserSummary(user, role),
    avatarUrl: user.avatar_url,
    emailVerified: user.email_verified === 1,
    isSuperAdmin: user.is_super_admin === 1,
    account: presentAccountRef(account),
  };
}

export const presentMembership = (m: { account_id: number; account_name: string; role: MembershipRole }) => ({
  id: idString(m.account_id),
  name: m.account_name,
  role: m.role,
});
