import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from './app.types.js';

/**
 * A path segment where a route expects an integer id (`/conversations/abc`,
 * `/pipeline/automations/all_executions` before that route existed) names nothing: the request
 * is answered as any path that matches no route is, 404 `not_found` from the not-found handler,
 * rather than a 422 about a parameter the client never meant to send. Decided once for every
 * route from the route's own params schema (decisions/0028): each integer
 * param must be decimal digits within the schema's bounds. The conversation service turns it on
 * (`integerIdsOrNotFound`); the finance service keeps its 422.
 *
 * The check runs in `onRequest`, before authentication, so that such a path answers exactly as
 * an unknown one does whoever calls it.
 */

interface IntegerParam {
  name: string;
  minimum: number;
  maximum: number;
}

interface ParamsSchema {
  properties?: Record<string, { type?: unknown; minimum?: number; maximum?: number }>;
}

const DIGITS = /^\d{1,16}$/;
const known = new WeakMap<object, IntegerParam[]>();

/** The integer params of a route's params schema (cached per schema object). */
export function integerParamsOf(schema: unknown): IntegerParam[] {
  if (schema === null || typeof schema !== 'object') return [];
  const cached = known.get(schema);
  if (cached) return cached;
  const params: IntegerParam[] = [];
  for (const [name, property] of Object.entries((schema as ParamsSchema).properties ?? {})) {
    if (property?.type !== 'integer') continue;
    params.push({
      name,
      minimum: property.minimum ?? Number.MIN_SAFE_INTEGER,
      maximum: property.maximum ?? Number.MAX_SAFE_INTEGER,
    });
  }
  known.set(schema, params);
  return params;
}

/** Whether every integer param of the matched route holds a whole number in its bounds. */
export function integerParamsHold(request: FastifyRequest): boolean {
  const schema = (request.routeOptions.schema as { params?: unknown } | undefined)?.params;
  const params = request.params as Record<string, string | undefined> | undefined;
  for (const { name, minimum, maximum } of integerParamsOf(schema)) {
    const raw = params?.[name];
    if (raw === undefined || !DIGITS.test(raw)) return false;
    const value = Number(raw);
    if (value < minimum || value > maximum) return false;
  }
  return true;
}

/** Installs the check on every route of the app (call before routes are registered). */
export function answerNonIntegerIdsAsUnknownPaths(app: App): void {
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.is404 || integerParamsHold(request)) return;
    reply.callNotFound();
    return reply;
  });
}
