import type { FinanceModule } from '../../module.types.js';
import { financePagesRoutes } from './pages.routes.js';

/** The pages e-mails link to (reset a password, accept an invitation, confirm an e-mail address). */
export const financePagesModule: FinanceModule = {
  name: 'pages',
  routes: [financePagesRoutes],
};
