import { parseJsonObject, toIso } from '../../core/time.js';
import type { Account, AccountUser, User } from '../db/schema.js';

export function presentAccount(a: Account) {
  return {
    id: a.id,
    name: a.name,
    locale: a.locale,
    domain: a.domain,
    support_email: a.support_email,
    status: a.status,
    auto_resolve_duration: a.auto_resolve_duration,
    custom_attributes: parseJsonObject(a.custom_attributes),
    plan: a.plan,
    features: parseJsonObject(a.features) as Record<string, boolean>,
    created_at: toIso(a.created_at),
  };
}

export function presentPlatformUser(
  u: User,
  accessToken: string,
  accounts: { id: number; name: string; role: string }[],
) {
  return {
    id: u.id,
    name: u.name,
    display_name: u.display_name,
    email: u.email,
    created_at: toIso(u.created_at),
    custom_attributes: parseJsonObject(u.custom_attributes),
    access_token: accessToken,
    pubsub_token: u.pubsub_token,
    confirmed: true,
    accounts: accounts.map((m) => ({ id: m.id, name: m.name, role: m.role })),
  };
}

export function presentAccountUser(m: AccountUser) {
  return { id: m.id, account_id: m.account_id, user_id: m.user_id, role: m.role };
}
