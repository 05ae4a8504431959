import type { App } from '../core/http/app-base.js';
import type { ChatServices } from './container.js';
import { platformRoutes } from './platform/platform.routes.js';
import { profileRoutes } from './modules/profile/profile.routes.js';
import { inboxesRoutes } from './modules/inboxes/inboxes.routes.js';

export type ChatRoutes = (app: App, options: { services: ChatServices }) => Promise<void>;

/** Every route plugin of the conversation service. Order does not matter. */
export const chatRoutes: ChatRoutes[] = [platformRoutes, profileRoutes, inboxesRoutes];
