import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorObject } from 'ajv';
import { english, render, t, type Text } from '../i18n/catalogue.js';
import { languageOf, type Language } from '../i18n/language.js';
import { HttpError, type FieldIssue, type FieldProblem } from './errors.js';
import { humanize } from './validation-messages.js';
import { isStorageFull, STORAGE_FULL_RETRY_AFTER_SECONDS } from './storage-health.js';
import { noteRefusal } from '../logging/request-log.js';

/** Renders an error body in a service's own format (chat and finance differ). */
export type ErrorFormatter = (status: number, code: string, message: string, details?: FieldProblem[]) => unknown;

export const chatErrorBody: ErrorFormatter = (_status, code, message, details) => ({
  error: message,
  code,
  ...(details && details.length > 0 ? { details } : {}),
});

export const financeErrorBody: ErrorFormatter = (_status, code, message, details) => ({
  success: false,
  message,
  error: { code, ...(details && details.length > 0 ? { details } : {}) },
});

/** Maps driver errors for unique violations (SQLite and PostgreSQL) to a 409. */
function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string };
  return e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e?.code === '23505';
}

function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string };
  return e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || e?.code === '23503';
}

/** An error as the client gets it: status, stable code, and the sentence and field problems in a language. */
export interface Mapped {
  status: number;
  code: string;
  message: string;
  details?: FieldProblem[];
  headers?: Record<string, string>;
}

/** An error before rendering: a text of the catalogue (or problems already worded, from validation). */
interface Classified {
  status: number;
  code: string;
  text: Text;
  details?: FieldIssue[];
  problems?: FieldProblem[];
  headers?: Record<string, string>;
}

const unsupportedType = {
  status: 400,
  code: 'unsupported_content_type',
  text: 'Unsupported or malformed request content type',
} as const;
const malformedJson = { status: 400, code: 'malformed_body', text: 'The request body is not valid JSON' } as const;
const tooLarge = { status: 413, code: 'payload_too_large', text: 'Request too large' } as const;

/** What Fastify's body parsers and the multipart plugin refuse, in the catalogue's words. */
const FRAMEWORK_REFUSALS: Record<string, { status: number; code: string; text: Text }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: malformedJson,
  FST_ERR_CTP_EMPTY_JSON_BODY: malformedJson,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: unsupportedType,
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: unsupportedType,
  FST_INVALID_MULTIPART_CONTENT_TYPE: unsupportedType,
  FST_ERR_CTP_BODY_TOO_LARGE: { ...tooLarge, text: 'Request body is too large' },
  FST_REQ_FILE_TOO_LARGE: tooLarge,
  FST_FILES_LIMIT: tooLarge,
  FST_PARTS_LIMIT: tooLarge,
  FST_FIELDS_LIMIT: tooLarge,
};

/** The sentence of any other refusal Fastify or a plugin raises, by its status. */
function refusalText(status: number): Text {
  switch (status) {
    case 401:
      return 'Invalid or missing access token';
    case 403:
      return 'You are not allowed to do this';
    case 404:
      return 'Resource not found';
    case 413:
      return 'Request too large';
    case 415:
      return 'Unsupported or malformed request content type';
    case 429:
      return 'Too many requests, try again later';
    default:
      return 'The request could not be processed';
  }
}

function classify(err: FastifyError | Error, language: Language): Classified {
  if (err instanceof HttpError) {
    return { status: err.statusCode, code: err.code, text: err.text, details: err.details, headers: err.headers };
  }
  const fe = err as FastifyError & { validationContext?: string };
  if (fe.validation) {
    const problems = humanize(fe.validation as unknown as ErrorObject[], language, fe.validationContext ?? 'body');
    const summary = problems.map((d) => `${d.field} ${d.message}`).join('; ');
    const text = t('Invalid request: %{problems}', { problems: summary });
    return { status: 422, code: 'validation_failed', text, problems };
  }
  // Operational, not a bug (decisions §2): the request changed nothing and may be sent again.
  if (isStorageFull(err))
    return {
      status: 503,
      code: 'storage_full',
      text: "The server's storage is full, so nothing was saved; try again later",
      headers: { 'retry-after': String(STORAGE_FULL_RETRY_AFTER_SECONDS) },
    };
  if (isUniqueViolation(err))
    return { status: 409, code: 'conflict', text: 'A record with the same unique value already exists' };
  if (isForeignKeyViolation(err))
    return { status: 422, code: 'unprocessable_entity', text: 'A referenced record does not exist' };
  const known = fe.code ? FRAMEWORK_REFUSALS[fe.code] : undefined;
  if (known) return { ...known };
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    return { status, code: (fe.code ?? 'bad_request').toLowerCase(), text: refusalText(status) };
  }
  return { status: 500, code: 'internal_error', text: 'Internal server error' };
}

/** An error as the client gets it, in a language (English by default). */
export function mapError(err: FastifyError | Error, language: Language = 'en'): Mapped {
  const c = classify(err, language);
  const details =
    c.problems ?? c.details?.map((issue) => ({ field: issue.field, message: render(issue.message, language) }));
  return {
    status: c.status,
    code: c.code,
    message: render(c.text, language),
    ...(details ? { details } : {}),
    ...(c.headers ? { headers: c.headers } : {}),
  };
}

/** The language a request's answers are written in: its Accept-Language. */
export const requestLanguage = (request: FastifyRequest): Language => languageOf(request.headers['accept-language']);

/**
 * Logs a failure, or notes a refusal's code and English reason for the request's one log line
 * (never the body, which may hold secrets).
 */
export function logRefusal(request: FastifyRequest, err: FastifyError | Error, mapped: Mapped, language: Language) {
  if (mapped.status >= 500) request.log.error({ err, statusCode: mapped.status }, 'request failed');
  else noteRefusal(request, mapped.code, language === 'en' ? mapped.message : mapError(err).message);
}

export interface ErrorHooks {
  /** A request was refused with 503 storage_full (health and metrics count it). */
  onStorageFull?(): void;
}

/** Installs the one error handler and the 404 handler of a service. */
export function installErrorHandling(app: FastifyInstance, format: ErrorFormatter, hooks: ErrorHooks = {}): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const language = requestLanguage(request);
    const mapped = mapError(err, language);
    if (mapped.code === 'storage_full') hooks.onStorageFull?.();
    logRefusal(request, err, mapped, language);
    if (mapped.headers) reply.headers(mapped.headers);
    return reply.status(mapped.status).send(format(mapped.status, mapped.code, mapped.message, mapped.details));
  });
  app.setNotFoundHandler((request, reply) => {
    const route = t('Route %{route} not found', { route: `${request.method} ${request.url.split('?')[0]}` });
    noteRefusal(request, 'not_found', english(route));
    return reply.status(404).send(format(404, 'not_found', render(route, requestLanguage(request))));
  });
}
