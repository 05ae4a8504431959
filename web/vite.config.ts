import path from 'node:path';
import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import tailwindcss from '@tailwindcss/vite';
import vue from '@vitejs/plugin-vue';
import { defineConfig, type UserConfig } from 'vite';
import { precompress } from './build/precompress.js';

/**
 * The browser apps, one build per `--mode` (README.md in this folder): `vite build -c
 * web/vite.config.ts --mode dashboard` builds the conversation service's dashboard into
 * dist/web/app, served at /app/ (src/core/http/web-assets.ts); `widget` builds the website chat's
 * frame (Preact) into dist/web/widget, served at /widget/; `sdk` builds its loader, one script
 * (an IIFE, no chunks) at dist/web/packs/js/sdk.js, Chatwoot's path. Each build empties only its
 * own folder, so the apps build independently.
 */

const webDir = path.dirname(fileURLToPath(import.meta.url));
const distWeb = path.resolve(webDir, '../dist/web');

interface Target {
  /** The app's folder under web/ (its index.html is the entry). */
  root: string;
  /** Where it is served. */
  base: string;
  /** Its folder under dist/web. */
  out: string;
}

const TARGETS: Record<string, Target> = {
  dashboard: { root: 'dashboard', base: '/app/', out: 'app' },
  widget: { root: 'widget', base: '/widget/', out: 'widget' },
};

// The services the dev server proxies to (npm run dev:web, with npm run dev in another terminal).
const CHAT = process.env.PONTE_CHAT_URL ?? 'http://127.0.0.1:3000';
const PROXIED = ['/api', '/auth', '/public', '/platform', '/hc', '/rails', '/openapi.json'];

/** The loader: a library build of web/sdk/index.ts, one classic script for any host page. */
const sdkBuild = (): UserConfig => ({
  root: path.join(webDir, 'sdk'),
  envPrefix: 'PONTE_WEB_',
  plugins: [precompress()],
  build: {
    outDir: path.join(distWeb, 'packs/js'),
    emptyOutDir: true,
    target: 'es2019',
    lib: {
      entry: path.join(webDir, 'sdk/index.ts'),
      formats: ['iife'],
      name: 'ponteWidgetLoader',
      fileName: () => 'sdk.js',
    },
    reportCompressedSize: false,
  },
});

export default defineConfig(({ mode }): UserConfig => {
  if (mode === 'sdk') return sdkBuild();
  const target = TARGETS[mode];
  if (!target) throw new Error(`unknown web build "${mode}": one of ${[...Object.keys(TARGETS), 'sdk'].join(', ')}`);
  return {
    root: path.join(webDir, target.root),
    base: target.base,
    // Only the variables Vite itself defines reach the browser code; none of the server's.
    envPrefix: 'PONTE_WEB_',
    plugins:
      mode === 'widget'
        ? [preact({ devToolsEnabled: false, prefreshEnabled: false }), precompress()]
        : [vue(), tailwindcss(), precompress()],
    define: {
      // vue-i18n: the Composition API only, messages compiled without eval (CSP), no devtools.
      __VUE_I18N_FULL_INSTALL__: 'false',
      __VUE_I18N_LEGACY_API__: 'false',
      __INTLIFY_JIT_COMPILATION__: 'true',
      __INTLIFY_DROP_MESSAGE_COMPILER__: 'false',
      __INTLIFY_PROD_DEVTOOLS__: 'false',
      __VUE_OPTIONS_API__: 'false',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    },
    build: {
      outDir: path.join(distWeb, target.out),
      emptyOutDir: true,
      // The manifest tells the size budget test (test/web/first-load.test.ts) what the first load fetches.
      manifest: true,
      // Every browser that runs the app understands modulepreload: no polyfill in the entry.
      modulePreload: { polyfill: false },
      target: 'es2022',
      assetsInlineLimit: 0,
      chunkSizeWarningLimit: 250,
      reportCompressedSize: false,
    },
    server: {
      proxy: {
        ...Object.fromEntries(PROXIED.map((prefix) => [prefix, { target: CHAT }])),
        '/cable': { target: CHAT, ws: true },
      },
    },
  };
});
