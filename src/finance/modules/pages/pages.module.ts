import type { FinanceModule } from '../../modules.js';
import { financePagesRoutes } from './pages.routes.js';

/** The pages e-mails link to (reset a password, accept an invitation, confirm an e-mail address). */
export const financePagesModule: FinanceModule = {
  name: 'pages',
  routes: [financePagesRoutes],
};
