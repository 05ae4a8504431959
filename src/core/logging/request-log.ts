import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * One log line per request (Fastify's own two, "incoming request" and "request completed", are
 * off): written when the answer has gone, with the method, the path (secret query values masked by
 * the logger's serializer), the status, the time taken and, for a refusal, its code and reason.
 * A failure (5xx) also has its own error line with the stack, from the error handler.
 */

interface Refusal {
  code: string;
  reason: string;
}

const refusals = new WeakMap<FastifyRequest, Refusal>();

/** The error handler notes why a request was refused; the request's line carries it. */
export function noteRefusal(request: FastifyRequest, code: string, reason: string): void {
  refusals.set(request, { code, reason });
}

export function installRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const refusal = refusals.get(request);
    request.log.info(
      {
        req: request,
        res: { statusCode: reply.statusCode },
        responseTime: Math.round(reply.elapsedTime * 10) / 10,
        ...(refusal ?? {}),
      },
      'request completed',
    );
  });
}
