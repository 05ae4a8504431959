import { unauthorized } from '../../../core/http/errors.js';
import { verifyPassword } from '../../../core/security/passwords.js';
import type { ChatDeps } from '../../context.js';
import type { User } from '../../db/schema.js';
import type { PlatformService } from '../../platform/platform.service.js';
import type { UsersService } from '../users/users.service.js';

/** The calling user's own profile, and sign-in by password or single sign-on link. */
export class ProfileService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly users: UsersService,
    private readonly platform: PlatformService,
  ) {}

  async profile(user: User) {
    const [token, memberships] = await Promise.all([
      this.users.accessToken(this.deps.db, user.id),
      this.users.memberships(this.deps.db, user.id),
    ]);
    return { user, token: token ?? '', memberships };
  }

  async signIn(input: { email: string; password?: string; sso_auth_token?: string }) {
    let user: User | undefined;
    if (input.sso_auth_token) {
      user = await this.platform.consumeLoginToken(input.email, input.sso_auth_token);
    } else if (input.password) {
      const found = await this.users.findByEmail(this.deps.db, input.email);
      if (found && (await verifyPassword(found.password_hash, input.password))) user = found;
    }
    if (!user) throw unauthorized('Invalid login credentials');
    return this.profile(user);
  }
}
