import { WebhookSubscriptions } from '../core/webhooks/subscriptions.js';
import type { FinanceDeps } from './context.js';
import type { Declared } from '../core/modules/module.js';
import { DailyAlertsJob } from './jobs/daily-alerts.js';
import { AccountantService } from './modules/accountant/accountant.service.js';
import { AccountsService } from './modules/accounts/accounts.service.js';
import { AuthService } from './modules/auth/auth.service.js';
import { BillsService } from './modules/bills/bills.service.js';
import { ContractsService } from './modules/contracts/contracts.service.js';
import { InvitationAcceptance } from './modules/invitations/invitations.acceptance.js';
import { InvitationsService } from './modules/invitations/invitations.service.js';
import { InvoicesService } from './modules/invoices/invoices.service.js';
import { MembersService } from './modules/members/members.service.js';
import { NotificationsService } from './modules/notifications/notifications.service.js';
import { PasswordsService } from './modules/passwords/passwords.service.js';
import { RateLimitService } from './modules/rate-limit/rate-limit.service.js';
import { SessionsService } from './modules/sessions/sessions.service.js';
import { SmtpService } from './modules/smtp/smtp.service.js';
import { TransactionsService } from './modules/transactions/transactions.service.js';
import { UsersService } from './modules/users/users.service.js';

/**
 * The services of the finance service's core module (finance/core.module.ts), built once, in
 * dependency order. Routes receive the container; services receive the services they call.
 */
export function createCoreFinanceServices(deps: FinanceDeps, declared: Declared) {
  const users = new UsersService(deps);
  const accounts = new AccountsService(deps);
  const sessions = new SessionsService(deps);
  const rateLimits = new RateLimitService(deps);
  // Sending e-mail now through an account's SMTP (test e-mails, password resets, invitations, accountant reports).
  const smtp = new SmtpService(deps, users, accounts);
  const auth = new AuthService(deps, users, accounts, sessions, rateLimits);
  const passwords = new PasswordsService(deps, users, sessions, rateLimits, smtp);
  const members = new MembersService(deps, users, accounts, sessions);
  // Members join by invitation only: administrators invite, the invitee accepts.
  const invitations = new InvitationsService(deps, accounts, smtp, users);
  const invitationAcceptance = new InvitationAcceptance(deps, users, accounts, sessions, rateLimits);
  // Finance data (transactions, bills, invoices, contracts) and finance webhooks.
  const transactions = new TransactionsService(deps);
  const bills = new BillsService(deps, transactions);
  const invoices = new InvoicesService(deps);
  const contracts = new ContractsService(deps);
  const webhooks = new WebhookSubscriptions({
    db: deps.db,
    allowedHosts: deps.config.webhooks.allowedHosts,
    catalogue: declared.webhookEvents,
    eventsField: 'events',
  });
  // Notifications, the accountant's report and the daily job (alerts, overdue invoices, automatic reports).
  const notifications = new NotificationsService(deps);
  const accountant = new AccountantService(deps, smtp, accounts, notifications);
  const dailyAlerts = new DailyAlertsJob(deps, { notifications, invoices, accountant });
  return {
    users,
    accounts,
    sessions,
    rateLimits,
    smtp,
    auth,
    passwords,
    members,
    invitations,
    invitationAcceptance,
    transactions,
    bills,
    invoices,
    contracts,
    webhooks,
    notifications,
    accountant,
    dailyAlerts,
  };
}

type CoreFinanceServices = ReturnType<typeof createCoreFinanceServices>;

/** The container of every module's services; a module adds its own by declaration merging (see chat/container.ts). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the modules extend it
export interface FinanceServices extends CoreFinanceServices {}
