import type { ChatModule } from '../../module.types.js';
import {
  migration0081CustomAttributeDefinitions,
  type CustomAttributeDefinitionsTable,
} from './custom-attributes.migration.js';
import { customAttributesRoutes } from './custom-attributes.routes.js';
import { CustomAttributesService } from './custom-attributes.service.js';

declare module '../../container.js' {
  interface ChatServices {
    customAttributes: CustomAttributesService;
  }
}
declare module '../../db/schema.js' {
  interface ChatDatabase {
    custom_attribute_definitions: CustomAttributeDefinitionsTable;
  }
}

/**
 * Custom attribute definitions (`{A}/custom_attribute_definitions`): what the custom attributes of
 * conversations and contacts mean. The conversation and contact filters accept a defined key: this
 * module hands them its definitions (one query per filter request).
 */
export const customAttributesModule: ChatModule = {
  name: 'custom-attributes',
  migrations: { '0081_custom_attribute_definitions': migration0081CustomAttributeDefinitions },
  services: (deps) => ({ customAttributes: new CustomAttributesService(deps) }),
  fills: (services) => ({ customAttributeCriteria: services.customAttributes }),
  routes: [customAttributesRoutes],
};
