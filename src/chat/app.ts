import path from 'node:path';
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import { chatApiDocs } from './api-docs.js';
import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import { createBaseApp } from '../core/http/app-base.js';
import type { App } from '../core/http/app.types.js';
import type { Metrics } from '../core/http/metrics.js';
import { chatErrorBody } from '../core/http/error-handler.js';
import { registerMultipart } from '../core/http/multipart.js';
import { CableHub } from '../core/realtime/cable.hub.js';
import { registerCable } from '../core/realtime/cable.plugin.js';
import { stopWithTheApp } from '../core/background/runtime.js';
import { createLocalFileStore } from '../core/storage/file-store.js';
import { BUILT_WEB_DIR, registerWebAssets, registerWebScript } from '../core/http/web-assets.js';
import { createChatBackground, type BackgroundOptions, type ChatBackground } from './background.js';
import { authPlugin } from './auth/auth.plugin.js';
import type { ChatDeps } from './context.js';
import { roomChannel } from './realtime/realtime.channel.js';
import { chatModules, createChatServices } from './modules.js';
import './i18n/messages.js';

export const CHAT_VERSION = '0.1.0';

export interface ChatAppOptions extends Omit<ChatDeps, 'fileStore'> {
  logger: FastifyServerOptions['logger'] | FastifyBaseLogger;
  /** Process-wide metrics (METRICS=on): this app's requests and queues are measured. */
  metrics?: Metrics;
  /** Run the outbox dispatcher and webhook worker with the app (production; the tests that need them). */
  background?: BackgroundOptions | false;
  /** The built dashboard served at /app (default dist/web/app); false: none (the API alone). */
  webRoot?: string | false;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The background work of the conversation service, when the app runs it. */
    chatBackground?: ChatBackground;
  }
}

/**
 * The conversation service as a Fastify app: the same factory serves production (server.ts)
 * and tests (test/helpers). The database must already be migrated.
 */
export async function buildChatApp(options: ChatAppOptions): Promise<App> {
  const webRoot = options.webRoot ?? path.join(BUILT_WEB_DIR, 'app');
  const deps: ChatDeps = {
    db: options.db,
    dialect: options.dialect,
    config: options.config,
    fileStore: createLocalFileStore(options.config.dataDir),
  };
  const app = await createBaseApp({
    title: 'Ponte conversation service',
    description: 'Inboxes, contacts, conversations and messages; shaped after the Chatwoot API.',
    version: CHAT_VERSION,
    logger: options.logger,
    docs: chatApiDocs,
    errorBody: chatErrorBody,
    service: 'chat',
    corsOrigins: options.config.http.corsOrigins,
    openCorsPrefixes: ['/public/api/', '/hc/'],
    trustProxy: options.config.http.trustProxy,
    requestTimeoutMs: options.config.http.requestTimeoutMs,
    connectionTimeoutMs: options.config.http.connectionTimeoutMs,
    metrics: options.metrics,
    exposeMetrics: options.metrics !== undefined && options.config.metrics.port === null,
    // A browser opening the service lands in the dashboard (relative: it works behind a path prefix).
    browserHome: webRoot === false ? undefined : 'app/',
    // Chatwoot's clients send ids as text, "" for empty fields, one value for a list (docs/spec/decisions.md §1).
    railsBodies: true,
    // Rails `resources` routes answer PUT as PATCH; Chatwoot's and NooviChat's clients use both.
    putAliasesPatch: true,
    // `/conversations/abc` names nothing, as in Rails where ids are looked up: 404 like any unknown path.
    integerIdsOrNotFound: true,
    // Multipart uploads have their own limits; this bounds JSON bodies.
    bodyLimit: 2 * 1024 * 1024,
    healthCheck: async () => {
      await sql`select 1`.execute(deps.db);
    },
    securitySchemes: {
      userApiKey: {
        type: 'apiKey',
        in: 'header',
        name: 'api_access_token',
        description: 'User or agent bot access token',
      },
      platformAppApiKey: { type: 'apiKey', in: 'header', name: 'api_access_token', description: 'Platform app token' },
    },
  });
  // Realtime push at GET /cable (ActionCable framing), fed by the background's realtime listener.
  // Registered before the routes so upgrade requests to any other path are refused.
  const cable = new CableHub({ channel: roomChannel(deps.db), logger: app.log });
  await registerCable(app, cable);

  app.get(
    '/api',
    {
      schema: {
        tags: ['health'],
        summary: 'Service version (no authentication)',
        response: {
          200: Type.Object({
            version: Type.String(),
            timestamp: Type.String(),
            queue_services: Type.String(),
            data_services: Type.String(),
          }),
        },
      },
    },
    async () => {
      let dataServices = 'ok';
      try {
        await sql`select 1`.execute(deps.db);
      } catch {
        dataServices = 'failing';
      }
      return {
        version: CHAT_VERSION,
        timestamp: new Date().toISOString(),
        queue_services: 'ok',
        data_services: dataServices,
      };
    },
  );

  // The dashboard (web/dashboard), at Chatwoot's /app paths; the website chat's frame (web/widget),
  // which customers' sites embed, and its loader (web/sdk) at Chatwoot's path for their snippet.
  if (webRoot !== false) {
    const builds = path.dirname(webRoot);
    await registerWebAssets(app, { root: webRoot, prefix: '/app' });
    await registerWebAssets(app, { root: path.join(builds, 'widget'), prefix: '/widget', framable: true });
    registerWebScript(app, { file: path.join(builds, 'packs/js/sdk.js'), url: '/packs/js/sdk.js' });
  }

  await registerMultipart(app); // file uploads (messages); other routes answer 400 to multipart
  const services = createChatServices(deps);
  if (options.background) {
    const background = createChatBackground(deps, services, app.log, {
      ...options.background,
      realtimeSink: (event) => cable.deliver(event),
    });
    app.decorate('chatBackground', background);
    app.addHook('onReady', async () => background.start());
    stopWithTheApp(app, background);
  }
  await app.register(async (api) => {
    await api.register(authPlugin, { deps });
    for (const module of chatModules)
      for (const routes of module.routes ?? []) await api.register(routes, { services });
  });

  return app;
}
