import type { App } from '../core/http/app.types.js';
import type { ServiceModule } from '../core/modules/module.js';
import type { ChatServices } from './container.js';
import type { ChatDeps } from './context.js';
import type { ChatDatabase } from './db/schema.js';
import type { ChatEvents } from './events.js';

/**
 * The shapes a module of the conversation service is written against. A leaf: modules and route
 * plugins import it, and the lists that hold them (modules.ts, routes.ts) stand above them.
 */

/** A route plugin: registered with the service's container. */
export type ChatRoutes = (app: App, options: { services: ChatServices }) => Promise<void>;

/**
 * The extension points of the conversation service (core/modules/module.ts): the module that
 * offers one adds it here by declaration merging, with the contract an implementation fulfils:
 *   declare module '../../module.types.js' { interface ChatExtensionPoints { leadScorer: LeadScorer } }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface ChatExtensionPoints {}

/** A module of the conversation service (see core/modules/module.ts). */
export type ChatModule = ServiceModule<
  ChatDeps,
  ChatServices,
  ChatDatabase,
  ChatEvents,
  ChatRoutes,
  ChatExtensionPoints
>;
