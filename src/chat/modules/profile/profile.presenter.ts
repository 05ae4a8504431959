import { parseJsonObject } from '../../../core/time.js';
import type { ProfileService } from './profile.service.js';

type Profile = Awaited<ReturnType<ProfileService['profile']>>;

export function presentProfile({ user, token, memberships }: Pick<Profile, 'user' | 'token' | 'memberships'>) {
  const first = memberships[0];
  return {
    id: user.id,
    name: user.name,
    display_name: user.display_name,
    available_name: user.display_name || user.name,
    email: user.email,
    uid: user.email,
    provider: 'email',
    avatar_url: user.avatar_url ?? '',
    type: 'user',
    confirmed: true,
    custom_attributes: parseJsonObject(user.custom_attributes),
    access_token: token,
    pubsub_token: user.pubsub_token,
    account_id: first?.id ?? null,
    role: first?.role ?? null,
    accounts: memberships.map((m) => ({
      id: m.id,
      name: m.name,
      locale: m.locale,
      status: m.status,
      role: m.role,
      availability: m.availability,
      availability_status: m.availability,
      auto_offline: m.auto_offline === 1,
    })),
  };
}

/** The devise-token headers of a sign-in session, as Chatwoot's dashboard and mobile app read them. */
export function sessionHeaders(email: string, session: { client: string; accessToken: string; expiresAt: number }) {
  return {
    'access-token': session.accessToken,
    'token-type': 'Bearer',
    client: session.client,
    expiry: String(Math.floor(session.expiresAt / 1000)),
    uid: email,
  };
}
