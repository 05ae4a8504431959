import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import { financeApiDocs } from './api-docs.js';
import { sql, type Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DialectName } from '../core/db/database.js';
import { settledBy } from '../core/background/deadline.js';
import { stopWithTheApp } from '../core/background/runtime.js';
import { createBaseApp } from '../core/http/app-base.js';
import type { App } from '../core/http/app.types.js';
import { shutdownDeadlineOf } from '../core/http/shutdown.js';
import type { Metrics } from '../core/http/metrics.js';
import { financeErrorBody, requestLanguage } from '../core/http/error-handler.js';
import { createSecretBox } from '../core/security/encryption.js';
import { loadOrCreateSecret } from '../core/security/secrets.js';
import { financeAuthPlugin } from './auth/finance-auth.plugin.js';
import { createFinanceBackground, type FinanceBackground, type FinanceBackgroundOptions } from './background.js';
import type { FinanceDeps, FinanceSecrets } from './context.js';
import type { FinanceDatabase } from './db/schema.js';
import { localizeMessage } from './http/envelope.js';
import { createFinanceServices, financeModules } from './modules.js';
import './i18n/messages.js';

export const FINANCE_VERSION = '0.1.0';

export interface FinanceAppOptions {
  db: Kysely<FinanceDatabase>;
  dialect: DialectName;
  config: Config;
  logger: FastifyServerOptions['logger'] | FastifyBaseLogger;
  /** Process-wide metrics (METRICS=on): this app's requests and queues are measured. */
  metrics?: Metrics;
  /** Run the outbox dispatcher, webhook worker and housekeeping with the app (production; tests that need them). */
  background?: FinanceBackgroundOptions | false;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The background work of the finance service, when the app runs it. */
    financeBackground?: FinanceBackground;
  }
}

/**
 * The secrets of the finance service: from the environment, or generated once and kept under
 * DATA_DIR (finance-jwt.key, finance-encryption.key; mode 0600).
 */
export function loadFinanceSecrets(config: Config): FinanceSecrets {
  const jwtSecret = loadOrCreateSecret(config.dataDir, 'finance-jwt.key', config.finance.jwtSecret);
  const encryptionKey = loadOrCreateSecret(config.dataDir, 'finance-encryption.key', config.finance.encryptionKey);
  return {
    jwtKey: new TextEncoder().encode(jwtSecret),
    box: createSecretBox(encryptionKey, 'finance-secrets'),
  };
}

/** The finance service as a Fastify app (same factory for production and tests). The database must be migrated. */
export async function buildFinanceApp(options: FinanceAppOptions): Promise<App> {
  const app = await createBaseApp({
    title: 'Ponte finance service',
    description: 'Login, accounts, SMTP, accountant reports, notifications and finance webhooks.',
    version: FINANCE_VERSION,
    logger: options.logger,
    docs: financeApiDocs,
    errorBody: financeErrorBody,
    service: 'finance',
    corsOrigins: options.config.http.corsOrigins,
    openCorsPrefixes: [],
    trustProxy: options.config.http.trustProxy,
    requestTimeoutMs: options.config.http.requestTimeoutMs,
    connectionTimeoutMs: options.config.http.connectionTimeoutMs,
    metrics: options.metrics,
    exposeMetrics: options.metrics !== undefined && options.config.metrics.port === null,
    healthCheck: async () => {
      await sql`select 1`.execute(options.db);
    },
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
  });
  const deps: FinanceDeps = {
    db: options.db,
    dialect: options.dialect,
    config: options.config,
    secrets: loadFinanceSecrets(options.config),
    logger: app.log,
  };
  const services = createFinanceServices(deps);
  if (options.background) {
    const background = createFinanceBackground(deps, services, app.log, options.background);
    app.decorate('financeBackground', background);
    app.addHook('onReady', async () => background.start());
    stopWithTheApp(app, background);
  }
  // Password reset e-mails still being sent finish before the database closes (or the shutdown bound).
  app.addHook('onClose', async () => {
    await settledBy(services.passwords.settle(), shutdownDeadlineOf(app));
  });
  // Success messages (`ok(data, message)`) are written in the request's language.
  app.addHook('preSerialization', async (request, _reply, payload) => {
    localizeMessage(payload, requestLanguage(request));
    return payload;
  });
  await app.register(async (api) => {
    await api.register(financeAuthPlugin, { deps });
    for (const module of financeModules)
      for (const routes of module.routes ?? []) await api.register(routes, { services });
  });
  return app;
}
