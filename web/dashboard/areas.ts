import { UserRoundCog } from 'lucide-vue-next';
import type { Component } from 'vue';
import type { RouteRecordRaw } from 'vue-router';
import type { MessageKey } from './i18n/keys.js';

/**
 * The areas of an account, in the sidebar's order: each is a route under
 * `/app/accounts/:accountId/` and a sidebar entry. The first is where an account opens. An area
 * is listed here only once its screen exists, so the sidebar never leads to a page that is not there.
 */
export interface Area {
  /** The route's name (unique). */
  name: string;
  /** Under /app/accounts/:accountId/. */
  path: string;
  label: MessageKey;
  icon: Component;
  view: () => Promise<Component>;
}

export const AREAS: readonly Area[] = [
  {
    name: 'profile-settings',
    path: 'profile/settings',
    label: 'shell.profileSettings',
    icon: UserRoundCog,
    view: () => import('./views/profile/ProfileSettingsView.vue'),
  },
];

export const areaRoutes = (): RouteRecordRaw[] =>
  AREAS.map((area) => ({ path: area.path, name: area.name, component: area.view, meta: { title: area.label } }));
