import { createRouter, createWebHistory, type RouteLocationRaw, type Router } from 'vue-router';
import { areaRoutes, AREAS } from './areas.js';
import { i18n } from './i18n/index.js';
import type { MessageKey } from './i18n/keys.js';
import { useSessionStore } from './stores/session.store.js';
import LoginView from './views/auth/LoginView.vue';

declare module 'vue-router' {
  interface RouteMeta {
    /** Open without a session (sign-in, password reset). */
    public?: boolean;
    /** The page's title (the document's, before " · Ponte"). */
    title?: MessageKey;
  }
}

/**
 * The dashboard's paths are Chatwoot's (`/app/login`, `/app/accounts/:accountId/...`), so links
 * people and integrations already have (Ponte's single sign-on link) open the same pages.
 */
export function createDashboardRouter(): Router {
  const router = createRouter({
    history: createWebHistory('/app/'),
    routes: [
      { path: '/login', name: 'login', component: LoginView, meta: { public: true, title: 'auth.signIn.pageTitle' } },
      {
        path: '/auth/reset/password',
        name: 'forgot-password',
        component: () => import('./views/auth/ForgotPasswordView.vue'),
        meta: { public: true, title: 'auth.forgot.pageTitle' },
      },
      // Where the app opens: the account used last (the guard below decides).
      { path: '/', name: 'home', component: LoginView },
      {
        path: '/accounts/:accountId(\\d+)',
        component: () => import('./views/shell/AppShell.vue'),
        children: [
          { path: '', name: 'account', redirect: (to) => ({ name: AREAS[0]!.name, params: to.params }) },
          ...areaRoutes(),
          {
            path: ':rest(.*)*',
            name: 'account-not-found',
            component: () => import('./views/system/NotFoundView.vue'),
            meta: { title: 'pages.notFound.pageTitle' },
          },
        ],
      },
      {
        path: '/no-account',
        name: 'no-account',
        component: () => import('./views/system/NoAccountView.vue'),
        meta: { title: 'pages.noAccount.pageTitle' },
      },
      {
        path: '/unavailable',
        name: 'unavailable',
        component: () => import('./views/system/UnavailableView.vue'),
        meta: { public: true, title: 'errors.unavailable.pageTitle' },
      },
      {
        path: '/:rest(.*)*',
        name: 'not-found',
        component: () => import('./views/system/NotFoundView.vue'),
        meta: { title: 'pages.notFound.pageTitle' },
      },
    ],
  });

  router.beforeEach(async (to): Promise<RouteLocationRaw | true> => {
    const session = useSessionStore();
    if (to.meta.public) {
      // Signed in already: the sign-in page opens the app (unless a sign-on link asks to change user).
      const link = typeof to.query.sso_auth_token === 'string';
      if (to.name === 'login' && session.signedIn && !link) return { name: 'home' };
      return true;
    }
    if (!session.signedIn)
      return to.name === 'home' ? { name: 'login' } : { name: 'login', query: { redirect: to.fullPath } };
    if (!session.user) {
      const refused = await session.loadProfile();
      // A 401 forgot the session already (api.ts); anything else keeps it: say the server is away.
      if (refused) {
        const back = { redirect: to.fullPath };
        return session.signedIn ? { name: 'unavailable', query: back } : { name: 'login', query: back };
      }
    }
    if (to.name === 'home' || to.name === 'no-account') {
      const account = session.homeAccount();
      if (!account) return to.name === 'no-account' ? true : { name: 'no-account' };
      return { name: 'account', params: { accountId: account.id } };
    }
    const accountId = Number(to.params.accountId);
    if (to.params.accountId !== undefined) {
      if (!session.accountById(accountId)) return { name: 'not-found', params: { rest: to.path.slice(1).split('/') } };
      session.rememberAccount(accountId);
    }
    return true;
  });

  router.afterEach((to) => {
    const { t } = i18n.global;
    document.title = to.meta.title ? `${t(to.meta.title)} · ${t('app.name')}` : t('app.name');
  });

  return router;
}
