import type { FinanceDeps } from './context.js';
import { AccountsService } from './modules/accounts/accounts.service.js';
import { AuthService } from './modules/auth/auth.service.js';
import { MembersService } from './modules/members/members.service.js';
import { PasswordsService } from './modules/passwords/passwords.service.js';
import { RateLimitService } from './modules/rate-limit/rate-limit.service.js';
import { SessionsService } from './modules/sessions/sessions.service.js';
import { SmtpService } from './modules/smtp/smtp.service.js';
import { UsersService } from './modules/users/users.service.js';

/**
 * The composition root of the finance service: every service built once, in dependency order.
 * Routes receive this object; services receive the services they call.
 */
export function createFinanceServices(deps: FinanceDeps) {
  const users = new UsersService(deps);
  const accounts = new AccountsService(deps);
  const sessions = new SessionsService(deps);
  const rateLimits = new RateLimitService(deps);
  // Sending e-mail now through an account's SMTP (test e-mails, password resets, accountant reports).
  const smtp = new SmtpService(deps, users);
  const auth = new AuthService(deps, users, accounts, sessions, rateLimits);
  const passwords = new PasswordsService(deps, users, sessions, rateLimits, smtp);
  const members = new MembersService(deps, users, accounts, sessions);
  return { users, accounts, sessions, rateLimits, smtp, auth, passwords, members };
}

export type FinanceServices = ReturnType<typeof createFinanceServices>;
