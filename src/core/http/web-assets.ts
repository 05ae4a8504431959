import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Html, t } from '../i18n/catalogue.js';
import { escapeHtml, PAGE_HEADERS, pageLanguage, pageWords, renderPage } from './pages.js';

/**
 * A browser app built by Vite (web/, `npm run build`), served from its folder under dist/web:
 *
 * - hashed files (`assets/`, named by their content) are cached for a year and never revalidated;
 *   compressed copies written at build time (`.br`, `.gz`) are sent to browsers that take them;
 * - `index.html` is revalidated on every load (`no-cache`), so a new build applies at the next one;
 * - any other path under the prefix that is not a file (`/app/login`, `/app/accounts/1/...`) gets
 *   `index.html`: the app's router reads the path (history fallback); a missing file (a path with
 *   an extension, or under `assets/`) is a 404;
 * - a strict Content-Security-Policy: scripts, styles, fonts and requests from this origin only,
 *   no inline script or style, no framing; an app made to be embedded in other sites (`framable`,
 *   the website chat's frame at /widget) may be framed by any page, and by nothing else differs.
 *
 * When the folder holds no build, the prefix answers 503 with a page saying how to build it.
 */

/** The folder of the built browser apps: dist/web at the package's root (this file is three levels down in src/ and dist/). */
export const BUILT_WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dist/web');

const YEAR_SECONDS = 365 * 24 * 60 * 60;

/** The policy of the app's pages: everything from this origin; images also from https (avatars) and data/blob URLs (previews). */
export const WEB_APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "font-src 'self'",
  "img-src 'self' data: blob: https:",
  "media-src 'self' blob: https:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The policy of a page other sites embed (the website chat's frame): the same, framed by any page. */
export const FRAMABLE_APP_CSP = WEB_APP_CSP.replace("frame-ancestors 'none'", 'frame-ancestors *');

/** Headers of every answer under the prefix. */
const COMMON_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

/** Headers of the app's page. */
const PAGE_ONLY_HEADERS = {
  'content-security-policy': WEB_APP_CSP,
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cache-control': 'no-cache',
};

/** Headers of a framable app's page: no X-Frame-Options, and no opener policy (it lives in other sites' pages). */
const FRAMABLE_PAGE_HEADERS = { 'content-security-policy': FRAMABLE_APP_CSP, 'cache-control': 'no-cache' };

export interface WebAssetsOptions {
  /** The built app's folder (holding index.html and assets/). */
  root: string;
  /** The path it is served at, without a trailing slash (`/app`). */
  prefix: string;
  /** Other sites may frame its page (the website chat's frame); every other app refuses framing. */
  framable?: boolean;
}

/** Registers the app's files, its history fallback and their headers. */
export async function registerWebAssets(app: FastifyInstance, options: WebAssetsOptions): Promise<void> {
  const { root, prefix } = options;
  const pageHeaders = options.framable ? FRAMABLE_PAGE_HEADERS : PAGE_ONLY_HEADERS;
  const indexFile = path.join(root, 'index.html');
  const hide = { schema: { hide: true } };
  if (!fs.existsSync(indexFile)) {
    const notBuilt = async (request: FastifyRequest, reply: FastifyReply) => notBuiltPage(request, reply, root);
    app.get(prefix, hide, notBuilt);
    app.get(`${prefix}/*`, hide, notBuilt);
    return;
  }
  const page = fs.readFileSync(indexFile);
  const hashedDir = path.join(root, 'assets') + path.sep;

  await app.register(fastifyStatic, {
    root,
    prefix: `${prefix}/`,
    // One route per file, found once at start; everything else falls to the routes below.
    wildcard: false,
    index: false,
    preCompressed: true,
    globIgnore: ['**/*.br', '**/*.gz'],
    decorateReply: false,
    cacheControl: false,
    setHeaders: (res, filePath) => {
      for (const [name, value] of Object.entries(COMMON_HEADERS)) res.setHeader(name, value);
      res.setHeader('vary', 'Accept-Encoding');
      if (filePath === indexFile) {
        for (const [name, value] of Object.entries(pageHeaders)) res.setHeader(name, value);
      } else {
        res.setHeader(
          'cache-control',
          filePath.startsWith(hashedDir) ? `public, max-age=${YEAR_SECONDS}, immutable` : 'no-cache',
        );
      }
    },
  });

  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const rest = request.url.split('?')[0].slice(prefix.length);
    // A file that is not there (`/app/assets/gone.js`, `/app/logo.png`) is not a page of the app.
    if (rest.startsWith('/assets/') || /\.[A-Za-z0-9]+$/.test(rest)) return reply.callNotFound();
    return reply.headers({ ...COMMON_HEADERS, ...pageHeaders, 'content-type': 'text/html; charset=utf-8' }).send(page);
  };
  app.get(prefix, hide, sendPage);
  app.get(`${prefix}/*`, hide, sendPage);
}

export interface WebScriptOptions {
  /** The built script (`dist/web/packs/js/sdk.js`). */
  file: string;
  /** Its URL path (`/packs/js/sdk.js`). */
  url: string;
}

/**
 * A script other sites load with a `<script>` tag (the website chat's loader): not hashed, so
 * cached for ten minutes (a new build reaches the sites' visitors within them); loadable from any
 * origin (Cross-Origin-Resource-Policy), compressed as the browser takes it. Unbuilt: 503.
 */
export function registerWebScript(app: FastifyInstance, options: WebScriptOptions): void {
  const hide = { schema: { hide: true } };
  if (!fs.existsSync(options.file)) {
    app.get(options.url, hide, async (request, reply) => notBuiltPage(request, reply, path.dirname(options.file)));
    return;
  }
  const plain = fs.readFileSync(options.file);
  const compressed = (['br', 'gzip'] as const).flatMap((encoding) => {
    const copy = `${options.file}.${encoding === 'br' ? 'br' : 'gz'}`;
    return fs.existsSync(copy) ? [{ encoding, body: fs.readFileSync(copy) }] : [];
  });
  app.get(options.url, hide, async (request, reply) => {
    const accepted = String(request.headers['accept-encoding'] ?? '');
    const chosen = compressed.find((c) => new RegExp(`\\b${c.encoding}\\b`).test(accepted));
    reply.headers({
      ...COMMON_HEADERS,
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=600',
      'cross-origin-resource-policy': 'cross-origin',
      vary: 'Accept-Encoding',
    });
    if (chosen) reply.header('content-encoding', chosen.encoding);
    return reply.send(chosen ? chosen.body : plain);
  });
}

/** The page in place of the web app when it is not built, in the browser's language. */
function notBuiltPage(request: FastifyRequest, reply: FastifyReply, root: string) {
  const words = pageWords(pageLanguage(request, undefined));
  const code = (text: string) => new Html(`<code>${escapeHtml(text)}</code>`);
  const docs = new Html(`<a href="/docs">${words.html('API documentation')}</a>`);
  const body =
    `<p>${words.html(t('This server has no build of its web app in %{dir}.', { dir: code(root) }))}</p>` +
    `<p>${words.html(
      t('Build it with %{build} (or %{install}, which builds everything), then start the server again.', {
        build: code('npm run build'),
        install: code('npm install'),
      }),
    )}</p>` +
    `<p class="muted">${words.html(t('The API works without it: %{docs}.', { docs }))}</p>`;
  return reply
    .header('retry-after', '60')
    .code(503)
    .headers(PAGE_HEADERS)
    .send(renderPage({ title: words.text('The web app is not built'), body, lang: words.language }));
}
