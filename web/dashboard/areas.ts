import { ContactRound, KanbanSquare, MessagesSquare, UserRoundCog } from 'lucide-vue-next';
import type { Component } from 'vue';
import type { RouteRecordRaw } from 'vue-router';
import type { MessageKey } from './i18n/keys.js';

/**
 * The areas of an account, in the sidebar's order: each has its routes under
 * `/app/accounts/:accountId/` (Chatwoot's paths) and a sidebar entry that opens its first page.
 * The first area is where an account opens. An area is listed here only once its screens exist,
 * so the sidebar never leads to a page that is not there.
 */
export interface Area {
  /** The route the sidebar entry opens. */
  name: string;
  label: MessageKey;
  icon: Component;
  routes: RouteRecordRaw[];
  /** The routes that are this area (the sidebar marks it as the current page on them). */
  covers: readonly string[];
}

const conversations = () => import('./views/conversations/ConversationsView.vue');

export const AREAS: readonly Area[] = [
  {
    name: 'conversations',
    label: 'shell.conversations',
    icon: MessagesSquare,
    covers: ['conversations', 'conversation'],
    routes: [
      {
        // One layout for the list and a conversation, so the list stays while conversations open.
        path: '',
        component: conversations,
        children: [
          {
            path: 'dashboard',
            name: 'conversations',
            component: () => import('./views/conversations/NoConversation.vue'),
            meta: { title: 'conversations.pageTitle' },
          },
          {
            path: 'conversations/:conversationId(\\d+)',
            name: 'conversation',
            component: () => import('./views/conversation/ConversationPane.vue'),
            meta: { title: 'conversations.pageTitle' },
          },
        ],
      },
    ],
  },
  {
    name: 'contacts',
    label: 'shell.contacts',
    icon: ContactRound,
    covers: ['contacts', 'contact'],
    routes: [
      {
        path: 'contacts',
        name: 'contacts',
        component: () => import('./views/contacts/ContactsView.vue'),
        meta: { title: 'contacts.pageTitle' },
      },
      {
        path: 'contacts/:contactId(\\d+)',
        name: 'contact',
        component: () => import('./views/contacts/ContactView.vue'),
        meta: { title: 'contacts.pageTitle' },
      },
    ],
  },
  {
    name: 'pipeline',
    label: 'shell.pipeline',
    icon: KanbanSquare,
    covers: ['pipeline'],
    routes: [
      {
        // The deal board, with the pipeline shown (?pipeline=) and the deal open beside it (?deal=).
        path: 'pipeline',
        name: 'pipeline',
        component: () => import('./views/board/BoardView.vue'),
        meta: { title: 'board.title' },
      },
    ],
  },
  {
    name: 'profile-settings',
    label: 'shell.profileSettings',
    icon: UserRoundCog,
    covers: ['profile-settings'],
    routes: [
      {
        path: 'profile/settings',
        name: 'profile-settings',
        component: () => import('./views/profile/ProfileSettingsView.vue'),
        meta: { title: 'shell.profileSettings' },
      },
    ],
  },
];

export const areaRoutes = (): RouteRecordRaw[] => AREAS.flatMap((area) => area.routes);

/** The area a route belongs to. */
export const areaOf = (routeName: unknown): Area | undefined =>
  AREAS.find((area) => typeof routeName === 'string' && area.covers.includes(routeName));
