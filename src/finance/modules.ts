import { buildServices, collectMigrations } from '../core/modules/module.js';
import type { FinanceServices } from './container.js';
import type { FinanceDeps } from './context.js';
import { financeCoreModule } from './core.module.js';
import type { FinanceModule } from './module.types.js';
import { emailVerificationModule } from './modules/email-verification/email-verification.module.js';
import { financePagesModule } from './modules/pages/pages.module.js';

/** Every module of the finance service, in dependency order: adding one is its folder and one line here. */
export const financeModules: readonly FinanceModule[] = [
  financeCoreModule,
  emailVerificationModule,
  financePagesModule,
];

/** Every migration of the finance service, in order. */
export const financeMigrations = collectMigrations(financeModules);

/** The container of the finance service's services. */
export const createFinanceServices = (deps: FinanceDeps): FinanceServices => buildServices(deps, financeModules);
