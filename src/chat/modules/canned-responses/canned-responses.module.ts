import type { ChatModule } from '../../module.types.js';
import { migration0040CannedResponses, type CannedResponsesTable } from './canned-responses.migration.js';
import { cannedResponsesRoutes } from './canned-responses.routes.js';
import { CannedResponsesService } from './canned-responses.service.js';

declare module '../../container.js' {
  interface ChatServices {
    cannedResponses: CannedResponsesService;
  }
}
declare module '../../db/schema.js' {
  interface ChatDatabase {
    canned_responses: CannedResponsesTable;
  }
}

/** Canned responses (`{A}/canned_responses`): texts agents insert by short code. */
export const cannedResponsesModule: ChatModule = {
  name: 'canned-responses',
  migrations: { '0040_canned_responses': migration0040CannedResponses },
  services: (deps) => ({ cannedResponses: new CannedResponsesService(deps) }),
  routes: [cannedResponsesRoutes],
};
