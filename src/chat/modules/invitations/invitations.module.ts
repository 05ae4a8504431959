import { asLanguage } from '../../../core/i18n/language.js';
import type { ChatModule } from '../../module.types.js';
import { passwordPagesRoutes } from './invitations.pages.js';
import { passwordRoutes } from './invitations.routes.js';
import { InvitationsService, RESET_JOB } from './invitations.service.js';
import { migration0120PasswordTokens, type PasswordTokensTable } from './password-tokens.migration.js';

declare module '../../container.js' {
  interface ChatServices {
    invitations: InvitationsService;
  }
}
declare module '../../db/schema.js' {
  interface ChatDatabase {
    password_tokens: PasswordTokensTable;
  }
}

/**
 * Invitations and forgotten passwords: a new agent is e-mailed a single-use link to choose a
 * password (queued in the agent creation's transaction), `POST /auth/password` e-mails a reset
 * link, and `PUT /auth/password` or the page at `/auth/password/edit` sets the password with
 * either. Identity e-mails go through SMTP_URL only (decisions/0023).
 */
export const invitationsModule: ChatModule = {
  name: 'invitations',
  migrations: { '0120_password_tokens': migration0120PasswordTokens },
  services: (deps, built) => {
    const invitations = new InvitationsService(deps, {
      users: built.users,
      accounts: built.accounts,
      rateLimits: built.rateLimits,
    });
    return { invitations };
  },
  fills: (services) => ({ agentInvitations: services.invitations }),
  routes: [passwordRoutes, passwordPagesRoutes],
  jobs: ({ services }) => [
    {
      name: RESET_JOB,
      handle: (job, context) =>
        services.invitations.sendResetLink(
          (job.payload as { email: string }).email,
          asLanguage((job.payload as { language?: unknown }).language),
          context.logger,
        ),
    },
    {
      name: 'invitations.token_housekeeping',
      schedule: { every: 60 * 60_000 },
      handle: async (_job, context) => void (await services.invitations.purgeExpired(context.now)),
    },
  ],
};
