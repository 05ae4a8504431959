import type { ChatModule } from '../../module.types.js';
import { migration0090IntegrationHooks, type IntegrationHooksTable } from './integrations.migration.js';
import { integrationsRoutes } from './integrations.routes.js';
import { IntegrationsService } from './integrations.service.js';
import { OpenAiAssistant } from './openai.service.js';

declare module '../../container.js' {
  interface ChatServices {
    integrations: IntegrationsService;
    openAiAssistant: OpenAiAssistant;
  }
}
declare module '../../db/schema.js' {
  interface ChatDatabase {
    integration_hooks: IntegrationHooksTable;
  }
}

/**
 * Integrations (`{A}/integrations/...`): the app catalogue, the account's hooks (settings checked
 * per app, secrets sealed), and the openai app's assistant against any OpenAI-compatible endpoint.
 */
export const integrationsModule: ChatModule = {
  name: 'integrations',
  migrations: { '0090_integration_hooks': migration0090IntegrationHooks },
  services: (deps, built) => {
    const integrations = new IntegrationsService(deps, { inboxes: built.inboxes, webhooks: built.webhooks });
    return {
      integrations,
      openAiAssistant: new OpenAiAssistant(deps, {
        integrations,
        conversations: built.conversations,
        messages: built.messages,
      }),
    };
  },
  routes: [integrationsRoutes],
};
