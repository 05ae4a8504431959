import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { parseQueryString, unwrapBody } from './compat.js';
import { createValidatorCompiler } from './validation.js';
import { MAX_JSON_DEPTH, nestingDepthExceeds } from './body-shape.js';
import { HttpError } from './errors.js';
import { installErrorHandling, type ErrorFormatter } from './error-handler.js';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Resource key under which Rails-style clients may wrap the body (`{"contact": {...}}`). */
    bodyKey?: string;
  }
}

export interface BaseAppOptions {
  title: string;
  description: string;
  version: string;
  logger: FastifyServerOptions['logger'] | FastifyBaseLogger;
  errorBody: ErrorFormatter;
  securitySchemes?: Record<string, unknown>;
  bodyLimit?: number;
  /** Throws when the service cannot serve (for example the database is unreachable). */
  healthCheck: () => Promise<void>;
}

const tooDeep = () =>
  new HttpError(400, 'body_too_deep', `The request body nests objects or arrays deeper than ${MAX_JSON_DEPTH} levels`);

/**
 * A Fastify instance with the HTTP conventions both services share: TypeBox schemas, Rails-style
 * query arrays and wrapped bodies, trailing slashes, the error handler, `/health`, the OpenAPI
 * document at `/openapi.json` and a docs page at `/docs`. Routes are registered by the caller.
 */
export async function createBaseApp(options: BaseAppOptions): Promise<App> {
  const loggerIsInstance = typeof options.logger === 'object' && options.logger !== null && 'child' in options.logger;
  const app = Fastify({
    ...(loggerIsInstance
      ? { loggerInstance: options.logger as FastifyBaseLogger }
      : { logger: options.logger as FastifyServerOptions['logger'] }),
    routerOptions: {
      ignoreTrailingSlash: true,
      querystringParser: parseQueryString,
      maxParamLength: 500,
    },
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  app.setValidatorCompiler(createValidatorCompiler());

  // An empty body sent as application/json (many HTTP clients do this on bodiless POSTs) is no
  // body, not malformed JSON; a body nested deeper than MAX_JSON_DEPTH is refused unparsed;
  // anything else goes through Fastify's own parser (which also refuses __proto__ and constructor keys).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    if (nestingDepthExceeds(text)) return done(tooDeep(), undefined);
    return parseJson(request, text, done);
  });

  installErrorHandling(app, options.errorBody);

  app.addHook('preValidation', async (request) => {
    const key = request.routeOptions.config?.bodyKey;
    if (key && request.body !== undefined) request.body = unwrapBody(request.body, key);
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: options.title, description: options.description, version: options.version },
      components: { securitySchemes: (options.securitySchemes ?? {}) as never },
    },
    hideUntagged: false,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });

  app.get(
    '/openapi.json',
    { schema: { hide: true } },
    async () => app.swagger(),
  );

  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness and database check',
        response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      },
    },
    async () => {
      await options.healthCheck();
      return { status: 'ok' as const };
    },
  );

  return app;
}
