import type { ChatModule } from '../../module.types.js';
import { migration0010Labels } from './labels.migration.js';
import type { LabelsTable } from './labels.repository.js';
import { labelsRoutes } from './labels.routes.js';
import { LabelsService } from './labels.service.js';

declare module '../../container.js' {
  interface ChatServices {
    labels: LabelsService;
  }
}
declare module '../../db/schema.js' {
  interface ChatDatabase {
    labels: LabelsTable;
  }
}

/** The account's label catalogue ({A}/labels, Chatwoot's shape). */
export const labelsModule: ChatModule = {
  name: 'labels',
  migrations: { '0010_labels': migration0010Labels },
  services: (deps) => ({ labels: new LabelsService(deps) }),
  routes: [labelsRoutes],
};
