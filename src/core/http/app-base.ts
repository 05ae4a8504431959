import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
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

/** Where a value (nested at most MAX_JSON_DEPTH deep) holds a string or key with NUL, as a field path; null if nowhere. */
function nulAt(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  for (const [key, inner] of Object.entries(value)) {
    const at = key.includes('\u0000') ? `${path}.${key}` : nulAt(inner, `${path}.${key}`);
    if (at) return at;
  }
  return null;
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
    // Errors the router raises before any route (a path that is not valid percent-encoding, a
    // path parameter over maxParamLength) get the service's error body too.
    frameworkErrors: (error, _request, reply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      const status = tooLong ? 414 : 400;
      const message = tooLong
        ? 'A path segment of the request is too long'
        : 'The request path is not valid (malformed percent-encoding)';
      void (reply as FastifyReply)
        .code(status)
        .send(options.errorBody(status, tooLong ? 'uri_too_long' : 'malformed_path', message));
    },
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
    // No string of a request carries NUL: PostgreSQL cannot store it in text, and no field needs it.
    for (const [part, value] of [
      ['path', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
      const field = nulAt(value, part);
      if (field)
        throw new HttpError(422, 'invalid_character', `${field} contains a NUL character (\\u0000)`, [
          { field, message: 'contains a NUL character' },
        ]);
    }
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

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

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
