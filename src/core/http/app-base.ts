import Fastify, {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { parseQueryString, unwrapBody } from './compat.js';
import { describeRoute, withExamples, type ApiDocs } from './api-docs.js';
import { createValidatorCompiler, lazySerializers } from './validation.js';
import { MAX_JSON_DEPTH, nestingDepthExceeds } from './body-shape.js';
import { HttpError } from './errors.js';
import type { Metrics } from './metrics.js';
import { installErrorHandling, requestLanguage, type ErrorFormatter } from './error-handler.js';
import { render, t } from '../i18n/catalogue.js';
import { StorageHealth } from './storage-health.js';
import { installShutdownHooks } from './shutdown.js';
import type { App } from './app.types.js';
import { installRequestLog } from '../logging/request-log.js';
import { answerNonIntegerIdsAsUnknownPaths } from './path-params.js';
import { addPutAliases } from './put-aliases.js';

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
  /**
   * Read requests as Rails does (validation.ts `ValidatorOptions`): JSON bodies and query strings
   * converted as Rails casts parameters, and a request without a body read as an empty one where
   * the route takes an object. The conversation service.
   */
  railsBodies?: boolean;
  /** Every PATCH route also answers PUT, as Rails `resources` routes do (put-aliases.ts). */
  putAliasesPatch?: boolean;
  /** A path whose integer id is not a whole number in range matches nothing: 404 (path-params.ts). */
  integerIdsOrNotFound?: boolean;
  /** The service's name in metrics (`chat`, `finance`). */
  service?: string;
  /** Origins allowed to call the API from a browser (`*` for any). */
  corsOrigins?: readonly string[];
  /** Path prefixes any origin may call (the widget's public interface). */
  openCorsPrefixes?: readonly string[];
  /** Fastify's trustProxy (TRUST_PROXY): client addresses behind a reverse proxy. */
  trustProxy?: boolean | number | readonly string[];
  /** Request metrics; `/metrics` is served on this app too when `exposeMetrics`. */
  metrics?: Metrics;
  exposeMetrics?: boolean;
  /** The docs pages' introduction and access sentences (api-docs.ts). */
  docs?: ApiDocs;
  /** Where `GET /` sends a browser (the service's web app); other clients get the service's page. */
  browserHome?: string;
  /** The longest a client may take to send a whole request (ms; REQUEST_TIMEOUT_SECONDS). */
  requestTimeoutMs?: number;
  /** How long a connection may stay silent both ways before it is closed (ms; CONNECTION_TIMEOUT_SECONDS). */
  connectionTimeoutMs?: number;
}

/** The docs pages' top bar: a bridge and the name, white on Swagger UI's dark bar. */
const PONTE_LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="150" height="40" viewBox="0 0 150 40">' +
  '<path d="M4 30 Q22 6 40 30" fill="none" stroke="#fff" stroke-width="3"/>' +
  '<path d="M2 30 H42 M13 19 V30 M22 15 V30 M31 19 V30" stroke="#fff" stroke-width="2"/>' +
  '<text x="50" y="29" fill="#fff" font-family="system-ui,sans-serif" font-size="24" font-weight="700">Ponte</text></svg>';

/** An incoming X-Request-Id is kept when it is short and plain; otherwise a new id is made. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

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

/** Whether a route's body schema is a JSON object (not multipart's content map, not absent). */
const takesObject = (schema: unknown) =>
  schema !== null && typeof schema === 'object' && (schema as { type?: unknown }).type === 'object';

const isMultipart = (request: { headers: Record<string, unknown> }) =>
  String(request.headers['content-type'] ?? '')
    .toLowerCase()
    .startsWith('multipart/');

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const tooDeep = () =>
  new HttpError(
    400,
    'body_too_deep',
    t('The request body nests objects or arrays deeper than %{max} levels', { max: MAX_JSON_DEPTH }),
  );

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
    schemaController: { compilersFactory: { buildSerializer: lazySerializers() } },
    // A shutdown answers in the service's error body (shutdown.ts), not with Fastify's own 503.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // Without them Fastify reads a body for as long as it keeps coming (config.ts names the defaults).
    ...(options.requestTimeoutMs ? { requestTimeout: options.requestTimeoutMs } : {}),
    ...(options.connectionTimeoutMs ? { connectionTimeout: options.connectionTimeoutMs } : {}),
    // A number is a count of proxy hops (proxy-addr); Fastify's types omit it.
    trustProxy: (options.trustProxy ?? false) as boolean,
    requestIdHeader: false,
    // One line per request instead of Fastify's two (core/logging/request-log.ts).
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: true }),
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Errors the router raises before any route (a path that is not valid percent-encoding, a
    // path parameter over maxParamLength) get the service's error body too.
    frameworkErrors: (error, request, reply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      const status = tooLong ? 414 : 400;
      const message = render(
        tooLong
          ? 'A path segment of the request is too long'
          : 'The request path is not valid (malformed percent-encoding)',
        requestLanguage(request as FastifyRequest),
      );
      void (reply as FastifyReply)
        .code(status)
        .send(options.errorBody(status, tooLong ? 'uri_too_long' : 'malformed_path', message));
    },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  app.setValidatorCompiler(createValidatorCompiler({ railsBodies: options.railsBodies }));
  // Both before any route is added: they act on every route.
  if (options.integerIdsOrNotFound) answerNonIntegerIdsAsUnknownPaths(app);
  if (options.putAliasesPatch) addPutAliases(app);

  // Every answer names its request: the id logs carry (and the caller's own, when it sent one).
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installRequestLog(app);
  options.metrics?.instrument(app, options.service ?? 'app');

  // Browsers: the public interface (widgets on customers' sites) from any origin; the rest of the
  // API from CORS_ORIGINS only. Preflight requests are answered here.
  const allowed = new Set(options.corsOrigins ?? []);
  const openPrefixes = options.openCorsPrefixes ?? [];
  await app.register(cors, {
    hook: 'onRequest',
    delegator: (request, callback) => {
      const path = (request.url ?? '').split('?')[0];
      const open = openPrefixes.some((prefix) => path.startsWith(prefix));
      const origin = request.headers.origin;
      const permitted = open || allowed.has('*') || (origin !== undefined && allowed.has(origin));
      callback(null, {
        origin: permitted,
        methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
        allowedHeaders: [
          'content-type',
          'authorization',
          'api_access_token',
          'api-access-token',
          'x-request-id',
          'x-setup-token',
        ],
        exposedHeaders: ['x-request-id', 'retry-after'],
        maxAge: 600,
      });
    },
  });

  // After CORS, so that a browser can read the refusals of a shutdown.
  installShutdownHooks(app);

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

  // A full storage refuses writes with 503 (error-handler.ts); /health and /metrics report it, and
  // the next write that goes through clears it.
  const storage = new StorageHealth();
  installErrorHandling(app, options.errorBody, {
    onStorageFull: () => {
      storage.refused();
      options.metrics?.countStorageFull(options.service ?? 'app');
    },
  });
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode < 400 && !['GET', 'HEAD', 'OPTIONS'].includes(request.method)) storage.wrote();
  });

  app.addHook('preValidation', async (request) => {
    // No string of a request carries NUL: PostgreSQL cannot store it in text, and no field needs it.
    for (const [part, value] of [
      ['path', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
      const field = nulAt(value, part);
      if (field)
        throw new HttpError(422, 'invalid_character', t('%{field} contains a NUL character (\\u0000)', { field }), [
          { field, message: 'contains a NUL character' },
        ]);
    }
    const { config, schema } = request.routeOptions;
    // No body at all (a bare `curl -X POST`, n8n's POST without fields) where the route takes an
    // object: Rails reads it as empty parameters, and so the schema names what is missing, if anything.
    if (options.railsBodies && request.body === undefined && !isMultipart(request) && takesObject(schema?.body))
      request.body = {};
    const key = config?.bodyKey;
    if (key && request.body !== undefined) request.body = unwrapBody(request.body, key);
  });

  const docs = options.docs;
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: options.title,
        description: docs ? `${options.description}\n\n${docs.intro}` : options.description,
        version: options.version,
      },
      components: { securitySchemes: (options.securitySchemes ?? {}) as never },
    },
    hideUntagged: false,
    ...(docs
      ? {
          transform: describeRoute(docs),
          transformObject: (document) => withExamples('openapiObject' in document ? document.openapiObject : {}),
        }
      : {}),
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    theme: { title: `${options.title}: API` },
    logo: { type: 'image/svg+xml', content: Buffer.from(PONTE_LOGO) },
  });

  const browserHome = options.browserHome;
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    if (browserHome && /text\/html/i.test(String(request.headers.accept ?? '')))
      return reply.header('vary', 'Accept').redirect(browserHome, 302);
    return reply
      .header('vary', 'Accept')
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(options.title)}</title>` +
          '<meta name="viewport" content="width=device-width, initial-scale=1">' +
          '<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1f2937;line-height:1.5}a{color:#2563eb}</style>' +
          `</head><body><h1>${escapeHtml(options.title)}</h1><p>${escapeHtml(options.description)}</p>` +
          `<p>Version ${escapeHtml(options.version)}.</p><ul><li><a href="docs">API documentation</a></li>` +
          '<li><a href="openapi.json">OpenAPI document</a></li><li><a href="health">Health</a></li></ul></body></html>',
      );
  });

  if (options.metrics && options.exposeMetrics) {
    const metrics = options.metrics;
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
      const { contentType, body } = await metrics.render();
      return reply.type(contentType).send(body);
    });
  }

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  app.get(
    '/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness and database check',
        description:
          '200 while the service can serve: `ok`, or `degraded` with its reasons (`storage_full`: writes ' +
          'were refused because the disk or database is full; reads still work and a restart would not help).',
        response: {
          200: Type.Object({
            status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
            reasons: Type.Optional(Type.Array(Type.String())),
          }),
        },
      },
    },
    async () => {
      await options.healthCheck();
      const reasons = storage.reasons();
      return reasons.length > 0 ? { status: 'degraded' as const, reasons } : { status: 'ok' as const };
    },
  );

  return app;
}
