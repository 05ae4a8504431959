import type { ChatModule } from '../../module.types.js';
import { migration0080CustomFilters, type CustomFiltersTable } from './custom-filters.migration.js';
import { customFiltersRoutes } from './custom-filters.routes.js';
import { CustomFiltersService } from './custom-filters.service.js';

declare module '../../container.js' {
  interface ChatServices {
    customFilters: CustomFiltersService;
  }
}
declare module '../../db/schema.js' {
  interface ChatDatabase {
    custom_filters: CustomFiltersTable;
  }
}

/**
 * Saved filters (`{A}/custom_filters`): each user's own conversation and contact filters. Comes
 * after the custom attributes module, whose defined keys a saved query may use.
 */
export const customFiltersModule: ChatModule = {
  name: 'custom-filters',
  migrations: { '0080_custom_filters': migration0080CustomFilters },
  services: (deps, built) => ({ customFilters: new CustomFiltersService(deps, built.customAttributes) }),
  routes: [customFiltersRoutes],
};
