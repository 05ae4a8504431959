import type { FastifyContextConfig, FastifySchema } from 'fastify';
import { sample } from 'openapi-sampler';

/**
 * What the docs pages (`/docs`, `/openapi.json`) say about every operation, derived from the
 * routes themselves so that it cannot drift from what they do:
 * - a description: the summary, then who may call the operation (from the route's access config);
 * - examples of JSON request bodies and 2xx JSON responses, generated from their schemas
 *   (openapi-sampler). `test/api-docs.test.ts` validates every example against its schema.
 */

export interface ApiDocs {
  /** Markdown shown above the operations: what the service is, tokens, a first request. */
  intro: string;
  /** Who may call a route, as a sentence ("Any member of the account."), from its config. */
  access: (config: FastifyContextConfig) => string;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** @fastify/swagger `transform`: adds the access sentence to every operation's description. */
export function describeRoute(docs: ApiDocs) {
  return ({ schema, url, route }: { schema: FastifySchema; url: string; route: { config?: unknown } }) => {
    if (!schema || (schema as JsonObject).hide) return { schema, url };
    const own = schema as FastifySchema & { summary?: string; description?: string };
    const access = docs.access((route.config ?? {}) as FastifyContextConfig);
    const lead = own.description ?? (own.summary ? sentence(own.summary) : '');
    const description = [lead, `**Access:** ${access}`].filter(Boolean).join('\n\n');
    return { schema: { ...schema, description } as FastifySchema, url };
  };
}

const sentence = (text: string) => (/[.!?)]$/.test(text) ? text : `${text}.`);

/** @fastify/swagger `transformObject`: examples for every JSON body and 2xx JSON response without one. */
export function withExamples<D extends { paths?: JsonObject }>(document: D): D {
  for (const item of Object.values(document.paths ?? {})) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const body = isObject(operation.requestBody) ? operation.requestBody : undefined;
      exampleFor(body, document, { skipReadOnly: true });
      for (const [status, response] of Object.entries(isObject(operation.responses) ? operation.responses : {})) {
        if (/^2\d\d$/.test(status) && isObject(response)) exampleFor(response, document, { skipWriteOnly: true });
      }
    }
  }
  return document;
}

function exampleFor(
  holder: JsonObject | undefined,
  document: object,
  options: { skipReadOnly?: boolean; skipWriteOnly?: boolean },
): void {
  const content = holder && isObject(holder.content) ? holder.content : undefined;
  const media = content && isObject(content['application/json']) ? content['application/json'] : undefined;
  if (!media || media.example !== undefined || media.examples !== undefined || !isObject(media.schema)) return;
  media.example = sample(media.schema as never, { ...options, quiet: true, enablePatterns: true }, document);
}
