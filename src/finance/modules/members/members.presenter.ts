import { toIso } from '../../../core/time.js';
import { idString } from '../../context.js';
import type { MembershipRole } from '../../db/schema.js';

export interface MemberView {
  id: number;
  email: string;
  full_name: string;
  avatar_url: string | null;
  email_verified: number;
  is_super_admin: number;
  role: MembershipRole;
  joined_at: number;
}

export const presentMember = (m: MemberView) => ({
  id: idString(m.id),
  email: m.email,
  fullName: m.full_name,
  role: m.role,
  avatarUrl: m.avatar_url,
  emailVerified: m.email_verified === 1,
  isSuperAdmin: m.is_super_admin === 1,
  joinedAt: toIso(m.joined_at),
});
