import type { App } from '../core/http/app.types.js';
import type { ServiceModule } from '../core/modules/module.js';
import type { FinanceServices } from './container.js';
import type { FinanceDeps } from './context.js';
import type { FinanceDatabase } from './db/schema.js';
import type { FinanceEvents } from './events.js';

/**
 * The shapes a module of the finance service is written against. A leaf: modules and route
 * plugins import it, and the lists that hold them (modules.ts, routes.ts) stand above them.
 */

/** A route plugin: registered with the service's container. */
export type FinanceRoutes = (app: App, options: { services: FinanceServices }) => Promise<void>;

/** A module of the finance service (see core/modules/module.ts). */
export type FinanceModule = ServiceModule<FinanceDeps, FinanceServices, FinanceDatabase, FinanceEvents, FinanceRoutes>;
