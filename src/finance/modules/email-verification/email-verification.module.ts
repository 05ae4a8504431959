import type { FinanceModule } from '../../module.types.js';
import { EmailVerificationService } from './email-verification.service.js';
import { emailVerificationRoutes } from './email-verification.routes.js';
import { migration0020EmailVerifications, type EmailVerificationsTable } from './email-verifications.migration.js';

declare module '../../container.js' {
  interface FinanceServices {
    emailVerification: EmailVerificationService;
  }
}
declare module '../../db/schema.js' {
  interface FinanceDatabase {
    email_verifications: EmailVerificationsTable;
  }
}

/**
 * E-mail verification of self-registered users (decisions/0031): the link sent at registration or
 * on request, `POST /api/auth/verify-email` and the page at `/verify-email`. Invitations wait for
 * it (InvitationsService). The page is with the other pages e-mails link to (modules/pages).
 */
export const emailVerificationModule: FinanceModule = {
  name: 'email-verification',
  migrations: { '0020_email_verifications': migration0020EmailVerifications },
  services: (deps, built) => {
    const emailVerification = new EmailVerificationService(deps, built.users, built.smtp, built.rateLimits);
    built.auth.useEmailVerification(emailVerification);
    return { emailVerification };
  },
  routes: [emailVerificationRoutes],
  jobs: ({ services }) => [
    {
      name: 'finance.email_verification_housekeeping',
      schedule: { every: 60 * 60_000 },
      handle: async (_job, context) => void (await services.emailVerification.purgeExpired(context.now)),
    },
  ],
};
