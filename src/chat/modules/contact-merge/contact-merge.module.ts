import type { ChatModule } from '../../module.types.js';
import { contactMergeRoutes } from './contact-merge.routes.js';
import { ContactMergeService } from './contact-merge.service.js';

declare module '../../container.js' {
  interface ChatServices {
    contactMerge: ContactMergeService;
  }
}

/** Chatwoot's contact merge ({A}/actions/contact_merge), a use case above contacts, conversations and messages. */
export const contactMergeModule: ChatModule = {
  name: 'contact-merge',
  services: (deps, built) => ({
    contactMerge: new ContactMergeService(deps, {
      contacts: built.contacts,
      conversations: built.conversations,
      messages: built.messages,
    }),
  }),
  routes: [contactMergeRoutes],
};
