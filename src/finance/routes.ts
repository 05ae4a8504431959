import type { FinanceRoutes } from './module.types.js';
import { accountantRoutes } from './modules/accountant/accountant.routes.js';
import { accountsRoutes } from './modules/accounts/accounts.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { billsRoutes } from './modules/bills/bills.routes.js';
import { contractsRoutes } from './modules/contracts/contracts.routes.js';
import { invitationsRoutes } from './modules/invitations/invitations.routes.js';
import { invoicesRoutes } from './modules/invoices/invoices.routes.js';
import { membersRoutes } from './modules/members/members.routes.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { passwordsRoutes } from './modules/passwords/passwords.routes.js';
import { smtpRoutes } from './modules/smtp/smtp.routes.js';
import { transactionsRoutes } from './modules/transactions/transactions.routes.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';

/** Every route plugin of the finance service. Order does not matter. */
export const coreFinanceRoutes: FinanceRoutes[] = [
  authRoutes,
  passwordsRoutes,
  accountsRoutes,
  membersRoutes,
  invitationsRoutes,
  smtpRoutes,
  transactionsRoutes,
  billsRoutes,
  invoicesRoutes,
  contractsRoutes,
  webhooksRoutes,
  notificationsRoutes,
  accountantRoutes,
];
