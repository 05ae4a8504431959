import type { App } from '../core/http/app-base.js';
import type { FinanceServices } from './container.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { membersRoutes } from './modules/members/members.routes.js';
import { passwordsRoutes } from './modules/passwords/passwords.routes.js';
import { smtpRoutes } from './modules/smtp/smtp.routes.js';

export type FinanceRoutes = (app: App, options: { services: FinanceServices }) => Promise<void>;

/** Every route plugin of the finance service. Order does not matter. */
export const financeRoutes: FinanceRoutes[] = [authRoutes, passwordsRoutes, membersRoutes, smtpRoutes];
