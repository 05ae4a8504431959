import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DialectName } from '../core/db/database.js';
import { createBaseApp, type App } from '../core/http/app-base.js';
import { financeErrorBody } from '../core/http/error-handler.js';
import type { FinanceDatabase } from './db/schema.js';

export const FINANCE_VERSION = '0.1.0';

export interface FinanceAppOptions {
  db: Kysely<FinanceDatabase>;
  dialect: DialectName;
  config: Config;
  logger: FastifyServerOptions['logger'] | FastifyBaseLogger;
}

/** The finance service as a Fastify app (same factory for production and tests). */
export async function buildFinanceApp(options: FinanceAppOptions): Promise<App> {
  const app = await createBaseApp({
    title: 'Ponte finance service',
    description: 'Login, accounts, SMTP, accountant reports, notifications and finance webhooks.',
    version: FINANCE_VERSION,
    logger: options.logger,
    errorBody: financeErrorBody,
    healthCheck: async () => {
      await sql`select 1`.execute(options.db);
    },
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
  });
  return app;
}
